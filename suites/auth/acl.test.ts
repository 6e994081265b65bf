import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, statusIs } from '../../harness/checks/index.js';
import { createToken, writePolicy } from '../../harness/index.js';

const s = suite('auth');
const kv = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

/** Writes an ACL policy (removed after the test). */
const policy = writePolicy;

function tokenWith(t: T, policies: string[]): Promise<string> {
  return createToken(t, policies, { ttl: '10m' });
}

/** A secret to guard: set-up (the key-value engine's own rules are the kv suite's), so a refusal makes the test not applicable. */
async function seed(t: T, path: string): Promise<void> {
  t.precondition(await t.svc.post(`${kv.path}/data/${path}`, { body: { data: { v: '1' } } }), statusIs(200, 204));
}

conformance(
  {
    id: 'auth.acl.no-permission',
    level: 'MUST',
    title: 'GET of a path no policy of the token grants answers 403 or 404',
  },
  async (t) => {
    const base = t.unique('acl');
    await seed(t, `${base}/hidden`);
    const token = await tokenWith(t, [
      await policy(t, `path "${kv.path}/data/${base}/visible/*" { capabilities = ["read"] }`),
    ]);
    t.check(await t.svc.get(`${kv.path}/data/${base}/hidden`, { token }), statusIs(403, 404));
  },
);

conformance(
  {
    id: 'auth.acl.capability-per-path',
    level: 'MUST',
    title: 'a policy granting read on a path lets the token read it but not write it',
  },
  async (t) => {
    const base = t.unique('acl');
    await seed(t, `${base}/item`);
    const token = await tokenWith(t, [await policy(t, `path "${kv.path}/data/${base}/*" { capabilities = ["read"] }`)]);
    t.check(
      await t.svc.get(`${kv.path}/data/${base}/item`, { token }),
      statusIs(200),
      bodyAt('/data/data/v', '1', 'is the seeded value'),
    );
    t.check(
      await t.svc.post(`${kv.path}/data/${base}/item`, { token, body: { data: { v: '2' } } }),
      statusIs(403, 404),
    );
    const after = await t.svc.get(`${kv.path}/data/${base}/item`);
    t.check(after, statusIs(200), bodyAt('/data/data/v', '1', 'is unchanged by the refused write'));
  },
);

conformance(
  {
    id: 'auth.acl.deny',
    level: 'MUST',
    title: 'deny on a path refuses it although another policy of the token grants read',
  },
  async (t) => {
    const base = t.unique('acl');
    await seed(t, `${base}/open`);
    await seed(t, `${base}/closed`);
    const grant = await policy(t, `path "${kv.path}/data/${base}/*" { capabilities = ["read"] }`);
    const deny = await policy(t, `path "${kv.path}/data/${base}/closed" { capabilities = ["deny"] }`);
    const token = await tokenWith(t, [grant, deny]);
    t.check(await t.svc.get(`${kv.path}/data/${base}/open`, { token }), statusIs(200));
    t.check(await t.svc.get(`${kv.path}/data/${base}/closed`, { token }), statusIs(403, 404));
  },
);
