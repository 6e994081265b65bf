/**
 * The environment of a conformance run a test starts: the test's own process environment with
 * every variable that picks a target, a config or reference switches cleared (a developer's
 * SVC_ADDR or REF_FAULTS must not change what the test runs against), then the test's own values.
 */
const TARGET_VARS = [
  'SVC_ADDR',
  'SVC_TOKEN',
  'SCHED_ADDR',
  'SCHED_TOKEN',
  'CONFORMANCE_CONFIG',
  'REF_FAULTS',
  'REF_VARIANTS',
] as const;

export function runEnv(own: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of TARGET_VARS) env[name] = '';
  return { ...env, ...own };
}
