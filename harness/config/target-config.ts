/**
 * The target config of this test worker, received from the run's hand-off service once the target
 * is ready (target-handoff.ts; the global setup provides where to ask). The setup file awaits it
 * before any test file runs, so targetConfig() is synchronous. The secrets it carries are handed
 * to the redactor as soon as the worker has it.
 */
import { inject } from 'vitest';
import { redactor } from '../redaction/redact.js';
import { receiveTarget } from './target-handoff.js';
import type { TargetConfig } from './types.js';

let config: TargetConfig | undefined;
let receiving: Promise<TargetConfig> | undefined;

const NONE =
  'no target config was provided: run the suites through `npm run conformance` or `npm test` (vitest globalSetup compose/global-setup.ts)';

function adopt(received: TargetConfig): TargetConfig {
  config = received;
  redactor.add(received.svc.token);
  redactor.add(received.sched.token);
  for (const listed of received.sched.tokens ?? []) redactor.add(listed.secret);
  if (received.ldap) redactor.add(received.ldap.bindPass);
  if (received.ldap?.tls) {
    redactor.add(received.ldap.tls.tlsBindPass);
    redactor.add(received.ldap.tls.clientKey);
    redactor.add(received.ldap.tls.serverKey);
  }
  if (received.cloud?.rootClientSecret) redactor.add(received.cloud.rootClientSecret);
  if (received.cloud?.readerClientSecret) redactor.add(received.cloud.readerClientSecret);
  return received;
}

/** The target config, waiting for the target while it is still being prepared (once per worker). */
export function receiveTargetConfig(): Promise<TargetConfig> {
  if (config) return Promise.resolve(config);
  const handoff = inject('targetHandoff');
  if (!handoff) return Promise.reject(new Error(NONE));
  receiving ??= receiveTarget(handoff).then(adopt);
  return receiving;
}

export function targetConfig(): TargetConfig {
  if (!config) throw new Error(NONE);
  return config;
}
