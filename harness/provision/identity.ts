/**
 * Identities for tests that need more than the run's token: an ACL policy and a child token
 * carrying it, child namespaces and identity groups, all removed after the test, tokens
 * registered as secrets for redaction. All are preconditions: a target that refuses them makes
 * the test not applicable (with its answer), never a failure of the rule the test is about.
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

/**
 * A child namespace `name` (run-unique when not given) of the configured namespace; removed after
 * the test. Returns its full path (`parent/child`, or `child` at the root), as a namespace header takes it.
 */
export async function createNamespace(t: T, name = t.unique('ns')): Promise<string> {
  t.precondition(await t.svc.post(`sys/namespaces/${name}`), success);
  t.track(`namespace ${name}`, () => t.svc.delete(`sys/namespaces/${name}`), 'unmount');
  const parent = t.config.svc.namespace;
  return parent ? `${parent}/${name}` : name;
}

/** An identity group (body as `POST identity/group` takes it) in `namespace`; removed after the test. Returns its id. */
export async function createGroup(
  t: T,
  body: { name?: string; policies?: string[]; member_entity_ids?: string[] },
  namespace?: string,
): Promise<string> {
  const ex = t.precondition(
    await t.svc.post('identity/group', { namespace, body: { name: t.unique('group'), ...body } }),
    success,
  );
  const id = (ex.response.body as { data?: { id?: unknown } } | undefined)?.data?.id;
  if (typeof id !== 'string' || !id)
    throw new CheckFailure('group', 'identity/group returned no data.id', 'a group id', '(missing)');
  t.track(`identity group ${id}`, () => t.svc.delete(`identity/group/id/${id}`, { namespace }));
  return id;
}
