/** The directory engine's configuration (`/ldap/config`): fields, defaults, url failover, rotate-root. */
import { conformance } from '../../harness/index.js';
import { bodyAt, errorMessage, expectThat, lacksField, statusIs, success } from '../../harness/checks/index.js';
import { freePort } from '../../harness/directory/index.js';
import { READ_BACK_CA } from '../../fixtures/ldap/certificate.js';
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
  importRotation,
  ldapSuite,
  reachedDirectory,
  staticRoles,
} from './helpers.js';
import { offOrAbsent } from '../lib/fields.js';

const { mount } = ldapSuite();
const { createRole } = staticRoles(mount);
const path = () => `${mount.path}/config`;

/** bodyAt predicate: the same PEM text, whatever the line ending or trailing newline. */
const samePem = (pem: string) => (v: unknown) =>
  typeof v === 'string' && v.replace(/\r\n/g, '\n').trim() === pem.replace(/\r\n/g, '\n').trim();

conformance(
  {
    id: 'ldap.config.write-read',
    level: 'MUST',
    title: 'POST /ldap/config stores the configuration and GET returns binddn, url and userdn-based settings',
  },
  async (t) => {
    const name = await freshMount(t, null);
    t.check(await t.svc.post(`${name}/config`, { body: baseConfig(t) }), success);
    t.check(
      await t.svc.get(`${name}/config`),
      statusIs(200),
      bodyAt('/data/binddn', directory(t).bindDn, 'is the binddn written'),
      bodyAt('/data/url', directory(t).url, 'is the url written'),
    );
    // A second write with other values, url a list of two: the read follows it, the whole list.
    // The engine never connects here.
    const binddn = `cn=${t.unique('other')},${directory(t).userDn}`;
    const url = `ldap://127.0.0.1:${await freePort()},ldap://127.0.0.1:${await freePort()}`;
    t.check(await t.svc.post(`${name}/config`, { body: baseConfig(t, { binddn, url }) }), success);
    t.check(
      await t.svc.get(`${name}/config`),
      statusIs(200),
      bodyAt('/data/binddn', binddn, 'is the binddn of the second write'),
      bodyAt('/data/url', url, 'is the url of the second write'),
    );
  },
);

conformance(
  {
    id: 'ldap.config.write-read',
    level: 'MUST',
    title: 'GET /ldap/config after a full write returns every documented read field with its type',
  },
  async (t) => {
    const name = await freshMount(t, null);
    const written = baseConfig(t, {
      schema: 'ad',
      length: 20,
      certificate: READ_BACK_CA,
      starttls: true,
      insecure_tls: true,
    });
    t.check(await t.svc.post(`${name}/config`, { body: written }), success);
    // case_sensitive_names is a read field with no write field: a flag holding false may be left
    // out; when present it is a boolean. The TLS versions always hold a value (a range of versions).
    const str = (v: unknown) => typeof v === 'string';
    const bool = (v: unknown) => v === undefined || typeof v === 'boolean';
    t.check(
      await t.svc.get(`${name}/config`),
      statusIs(200),
      bodyAt('/data/binddn', written.binddn, 'is the binddn written'),
      bodyAt('/data/case_sensitive_names', bool, 'is a boolean (or left out while false)'),
      bodyAt('/data/certificate', samePem(READ_BACK_CA), 'is the certificate written'),
      bodyAt('/data/insecure_tls', true, 'is the insecure_tls written'),
      bodyAt('/data/length', 20, 'is the length written'),
      bodyAt('/data/schema', 'ad', 'is the schema written'),
      bodyAt('/data/starttls', true, 'is the starttls written'),
      bodyAt('/data/tls_max_version', str, 'is a string'),
      bodyAt('/data/tls_min_version', str, 'is a string'),
      bodyAt('/data/url', written.url, 'is the url written'),
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
      '[present]',
      'absent',
      'the bind password appears nowhere in the config read',
    );
  },
);

conformance(
  {
    id: 'ldap.config.required-fields',
    level: 'MUST',
    title: 'POST /ldap/config without binddn, without bindpass or without both on a fresh mount returns 400',
  },
  async (t) => {
    const name = await freshMount(t, null);
    const { binddn, bindpass, url } = baseConfig(t);
    t.check(await t.svc.post(`${name}/config`, { body: { url } }), statusIs(400), errorMessage);
    t.check(await t.svc.post(`${name}/config`, { body: { url, bindpass } }), statusIs(400), errorMessage);
    t.check(await t.svc.post(`${name}/config`, { body: { url, binddn } }), statusIs(400), errorMessage);
    // None of the refused writes stored a configuration.
    const read = await t.svc.get(`${name}/config`);
    expectThat(
      read.response.status === 404 || (read.response.status === 200 && !data(read).binddn),
      'not-stored',
      read.response.status,
      '404 or no binddn',
      'a refused configuration is not stored',
    );
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
    const isDefault = (when: string) =>
      bodyAt(
        '/data/url',
        (v: unknown) => typeof v === 'string' && /^ldap:\/\/127\.0\.0\.1(:389)?\/?$/.test(v),
        `is ldap://127.0.0.1 ${when}`,
      );
    const body = { binddn: 'cn=x,dc=example,dc=org', bindpass: 'not-used' };
    t.check(await t.svc.post(`${name}/config`, { body }), success);
    t.check(await t.svc.get(`${name}/config`), statusIs(200), isDefault('on the first write'));
    // A later write that omits url again: kept or given its default anew, it is still the default.
    t.check(await t.svc.post(`${name}/config`, { body: { ...body, binddn: 'cn=y,dc=example,dc=org' } }), success);
    t.check(await t.svc.get(`${name}/config`), statusIs(200), isDefault('after a write that omits it'));
  },
);

