/**
 * Identities for tests that need more than the run's token: an ACL policy and a child token
 * carrying it, both removed after the test, the token registered as a secret for redaction.
 * Both are preconditions: a target that refuses them makes the test not applicable (with its
 * answer), never a failure of the rule the test is about.
 */
import { CheckFailure, success } from '../checks/index.js';
import type { T } from '../author/test-api.js';

/** Writes an ACL policy (HCL) under a run-unique name; removed after the test. */
export async function writePolicy(t: T, hcl: string): Promise<string> {
  const name = t.unique('pol');
  t.precondition(await t.svc.put(`sys/policies/acl/${name}`, { body: { policy: hcl } }), success);
  t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
  return name;
}

/** A child token with `policies`; revoked after the test. */
export async function createToken(
  t: T,
  policies: string[],
  opts: { ttl?: string; displayName?: string } = {},
): Promise<string> {
  const ex = await t.svc.post('auth/token/create', {
    body: { policies, ttl: opts.ttl ?? '1h', ...(opts.displayName ? { display_name: opts.displayName } : {}) },
  });
  t.precondition(ex, success);
  const token = (ex.response.body as { auth?: { client_token?: unknown } } | undefined)?.auth?.client_token;
  if (typeof token !== 'string' || !token)
    throw new CheckFailure('token', 'auth/token/create returned no auth.client_token', 'a token', '(missing)');
  t.secret(token);
  t.track('token', () => t.svc.post('auth/token/revoke', { body: { token } }), 'revoke');
  return token;
}

/** A token whose only policy (besides default) is `hcl`. */
export async function policyToken(t: T, hcl: string): Promise<string> {
  return createToken(t, [await writePolicy(t, hcl)]);
}

/** A token granting `capabilities` on each path (`{ "transit/encrypt/*": ["update"] }`). */
export async function tokenWith(t: T, rules: Record<string, string[]>): Promise<string> {
  const hcl = Object.entries(rules)
    .map(([p, caps]) => `path "${p}" {\n  capabilities = [${caps.map((c) => `"${c}"`).join(', ')}]\n}`)
    .join('\n');
  const policy = await writePolicy(t, hcl);
  return createToken(t, [policy], { displayName: policy });
}
