/**
 * The environment of a conformance run a test starts: the test's own process environment with
 * every variable of a setting (harness/config/schema.ts: the target, its token, the reference's
 * switches, ...) and the config file's cleared (a developer's SVC_ADDR or REF_FAULTS must not
 * change what the test runs against), then the test's own values.
 */
import { envNames } from '../../harness/config/settings.js';

const CLEARED = [...Object.values(envNames()), 'CONFORMANCE_CONFIG'];

export function runEnv(own: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CLEARED) env[name] = '';
  return { ...env, ...own };
}
