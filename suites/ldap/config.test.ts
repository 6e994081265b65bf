// size: 20 tests of one path, the directory engine's config (defaults, password policies, schemas).
import { conformance } from '../../harness/index.js';
import {
  bodyAt,
  clientError,
  errorMessage,
  expectThat,
  lacksField,
  statusIs,
  success,
} from '../../harness/checks/index.js';
import { freePort } from '../../harness/directory/index.js';
import {
  account,
  adminAccount,
  baseConfig,
  binds,
  configure,
  data,
  directory,
  expectBinds,
  expectNoBind,
  freshMount,
  ldapSuite,
  LONG,
} from './helpers.js';

const { mount } = ldapSuite();
const path = () => `${mount.path}/config`;

/** Creates a static role on a fresh account and returns the password static-cred reports. */
async function generated(
  t: Parameters<Parameters<typeof conformance>[1]>[0],
  mountPath: string,
): Promise<{ password: string; dn: string; status: number }> {
  const acct = await account(t, 'gen');
  const role = t.unique('gen');
  const created = await t.svc.post(`${mountPath}/static-role/${role}`, {
    body: { username: acct.cn, rotation_period: LONG },
  });
  if (created.response.status >= 400) return { password: '', dn: acct.dn, status: created.response.status };
  t.track(`static role ${role}`, () => t.svc.delete(`${mountPath}/static-role/${role}`));
  const cred = t.check(await t.svc.get(`${mountPath}/static-cred/${role}`), statusIs(200));
  return { password: String(data(cred).password ?? ''), dn: acct.dn, status: created.response.status };
}

conformance(
  {
    id: 'ldap.config.write-read',
    level: 'MUST',
    title: 'POST /ldap/config stores the configuration and GET returns binddn, url and userdn-based settings',
  },
  async (t) => {
    await configure(t, mount);
    const read = t.check(await t.svc.get(path()), statusIs(200));
    t.check(
      read,
      bodyAt('/data/binddn', directory(t).bindDn, 'is the binddn written'),
      bodyAt('/data/url', directory(t).url, 'is the url written'),
    );
  },
);

conformance(
  { id: 'ldap.config.bindpass-write-only', level: 'MUST', title: 'GET /ldap/config never returns bindpass' },
  async (t) => {
    await configure(t, mount);
    const read = t.check(await t.svc.get(path()), statusIs(200));
    t.check(read, lacksField('/data/bindpass'));
    expectThat(
      !JSON.stringify(read.response.body).includes(directory(t).bindPass),
      'write-only',
      'the bind password appears nowhere in the config read',
      'absent',
      '[present]',
    );
  },
);

conformance(
  {
    id: 'ldap.config.required-fields',
    level: 'MUST',
    title: 'POST /ldap/config without binddn and bindpass on a fresh mount returns 400',
  },
  async (t) => {
    const name = await freshMount(t, null);
    t.check(await t.svc.post(`${name}/config`, { body: { url: directory(t).url } }), statusIs(400), errorMessage);
  },
);

conformance(
  {
    id: 'ldap.config.url-default',
    level: 'MUST',
    title: 'GET /ldap/config reports url ldap://127.0.0.1 when none was set',
  },
  async (t) => {
    const name = await freshMount(t, null);
    t.check(
      await t.svc.post(`${name}/config`, { body: { binddn: 'cn=x,dc=example,dc=org', bindpass: 'not-used' } }),
      success,
    );
    t.check(
      await t.svc.get(`${name}/config`),
      statusIs(200),
      bodyAt(
        '/data/url',
        (v: unknown) => typeof v === 'string' && /^ldap:\/\/127\.0\.0\.1(:389)?\/?$/.test(v),
        'is ldap://127.0.0.1',
      ),
    );
  },
);

conformance(
  {
    id: 'ldap.config.schema-default',
    level: 'MUST',
    title: 'GET /ldap/config reports schema openldap by default and POST rejects an unknown schema',
  },
  async (t) => {
    await configure(t, mount);
    t.check(await t.svc.get(path()), statusIs(200), bodyAt('/data/schema', 'openldap', 'is the default schema'));
    t.check(await t.svc.post(path(), { body: baseConfig(t, { schema: 'novell' }) }), statusIs(400), errorMessage);
  },
);

