/**
 * The dialect (header names, output prefix, names map, version probe) is split per API: a profile describes the external
 * product it was written for, so its names apply to that API only. An API the embedded reference
 * serves speaks the documents' names whatever the profile says (a run with only SCHED_ADDR set and
 * the upstream profile must not send the upstream secrets-service header to the embedded one).
 */
import { defaults } from '../config/load.js';
import type { Dialect, TargetConfig } from '../config/types.js';

type HeaderKey = Exclude<keyof Dialect, 'names' | 'versionProbe'>;

/** Which dialect keys belong to which API (`names` is split per API by its own keys). */
export const DIALECT_KEYS_OF: Record<'svc' | 'sched', HeaderKey[]> = {
  svc: ['tokenHeader', 'namespaceHeader', 'requestHeader', 'outputPrefix'],
  sched: ['nextTokenHeader', 'schedTokenHeader'],
};

/** Resets the dialect keys of `api` to the documents' names (the embedded reference serves it). */
export function useDocumentDialectFor(cfg: TargetConfig, api: 'svc' | 'sched'): void {
  const documents = defaults().dialect;
  for (const k of DIALECT_KEYS_OF[api]) cfg.dialect[k] = documents[k];
  // The version probe is the secrets service's: the embedded reference reports its own version.
  if (api === 'svc') delete cfg.dialect.versionProbe;
  if (cfg.dialect.names?.[api]) {
    const { [api]: _embedded, ...rest } = cfg.dialect.names;
    cfg.dialect.names = rest;
  }
}
