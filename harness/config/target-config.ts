/**
 * The target config of this test worker: provided by the global setup (vitest `provide`/`inject`)
 * or, while the target is still being prepared when the worker starts, received from the run's
 * hand-off service once it is ready (target-handoff.ts). The secrets it carries are handed to the
 * redactor as soon as the worker has it.
 */
import { inject } from 'vitest';
import { redactor } from '../redaction/redact.js';
import { receiveTarget } from './target-handoff.js';
import type { TargetConfig } from './types.js';

declare module 'vitest' {
  export interface ProvidedContext {
    target?: TargetConfig;
  }
}

let config: TargetConfig | undefined;
let receiving: Promise<TargetConfig> | undefined;

const NONE =
  'no target config was provided: run the suites through `npm run conformance` or `npm test` (vitest globalSetup compose/global-setup.ts)';

function adopt(provided: TargetConfig): TargetConfig {
  config = provided;
  redactor.add(provided.svc.token);
  redactor.add(provided.sched.token);
  for (const listed of provided.sched.tokens ?? []) redactor.add(listed.secret);
  if (provided.ldap) redactor.add(provided.ldap.bindPass);
  if (provided.ldap?.tls) {
    redactor.add(provided.ldap.tls.tlsBindPass);
    redactor.add(provided.ldap.tls.clientKey);
    redactor.add(provided.ldap.tls.serverKey);
  }
  if (provided.cloud?.rootClientSecret) redactor.add(provided.cloud.rootClientSecret);
  return provided;
}

/**
 * The target config, waiting for the target when the global setup has not got it ready yet: the
 * setup file awaits this before any test file runs, so targetConfig() below is synchronous.
 */
export function receiveTargetConfig(): Promise<TargetConfig> {
  if (config) return Promise.resolve(config);
  const provided = inject('target');
  if (provided) return Promise.resolve(adopt(provided));
  const handoff = inject('targetHandoff');
  if (!handoff) return Promise.reject(new Error(NONE));
  receiving ??= receiveTarget(handoff).then(adopt);
  return receiving;
}

export function targetConfig(): TargetConfig {
  if (config) return config;
  const provided = inject('target');
  if (!provided) throw new Error(NONE);
  return adopt(provided);
}
