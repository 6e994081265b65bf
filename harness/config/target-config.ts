/**
 * The target config of this test worker, as the global setup provided it (vitest `provide`/
 * `inject`); the secrets it carries are handed to the redactor on first use.
 */
import { inject } from 'vitest';
import { redactor } from '../redaction/redact.js';
import type { TargetConfig } from './types.js';

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetConfig;
  }
}

let config: TargetConfig | undefined;
export function targetConfig(): TargetConfig {
  if (!config) {
    config = inject('target');
    if (!config)
      throw new Error(
        'no target config was provided: run the suites through `npm run conformance` or `npm test` (vitest globalSetup compose/global-setup.ts)',
      );
    redactor.add(config.svc.token);
    redactor.add(config.sched.token);
    for (const listed of config.sched.tokens ?? []) redactor.add(listed.secret);
    if (config.ldap) redactor.add(config.ldap.bindPass);
    if (config.ldap?.tls) {
      redactor.add(config.ldap.tls.tlsBindPass);
      redactor.add(config.ldap.tls.clientKey);
      redactor.add(config.ldap.tls.serverKey);
    }
    if (config.cloud?.rootClientSecret) redactor.add(config.cloud.rootClientSecret);
  }
  return config;
}