conformance(
  {
    id: 'ldap.config.userattr-default',
    level: 'MUST',
    title: 'With schema openldap and no userattr a static role finds its entry by cn',
  },
  async (t) => {
    await configure(t, mount);
    const acct = await account(t, 'ua');
    const role = t.unique('ua');
    // The account's uid differs from its cn, so only a cn search finds it. The role read need not
    // echo the DN found by the search, so the proof is the directory: the rotated password opens
    // the entry found by cn.
    t.check(
      await t.svc.post(`${mount.path}/static-role/${role}`, { body: { username: acct.cn, rotation_period: LONG } }),
      success,
    );
    t.track(`static role ${role}`, () => t.svc.delete(`${mount.path}/static-role/${role}`));
    const cred = t.check(await t.svc.get(`${mount.path}/static-cred/${role}`), statusIs(200));
    await expectBinds(t, acct.dn, data(cred).password, 'static-cred of a role found by cn');
  },
);

conformance(
  {
    id: 'ldap.config.url-failover',
    level: 'MUST',
    title: 'A url list whose first address refuses connections still reaches the directory through the second',
  },
  async (t) => {
    const dead = `ldap://127.0.0.1:${await freePort()}`;
    await configure(t, mount, { url: `${dead},${directory(t).url}`, connection_timeout: 2 });
    try {
      const acct = await account(t, 'fo');
      const role = t.unique('fo');
      t.check(
        await t.svc.post(`${mount.path}/static-role/${role}`, { body: { username: acct.cn, rotation_period: LONG } }),
        success,
      );
      t.track(`static role ${role}`, () => t.svc.delete(`${mount.path}/static-role/${role}`));
      const cred = t.check(await t.svc.get(`${mount.path}/static-cred/${role}`), statusIs(200));
      await expectBinds(t, acct.dn, data(cred).password, 'static-cred through the second url');
    } finally {
      await configure(t, mount);
    }
  },
);

conformance(
  {
    id: 'ldap.config.request-timeout',
    level: 'MUST',
    title: 'POST /ldap/config accepts request_timeout as seconds and as a duration string',
  },
  async (t) => {
    t.check(await t.svc.post(path(), { body: baseConfig(t, { request_timeout: 45 }) }), success);
    t.check(await t.svc.post(path(), { body: baseConfig(t, { request_timeout: '90s' }) }), success);
    t.check(
      await t.svc.post(path(), { body: baseConfig(t, { request_timeout: 'soon' }) }),
      statusIs(400),
      errorMessage,
    );
    await configure(t, mount);
  },
);

conformance(
  {
    id: 'ldap.config.connection-timeout',
    level: 'MUST',
    title: 'POST /ldap/config accepts connection_timeout as seconds and as a duration string',
  },
  async (t) => {
    t.check(await t.svc.post(path(), { body: baseConfig(t, { connection_timeout: 10 }) }), success);
    t.check(await t.svc.post(path(), { body: baseConfig(t, { connection_timeout: '30s' }) }), success);
    await configure(t, mount);
  },
);

conformance(
  {
    id: 'ldap.config.tls-fields',
    level: 'MUST',
    title: 'GET /ldap/config reads back starttls and insecure_tls as written',
  },
  async (t) => {
    const name = await freshMount(t, null);
    t.check(
      await t.svc.post(`${name}/config`, { body: baseConfig(t, { starttls: true, insecure_tls: true }) }),
      success,
    );
    t.check(
      await t.svc.get(`${name}/config`),
      statusIs(200),
      bodyAt('/data/starttls', true, 'is the starttls written'),
      bodyAt('/data/insecure_tls', true, 'is the insecure_tls written'),
    );
  },
);

conformance(
  { id: 'ldap.config.delete', level: 'MUST', title: 'DELETE /ldap/config removes the configuration' },
  async (t) => {
    const name = await freshMount(t, null);
    t.check(await t.svc.post(`${name}/config`, { body: baseConfig(t) }), success);
    t.check(await t.svc.delete(`${name}/config`), success);
    const read = await t.svc.get(`${name}/config`);
    expectThat(
      read.response.status === 404 || (read.response.status === 200 && !data(read).binddn),
      'config-deleted',
      'a read after DELETE shows no configuration',
      '404 or no binddn',
      read.response.status,
    );
  },
);

conformance(
  {
    id: 'ldap.password.both-rejected',
    level: 'MUST',
    title: 'POST /ldap/config with both length and password_policy returns 400',
  },
  async (t) => {
    const m = await freshMount(t, null);
    t.check(
      await t.svc.post(`${m}/config`, { body: baseConfig(t, { length: 20, password_policy: 'any' }) }),
      clientError,
      errorMessage,
    );
  },
);

conformance(
  {
    id: 'ldap.password.policy-not-checked-on-save',
    level: 'MUST',
    title: 'POST /ldap/config naming a password policy that does not exist is accepted',
  },
  async (t) => {
    const m = await freshMount(t, null);
    t.check(
      await t.svc.post(`${m}/config`, { body: baseConfig(t, { password_policy: t.unique('nopolicy') }) }),
      success,
    );
  },
);

