/**
 * The target's version, which gates the release notes' known issues. On the embedded reference it
 * is the reference's own; on an external target it comes from the config (svc.version,
 * SVC_VERSION) or, when the dialect names one, from a version probe (the documents define no
 * version endpoint; the upstream products answer `GET /v1/sys/health` with `version`). Otherwise
 * it stays unknown and version-gated tests are not applicable: never gated on a default.
 */
import semver from 'semver';
import type { TargetConfig } from '../config/types.js';
import { ApiClient } from '../http/client.js';
import { valueAt } from '../spec/registry.js';

export const UNKNOWN_VERSION = 'unknown: set svc.version (SVC_VERSION) or dialect.versionProbe';

export async function resolveVersion(cfg: TargetConfig, log: (m: string) => void): Promise<void> {
  if (cfg.embedded) {
    cfg.svc.version = cfg.reference.version;
    cfg.svc.versionSource = 'embedded reference (reference.version)';
    return;
  }
  if (cfg.svc.version) return;
  const probe = cfg.dialect.versionProbe;
  if (probe && cfg.svc.addr) {
    const svc = new ApiClient(
      'svc',
      { ...cfg, timeouts: { ...cfg.timeouts, requestMs: Math.min(cfg.timeouts.requestMs, 5000) } },
      () => {},
    );
    const where = `probe GET /v1/${probe.path} ${probe.pointer} (dialect.versionProbe)`;
    try {
      const ex = await svc.get(probe.path);
      const raw = valueAt(ex.response.body, probe.pointer);
      const v = typeof raw === 'string' ? semver.coerce(raw, { includePrerelease: true })?.version : undefined;
      if (ex.response.status === 200 && v) {
        cfg.svc.version = v;
        cfg.svc.versionSource = where;
        log(`target version ${v} (from ${where})`);
        return;
      }
      cfg.svc.versionSource = `${UNKNOWN_VERSION} (the ${where} answered ${ex.response.status} without a version)`;
    } catch (err) {
      cfg.svc.versionSource = `${UNKNOWN_VERSION} (the ${where} failed: ${(err as Error).message.split('\n')[0]})`;
    }
  } else {
    cfg.svc.versionSource = UNKNOWN_VERSION;
  }
  log(`target version ${cfg.svc.versionSource}; version-gated tests are not applicable`);
}
