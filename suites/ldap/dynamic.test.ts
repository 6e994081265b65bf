/**
 * Dynamic roles of the directory engine: roles, credentials, LDIF creation, deletion and rollback,
 * TTLs.
 */
import { conformance } from '../../harness/index.js';
import { bodyAt, errorMessage, expectThat, statusBetween, statusIs, success } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif, rollbackLdif } from '../../fixtures/ldap/roles.js';
import { data, durationOf, exists, expectBinds, ldapSuite, revokeLease } from './helpers.js';
import { dynamicRoles } from './dynamic-roles.js';

const { mount } = ldapSuite();
const { rolePath, userDn, dnOf, createRole, creds, failingRole, rendered } = dynamicRoles(mount);

conformance(
  {
    id: 'ldap.dynamic.create-read',
    level: 'MUST',
    title: 'POST /ldap/role/:name without rollback_ldif stores the role and GET returns its LDIF and TTLs',
  },
  async (t) => {
    // rollback_ldif is "recommended", not required: the role is written without it.
    const name = await createRole(t, { default_ttl: 3600, max_ttl: 7200, rollback_ldif: undefined });
    const read = t.check(await t.svc.get(rolePath(name)), statusIs(200));
    t.check(
      read,
      bodyAt('/data/creation_ldif', creationLdif(userDn(t)), 'is the creation LDIF written'),
      bodyAt('/data/default_ttl', durationOf(3600), 'is the default_ttl written'),
      bodyAt('/data/max_ttl', durationOf(7200), 'is the max_ttl written'),
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.required-ldif',
    level: 'MUST',
    title: 'POST /ldap/role/:name without deletion_ldif or without creation_ldif returns 400 and stores nothing',
  },
  async (t) => {
    for (const [missing, body] of [
      ['deletion_ldif', { creation_ldif: creationLdif(userDn(t)) }],
      ['creation_ldif', { deletion_ldif: deletionLdif(userDn(t)) }],
    ] as const) {
      const name = t.unique('noldif');
      const ex = await t.svc.post(rolePath(name), { body });
      if (ex.response.status < 400) t.track(`dynamic role ${name}`, () => t.svc.delete(rolePath(name)));
      t.check(ex, statusIs(400), errorMessage);
      const read = await t.svc.get(rolePath(name));
      expectThat(
        read.response.status === 404 || read.response.status === 400,
        'not-stored',
        `a role refused for its missing ${missing} is not stored`,
        '404 or 400 (a read of a missing object: status not named)',
        read.response.status,
      );
    }
  },
);

conformance(
  {
    id: 'ldap.dynamic.creds-shape',
    level: 'MUST',
    title: 'GET /ldap/creds/:name returns username, password and distinguished_names with a lease',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    expectThat(c.lease !== '', 'lease', 'the credentials come with a lease id', 'a lease id', '');
    expectThat(
      c.dns.some((d) => d.toLowerCase() === dnOf(t, c.username).toLowerCase()),
      'dns',
      'distinguished_names names the created entry',
      dnOf(t, c.username),
      c.dns,
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.creds-account-exists',
    level: 'MUST',
    title: 'After GET /ldap/creds/:name the account exists in the directory and its password binds',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    expectThat(
      await exists(t, dnOf(t, c.username)),
      'exists',
      'the dynamic account exists in the directory',
      'present',
      'absent',
    );
    await expectBinds(t, dnOf(t, c.username), c.password, 'the dynamic password');
  },
);

conformance(
  {
    id: 'ldap.dynamic.revoke-deletes',
    level: 'MUST',
    also: ['ldap.leases.revoke-path'],
    title: 'PUT /sys/leases/revoke of a dynamic lease runs deletion_ldif: the account is gone',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    t.check(await revokeLease(t, c.lease), success);
    expectThat(
      !(await exists(t, dnOf(t, c.username))),
      'deleted',
      'the dynamic account is gone after revoke',
      'absent',
      'present',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.creation-stops-at-error',
    level: 'MUST',
    title: 'A creation LDIF error fails the request and skips the records after it',
  },
  async (t) => {
    const role = await failingRole(t, undefined);
    // The document gives no status for a failed creation: any error status.
    const ex = await t.svc.get(`${mount.path}/creds/${role}`);
    t.check(ex, statusBetween(400, 599), errorMessage);
    // The trigger: the records ran up to the failing one (the first, before it, made its entry; this
    // role has no rollback). Without that entry nothing shows where the engine stopped.
    if (!(await exists(t, dnOf(t, role))))
      t.notApplicable(
        "the creation failed but its first record's entry is not in the directory: nothing shows the records before the failing one ran",
      );
    expectThat(
      !(await exists(t, dnOf(t, `${role}-third`))),
      'skipped',
      'the record after the failing one was not run',
      'absent',
      'present',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.rollback-runs',
    level: 'MUST',
    title: 'After a creation error rollback_ldif runs and nothing is left behind',
  },
  async (t) => {
    const role = await failingRole(t, `dn: cn={{.Username}},${userDn(t)}\nchangetype: delete\n`);
    t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusBetween(400, 599));
    expectThat(
      !(await exists(t, dnOf(t, role))),
      'rolled-back',
      'the entry created before the error was removed by rollback',
      'absent',
      'present',
    );
    expectThat(!(await exists(t, dnOf(t, `${role}-third`))), 'skipped', 'no later record ran', 'absent', 'present');
  },
);

conformance(
  {
    id: 'ldap.dynamic.rollback-continues',
    level: 'MUST',
    title: 'rollback_ldif whose first record fails still runs its later records',
  },
  async (t) => {
    const role = await failingRole(t, rollbackLdif(userDn(t)));
    t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusBetween(400, 599));
    expectThat(
      !(await exists(t, dnOf(t, role))),
      'rolled-back',
      'the second rollback record removed the created entry',
      'absent',
      'present',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.partial-update',
    level: 'MUST',
    title: 'POST /ldap/role/:name with only default_ttl keeps the other keys',
  },
  async (t) => {
    const name = await createRole(t, { username_template: 'p{{random 8}}', default_ttl: 3600 });
    t.check(await t.svc.post(rolePath(name), { body: { default_ttl: 7200 } }), success);
    const read = t.check(await t.svc.get(rolePath(name)), statusIs(200));
    t.check(
      read,
      bodyAt('/data/default_ttl', durationOf(7200), 'is the updated default_ttl'),
      bodyAt('/data/username_template', 'p{{random 8}}', 'is unchanged'),
      bodyAt('/data/creation_ldif', creationLdif(userDn(t)), 'is unchanged'),
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.empty-string-deletes',
    level: 'MUST',
    title: 'POST /ldap/role/:name with username_template "" deletes the key',
  },
  async (t) => {
    const name = await createRole(t, { username_template: 'p{{random 8}}', rollback_ldif: deletionLdif(userDn(t)) });
    t.check(await t.svc.post(rolePath(name), { body: { username_template: '' } }), success);
    const read = t.check(await t.svc.get(rolePath(name)), statusIs(200));
    const v = data(read).username_template;
    expectThat(v === undefined || v === '' || v === null, 'deleted', 'username_template is gone', 'absent or empty', v);
    t.check(read, bodyAt('/data/rollback_ldif', deletionLdif(userDn(t)), 'is unchanged'));
  },
);

conformance(
  {
    id: 'ldap.dynamic.base64-ldif',
    level: 'MUST',
    title: 'LDIF sent base64-encoded in each LDIF field is returned decoded by GET /ldap/role/:name',
  },
  async (t) => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const creation = creationLdif(userDn(t));
    const deletion = deletionLdif(userDn(t));
    const rollback = rollbackLdif(userDn(t));
    const name = await createRole(t, {
      creation_ldif: b64(creation),
      deletion_ldif: b64(deletion),
      rollback_ldif: b64(rollback),
    });
    t.check(
      await t.svc.get(rolePath(name)),
      statusIs(200),
      bodyAt('/data/creation_ldif', creation, 'is the decoded creation LDIF'),
      bodyAt('/data/deletion_ldif', deletion, 'is the decoded deletion LDIF'),
      bodyAt('/data/rollback_ldif', rollback, 'is the decoded rollback LDIF'),
    );
    // The decoded creation LDIF is what runs.
    const c = await creds(t, name);
    expectThat(await exists(t, dnOf(t, c.username)), 'exists', 'the decoded creation LDIF ran', 'present', 'absent');
  },
);

conformance(
  { id: 'ldap.dynamic.default-ttl', level: 'MUST', title: 'The credential lease lasts the role default_ttl' },
  async (t) => {
    const role = await createRole(t, { default_ttl: '2h' });
    const c = await creds(t, role);
    const d = Number((c.ex.response.body as { lease_duration?: number }).lease_duration);
    expectThat(d <= 7200 && d >= 7190, 'ttl', 'lease_duration is the default_ttl', 7200, d);
  },
);

conformance(
  { id: 'ldap.dynamic.max-ttl', level: 'MUST', title: 'Renewing a dynamic lease never goes past the role max_ttl' },
  async (t) => {
    const role = await createRole(t, { default_ttl: '1h', max_ttl: '2h' });
    const c = await creds(t, role);
    const renewed = t.check(
      await t.svc.put('sys/leases/renew', { body: { lease_id: c.lease, increment: 36000 } }),
      statusIs(200),
    );
    const d = Number((renewed.response.body as { lease_duration?: number }).lease_duration);
    expectThat(d <= 7200, 'max-ttl', 'the renewed lease ends within max_ttl', '<= 7200', d);
  },
);

conformance(
  {
    id: 'ldap.dynamic.username-template-default',
    level: 'MUST',
    title: 'Without username_template the username is v_<display>_<role>_<10 random>_<unix time>',
  },
  async (t) => {
    const self = t.precondition(await t.svc.get('auth/token/lookup-self'), statusIs(200));
    const display = String(data(self).display_name ?? '');
    // The issue time as the LDIF sees it (.IssueTimeSeconds), to place {{unix_time}}.
    const r = await rendered(t, '{{.IssueTimeSeconds}}', 'deft');
    const esc = (v: string) => v.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
    const m = new RegExp(`^v_${esc(display)}_${esc(r.role)}_[A-Za-z0-9]{10}_(\\d+)$`).exec(r.username);
    expectThat(
      m !== null && Math.abs(Number(m[1]) - Number(r.value)) <= 5,
      'default-template',
      'the username follows the default template: the token display name, the role, 10 random characters, the Unix time of the request',
      `v_${display}_${r.role}_<random 10>_<about ${r.value}>`,
      r.username,
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.username-template',
    level: 'MUST',
    title: 'A username_template with .DisplayName gives the display name of the requesting token',
  },
  async (t) => {
    const self = t.precondition(await t.svc.get('auth/token/lookup-self'), statusIs(200));
    const display = String(data(self).display_name ?? '');
    const role = await createRole(t, { username_template: 'u_{{.DisplayName}}_{{random 6}}' });
    const c = await creds(t, role);
    expectThat(
      new RegExp(`^u_${display.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')}_[A-Za-z0-9]{6}$`).test(c.username),
      'display-name',
      'the username template renders the display name of the token that asked',
      `u_${display}_<random 6>`,
      c.username,
    );
  },
);

conformance(
  { id: 'ldap.dynamic.username-template', level: 'MUST', title: 'username_template fills .Username used by the LDIF' },
  async (t) => {
    const role = await createRole(t, { username_template: 'svc_{{.RoleName}}' });
    const c = await creds(t, role);
    expectThat(
      c.username === `svc_${role}`,
      'username',
      'the username is the template output',
      `svc_${role}`,
      c.username,
    );
    expectThat(
      await exists(t, dnOf(t, c.username)),
      'exists',
      'the LDIF created the entry with that username',
      'present',
      'absent',
    );
  },
);

conformance(
  { id: 'ldap.dynamic.delete', level: 'MUST', title: 'DELETE /ldap/role/:name removes the role' },
  async (t) => {
    const name = await createRole(t, {});
    t.check(await t.svc.delete(rolePath(name)), success);
    const read = await t.svc.get(rolePath(name));
    expectThat(
      read.response.status === 404 ||
        read.response.status === 400 ||
        (read.response.status === 200 && !data(read).creation_ldif),
      'deleted',
      'the role is gone',
      '404 or 400 (a read of a missing object: status not named)',
      read.response.status,
    );
  },
);
