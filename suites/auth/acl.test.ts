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

/** A policy of the test granting `capabilities` on each path, and a token holding it. */
async function tokenFor(t: T, rules: [string, string[]][]): Promise<string> {
  const hcl = rules
    .map(([path, caps]) => `path "${path}" { capabilities = [${caps.map((c) => `"${c}"`).join(', ')}] }`)
    .join('\n');
  return tokenWith(t, [await policy(t, hcl)]);
}

conformance(
  {
    id: 'auth.acl.capability-per-path',
    level: 'MUST',
    title: 'a policy granting read and update on a path lets the token write there but not delete',
  },
  async (t) => {
    const base = t.unique('acl');
    await seed(t, `${base}/item`);
    const token = await tokenFor(t, [[`${kv.path}/data/${base}/*`, ['read', 'update']]]);
    t.check(
      await t.svc.post(`${kv.path}/data/${base}/item`, { token, body: { data: { v: '2' } } }),
      statusIs(200, 204),
    );
    t.check(await t.svc.delete(`${kv.path}/data/${base}/item`, { token }), statusIs(403, 404));
    t.check(
      await t.svc.get(`${kv.path}/data/${base}/item`),
      statusIs(200),
      bodyAt('/data/data/v', '2', 'is still readable: the refused delete removed nothing'),
    );
  },
);

/** The directory paths a LIST of `dir` is authorised against, in both spellings (with and without the trailing slash). */
const dirRules = (dir: string, caps: string[]): [string, string[]][] => [
  [dir, caps],
  [`${dir}/*`, caps],
];

conformance(
  {
    id: 'auth.acl.capability-per-path',
    level: 'MUST',
    title:
      'a policy granting read (not list) on a directory lets the token list it neither with LIST nor with GET ?list=true, while list does',
  },
  async (t) => {
    const base = t.unique('acl');
    await seed(t, `${base}/item`);
    const dir = `${kv.path}/metadata/${base}`;
    const reader = await tokenFor(t, dirRules(dir, ['read']));
    const lister = await tokenFor(t, dirRules(dir, ['list']));
    for (const listVia of ['verb', 'query'] as const) {
      const how = listVia === 'verb' ? 'LIST' : 'GET ?list=true';
      t.check(
        await t.svc.list(dir, { token: lister, listVia }),
        statusIs(200),
        bodyAt('/data/keys', ['item'], `lists the directory for the token granted list (${how})`),
      );
      t.check(await t.svc.list(dir, { token: reader, listVia }), statusIs(403, 404));
    }
    t.check(
      await t.svc.get(`${dir}/item`, { token: reader }),
      statusIs(200),
      bodyAt('/data/current_version', 1, 'is read with the read capability'),
    );
  },
);

conformance(
  {
    id: 'auth.acl.capability-per-path',
    level: 'MUST',
    title:
      'a policy path without a glob grants that path only: not a longer path beginning with it, nor a path differing only by case',
  },
  async (t) => {
    const base = t.unique('acl');
    for (const key of ['app', 'app2', 'app/x', 'App']) await seed(t, `${base}/${key}`);
    // The glob matches every path of the test (granting list only), so each refusal is the exact path's doing.
    const token = await tokenFor(t, [
      [`${kv.path}/data/${base}/*`, ['list']],
      [`${kv.path}/data/${base}/app`, ['read']],
    ]);
    t.check(await t.svc.get(`${kv.path}/data/${base}/app`, { token }), statusIs(200));
    for (const other of ['app2', 'app/x', 'App'])
      t.check(await t.svc.get(`${kv.path}/data/${base}/${other}`, { token }), statusIs(403, 404));
  },
);

conformance(
  {
    id: 'auth.acl.path-patterns',
    level: 'MUST',
    title: 'a + segment of a policy path matches exactly one path segment',
  },
  async (t) => {
    const base = t.unique('acl');
    for (const key of ['a/x', 'a/b/x']) await seed(t, `${base}/${key}`);
    // The glob matches every path of the test (granting list only), so the refusal is the + segment's doing.
    const token = await tokenFor(t, [
      [`${kv.path}/data/${base}/*`, ['list']],
      [`${kv.path}/data/${base}/+/x`, ['read']],
    ]);
    t.check(await t.svc.get(`${kv.path}/data/${base}/a/x`, { token }), statusIs(200));
    t.check(await t.svc.get(`${kv.path}/data/${base}/a/b/x`, { token }), statusIs(403, 404));
  },
);

conformance(
  {
    id: 'auth.acl.path-patterns',
    level: 'MUST',
    title:
      'the most specific matching policy path decides: an exact path granting read only is not widened by a glob granting update',
  },
  async (t) => {
    const base = t.unique('acl');
    for (const key of ['exact', 'other']) await seed(t, `${base}/${key}`);
    const token = await tokenFor(t, [
      [`${kv.path}/data/${base}/*`, ['create', 'read', 'update']],
      [`${kv.path}/data/${base}/exact`, ['read']],
    ]);
    t.check(
      await t.svc.post(`${kv.path}/data/${base}/other`, { token, body: { data: { v: '2' } } }),
      statusIs(200, 204),
    );
    t.check(await t.svc.get(`${kv.path}/data/${base}/exact`, { token }), statusIs(200));
    t.check(
      await t.svc.post(`${kv.path}/data/${base}/exact`, { token, body: { data: { v: '2' } } }),
      statusIs(403, 404),
    );
  },
);

conformance(
  {
    id: 'auth.acl.deny',
    level: 'MUST',
    title: 'deny on a glob path refuses every path under it although another policy of the token grants read',
  },
  async (t) => {
    const base = t.unique('acl');
    await seed(t, `${base}/open`);
    await seed(t, `${base}/closed/x`);
    const grant = await policy(t, `path "${kv.path}/data/${base}/*" { capabilities = ["read"] }`);
    const deny = await policy(t, `path "${kv.path}/data/${base}/closed/*" { capabilities = ["deny"] }`);
    const token = await tokenWith(t, [grant, deny]);
    t.check(await t.svc.get(`${kv.path}/data/${base}/open`, { token }), statusIs(200));
    t.check(await t.svc.get(`${kv.path}/data/${base}/closed/x`, { token }), statusIs(403, 404));
  },
);

conformance(
  {
    id: 'auth.acl.no-permission',
    level: 'MUST',
    title: 'right after a policy is rewritten to take a grant away, a request the token made just before is refused',
  },
  async (t) => {
    const base = t.unique('acl');
    await seed(t, `${base}/item`);
    const name = await policy(t, `path "${kv.path}/data/${base}/*" { capabilities = ["read"] }`);
    const token = await tokenWith(t, [name]);
    t.check(await t.svc.get(`${kv.path}/data/${base}/item`, { token }), statusIs(200));
    t.check(
      await t.svc.put(`sys/policies/acl/${name}`, {
        body: { policy: `path "${kv.path}/data/${base}/elsewhere" { capabilities = ["read"] }` },
      }),
      statusIs(200, 204),
    );
    t.check(await t.svc.get(`${kv.path}/data/${base}/item`, { token }), statusIs(403, 404));
  },
);