conformance(
  {
    id: 'ldap.config.schema-default',
    level: 'MUST',
    title: 'GET /ldap/config reports schema openldap by default, ad and racf are accepted and an unknown schema is not',
  },
  async (t) => {
    await configure(t, mount);
    t.check(await t.svc.get(path()), statusIs(200), bodyAt('/data/schema', 'openldap', 'is the default schema'));
    const unknown = await t.svc.post(path(), { body: baseConfig(t, { schema: 'novell' }) });
    // A target that took it would leave the file's mount searching by no attribute: put it back.
    if (unknown.response.status < 400) await configure(t, mount, { schema: 'openldap' });
    t.check(unknown, statusIs(400), errorMessage);
    // The other two values of the list, on a mount of their own (the schema changes the search).
    const name = await freshMount(t, null);
    for (const schema of ['ad', 'racf']) {
      t.check(await t.svc.post(`${name}/config`, { body: baseConfig(t, { schema }) }), success);
      t.check(
        await t.svc.get(`${name}/config`),
        statusIs(200),
        bodyAt('/data/schema', schema, 'is the schema written'),
      );
    }
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
    // The account's uid differs from its cn, so only a cn search finds it. The role read need not
    // echo the DN found by the search, so the proof is the directory: the rotated password opens
    // the entry found by cn.
    const role = await createRole(t, { username: acct.cn }, 'ua');
    const cred = t.check(await t.svc.get(`${mount.path}/static-cred/${role}`), statusIs(200));
    await expectBinds(t, acct.dn, data(cred).password, 'static-cred of a role found by cn');
  },
);

conformance(
  {
    id: 'ldap.config.url-failover',
    level: 'MUST',
    title: 'A url list whose first addresses refuse connections still reaches the directory through the next one',
  },
  async (t) => {
    const dead = `ldap://127.0.0.1:${await freePort()}`;
    const dead2 = `ldap://127.0.0.1:${await freePort()}`;
    try {
      // Two lists: the directory second, and third after two addresses that refuse connections.
      for (const [urls, which] of [
        [`${dead},${directory(t).url}`, 'second'],
        [`${dead},${dead2},${directory(t).url}`, 'third'],
      ] as const) {
        await configure(t, mount, { url: urls, connection_timeout: 2 });
        const acct = await account(t, 'fo');
        const role = await createRole(t, { username: acct.cn }, 'fo');
        const cred = t.check(await t.svc.get(`${mount.path}/static-cred/${role}`), statusIs(200));
        await expectBinds(t, acct.dn, data(cred).password, `static-cred through the ${which} url`);
      }
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
    title: 'GET /ldap/config reads back starttls, insecure_tls and certificate as written',
  },
  async (t) => {
    const name = await freshMount(t, null);
    t.check(
      await t.svc.post(`${name}/config`, {
        body: baseConfig(t, { starttls: true, insecure_tls: true, certificate: READ_BACK_CA }),
      }),
      success,
    );
    t.check(
      await t.svc.get(`${name}/config`),
      statusIs(200),
      bodyAt('/data/starttls', true, 'is the starttls written'),
      bodyAt('/data/insecure_tls', true, 'is the insecure_tls written'),
      bodyAt('/data/certificate', samePem(READ_BACK_CA), 'is the certificate written'),
    );
    // A second write with the opposite values: the read follows it.
    t.check(
      await t.svc.post(`${name}/config`, { body: baseConfig(t, { starttls: false, insecure_tls: false }) }),
      success,
    );
    t.check(
      await t.svc.get(`${name}/config`),
      statusIs(200),
      bodyAt('/data/starttls', offOrAbsent, 'is the starttls of the second write (false, or left out)'),
      bodyAt('/data/insecure_tls', offOrAbsent, 'is the insecure_tls of the second write (false, or left out)'),
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
      read.response.status,
      '404 or no binddn',
      'a read after DELETE shows no configuration',
    );
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
    // The engine must bind with the new password to rotate this entry's password.
    const use = await importRotation(t, name, 'rrchk');
    await reachedDirectory(t, use, 'after rotate-root');
    t.check(use.ex, success);
  },
);

conformance(
  {
    id: 'ldap.config.bindpass-update',
    level: 'MUST',
    title: 'A second POST /ldap/config with another bindpass: the engine binds with the new one',
  },
  async (t) => {
    const root = await adminAccount(t);
    const name = await freshMount(t, null);
    // The first write names a password the directory refuses (an engine may refuse it at once, or
    // store it: either way the second write must win); the second names the right one.
    await t.svc.post(`${name}/config`, {
      body: baseConfig(t, { binddn: root.dn, bindpass: `${root.password}-stale` }),
    });
    t.check(
      await t.svc.post(`${name}/config`, { body: baseConfig(t, { binddn: root.dn, bindpass: root.password }) }),
      success,
    );
    // The engine must bind with the second password to rotate this entry's password.
    const use = await importRotation(t, name, 'bpupd');
    await reachedDirectory(t, use, 'after the second config write');
    t.check(use.ex, success);
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
      'bind succeeds',
      'invalid credentials',
      'the old bind password no longer works',
    );
  },
);