conformance(
  {
    id: 'ldap.password.policy-missing-fails-generation',
    level: 'MUST',
    title: 'With a missing password policy, generating a password (static role import) fails',
  },
  async (t) => {
    const m = await freshMount(t, { password_policy: t.unique('nopolicy') });
    const { status } = await generated(t, m);
    expectThat(
      status >= 400,
      'generation-fails',
      'creating a static role needs a password from the missing policy and fails',
      '>= 400',
      status,
    );
  },
);

conformance(
  {
    id: 'ldap.password.default-algorithm',
    level: 'MUST',
    also: ['ldap.config.length-default'],
    title: 'Without length or password_policy generated passwords have the default length 64',
  },
  async (t) => {
    const m = await freshMount(t);
    const { password, dn } = await generated(t, m);
    expectThat(password.length === 64, 'length', 'the default generator gives 64 characters', 64, password.length);
    await expectBinds(t, dn, password, 'default-generated password');
  },
);

conformance(
  {
    id: 'ldap.default-algorithm-charset',
    level: 'SHOULD',
    title: 'The pre-policy default generator produces alphanumeric passwords',
  },
  async (t) => {
    const m = await freshMount(t);
    const { password } = await generated(t, m);
    expectThat(
      password !== '' && /^[A-Za-z0-9]+$/.test(password),
      'charset',
      'the default password is alphanumeric',
      'alphanumeric',
      '[other characters]',
    );
  },
);

conformance(
  {
    id: 'ldap.password.length',
    level: 'MUST',
    title: 'With length 20 generated passwords are 20 characters and open the account',
  },
  async (t) => {
    const m = await freshMount(t, { length: 20 });
    const { password, dn } = await generated(t, m);
    expectThat(password.length === 20, 'length', 'passwords follow the configured length', 20, password.length);
    await expectBinds(t, dn, password, 'length-20 password');
  },
);

conformance(
  {
    id: 'ldap.password.policy',
    level: 'MUST',
    title: 'With password_policy generated passwords come from that policy (sys/policies/password/:name)',
  },
  async (t) => {
    const name = t.unique('pwpol');
    const policy = 'length = 24\nrule "charset" {\n  charset = "abcdefgh"\n  min-chars = 1\n}\n';
    t.check(await t.svc.post(`sys/policies/password/${name}`, { body: { policy } }), success);
    t.track(`password policy ${name}`, () => t.svc.delete(`sys/policies/password/${name}`));
    const m = await freshMount(t, { password_policy: name });
    const { password, dn } = await generated(t, m);
    expectThat(
      /^[a-h]{24}$/.test(password),
      'policy',
      'the password has the policy length and charset',
      '24 of [a-h]',
      `${password.length} characters`,
    );
    await expectBinds(t, dn, password, 'policy password');
  },
);

conformance(
  {
    id: 'ldap.rotate-root.changes-bind-password',
    level: 'MUST',
    title: 'POST /ldap/rotate-root changes the bind password in the directory and the engine keeps working',
  },
  async (t) => {
    const root = await adminAccount(t);
    const name = await freshMount(t, null);
    t.check(
      await t.svc.post(`${name}/config`, { body: baseConfig(t, { binddn: root.dn, bindpass: root.password }) }),
      success,
    );
    t.check(await t.svc.post(`${name}/rotate-root`), success);
    await expectNoBind(t, root.dn, root.password, 'the bind password before rotate-root');
    // The engine must bind with the new password to find this entry.
    const acct = await account(t, 'rrchk');
    const role = t.unique('rrchk');
    t.check(
      await t.svc.post(`${name}/static-role/${role}`, {
        body: { username: acct.cn, rotation_period: LONG, skip_import_rotation: true },
      }),
      success,
    );
  },
);

conformance(
  {
    id: 'ldap.rotate-root.not-returned',
    level: 'MUST',
    title: 'POST /ldap/rotate-root returns no password and the config read still hides it',
  },
  async (t) => {
    const root = await adminAccount(t);
    const name = await freshMount(t, null);
    t.check(
      await t.svc.post(`${name}/config`, { body: baseConfig(t, { binddn: root.dn, bindpass: root.password }) }),
      success,
    );
    const rotated = t.check(await t.svc.post(`${name}/rotate-root`), success);
    t.check(rotated, lacksField('/data/bindpass'), lacksField('/data/password'));
    t.check(await t.svc.get(`${name}/config`), statusIs(200), lacksField('/data/bindpass'));
    expectThat(
      !(await binds(t, root.dn, root.password)),
      'rotated',
      'the old bind password no longer works',
      'invalid credentials',
      'bind succeeds',
    );
  },
);
