/**
 * Dynamic roles of the directory engine: roles, credentials, LDIF creation, deletion and rollback,
 * TTLs.
 */
import { conformance } from '../../harness/index.js';
import { bodyAt, errorMessage, expectThat, statusBetween, statusIs, success } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif, rollbackLdif } from '../../fixtures/ldap/roles.js';
import { deleteEntry } from '../../harness/directory/index.js';
import { admin, data, durationOf, exists, expectBinds, ldapSuite } from './helpers.js';
import { dynamicRoles } from './dynamic-roles.js';
import { childDn, childThenParent, parentChildThenFailing, parentThenChild } from './ldif.js';

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
    const name = await createRole(t, { default_ttl: 3600, max_ttl: '2h', rollback_ldif: undefined });
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
        read.response.status,
        '404 or 400 (a read of a missing object: status not named)',
        `a role refused for its missing ${missing} is not stored`,
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
    // Two records, so distinguished_names has more than one entry to name.
    const role = await createRole(t, {
      creation_ldif: parentThenChild(userDn(t)),
      deletion_ldif: childThenParent(userDn(t)),
      rollback_ldif: childThenParent(userDn(t)),
    });
    const c = await creds(t, role);
    const account = dnOf(t, c.username);
    t.track(`entry below ${account}`, () => deleteEntry(admin(t), childDn(account)));
    expectThat(c.lease !== '', 'lease', '', 'a lease id', 'the credentials come with a lease id');
    expectThat(
      typeof c.username === 'string' && c.username !== '' && typeof c.password === 'string' && c.password !== '',
      'creds',
      { username: c.username, password: c.password ? '[present]' : c.password },
      'two non-empty strings',
      'the credentials carry a username and a password',
    );
    const named = (dn: string) => c.dns.some((d) => d.toLowerCase() === dn.toLowerCase());
    expectThat(
      named(account) && named(childDn(account)),
      'dns',
      c.dns,
      [account, childDn(account)],
      'distinguished_names names both entries the creation LDIF made',
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
    // Two records: every one of them runs, in order (the second is below the first).
    const role = await createRole(t, {
      creation_ldif: parentThenChild(userDn(t)),
      deletion_ldif: childThenParent(userDn(t)),
      rollback_ldif: childThenParent(userDn(t)),
    });
    const c = await creds(t, role);
    const account = dnOf(t, c.username);
    t.track(`entry below ${account}`, () => deleteEntry(admin(t), childDn(account)));
    expectThat(
      (await exists(t, account)) && (await exists(t, childDn(account))),
      'exists',
      'missing',
      'both present',
      'the dynamic account and the entry below it exist in the directory',
    );
    await expectBinds(t, dnOf(t, c.username), c.password, 'the dynamic password');
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
      'present',
      'absent',
      'the record after the failing one was not run',
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
      'present',
      'absent',
      'the entry created before the error was removed by rollback',
    );
    expectThat(!(await exists(t, dnOf(t, `${role}-third`))), 'skipped', 'present', 'absent', 'no later record ran');
  },
);

conformance(
  {
    id: 'ldap.dynamic.rollback-in-order',
    level: 'MUST',
    title:
      'After a creation error the records of rollback_ldif run in order: the entry below the account, then the account',
  },
  async (t) => {
    // The trigger first: without rollback the creation leaves the account and the entry below it
    // (its records ran in order up to the failing one), so their removal by rollback can be seen.
    const bare = await failingRole(t, undefined, parentChildThenFailing(userDn(t)));
    t.check(await t.svc.get(`${mount.path}/creds/${bare}`), statusBetween(400, 599));
    if (!(await exists(t, dnOf(t, bare))) || !(await exists(t, childDn(dnOf(t, bare)))))
      t.notApplicable(
        'without rollback the failed creation left neither the account nor the entry below it, so nothing shows a rollback removing them',
      );
    const role = await failingRole(t, childThenParent(userDn(t)), parentChildThenFailing(userDn(t)));
    t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusBetween(400, 599));
    expectThat(
      !(await exists(t, childDn(dnOf(t, role)))) && !(await exists(t, dnOf(t, role))),
      'rolled-back-in-order',
      (await exists(t, dnOf(t, role))) ? 'the account is still there' : 'the entry below it is still there',
      'both absent',
      'rollback removed the entry below the account, then the account',
    );
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
      'present',
      'absent',
      'the second rollback record removed the created entry',
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
    const name = await createRole(t, { username_template: 'p{{random 8}}', default_ttl: 3600, max_ttl: '3h' });
    t.check(await t.svc.post(rolePath(name), { body: { default_ttl: 7200 } }), success);
    const read = t.check(await t.svc.get(rolePath(name)), statusIs(200));
    t.check(
      read,
      bodyAt('/data/default_ttl', durationOf(7200), 'is the updated default_ttl'),
      bodyAt('/data/username_template', 'p{{random 8}}', 'is unchanged'),
      bodyAt('/data/creation_ldif', creationLdif(userDn(t)), 'is unchanged'),
      bodyAt('/data/max_ttl', durationOf(10800), 'is unchanged'),
    );
    // Another key alone: the TTLs it does not send stay.
    t.check(await t.svc.post(rolePath(name), { body: { username_template: 'q{{random 8}}' } }), success);
    t.check(
      await t.svc.get(rolePath(name)),
      statusIs(200),
      bodyAt('/data/username_template', 'q{{random 8}}', 'is the updated template'),
      bodyAt('/data/default_ttl', durationOf(7200), 'is unchanged'),
      bodyAt('/data/max_ttl', durationOf(10800), 'is unchanged'),
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
    expectThat(v === undefined || v === '' || v === null, 'deleted', v, 'absent or empty', 'username_template is gone');
    t.check(read, bodyAt('/data/rollback_ldif', deletionLdif(userDn(t)), 'is unchanged'));
    // Another key, an LDIF one: rollback_ldif sent as "" is deleted too.
    t.check(await t.svc.post(rolePath(name), { body: { rollback_ldif: '' } }), success);
    const after = data(t.check(await t.svc.get(rolePath(name)), statusIs(200))).rollback_ldif;
    expectThat(
      after === undefined || after === '' || after === null,
      'deleted',
      after,
      'absent or empty',
      'rollback_ldif is gone',
    );
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
    expectThat(await exists(t, dnOf(t, c.username)), 'exists', 'absent', 'present', 'the decoded creation LDIF ran');
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
      r.username,
      `v_${display}_${r.role}_<random 10>_<about ${r.value}>`,
      'the username follows the default template: the token display name, the role, 10 random characters, the Unix time of the request',
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
      c.username,
      `u_${display}_<random 6>`,
      'the username template renders the display name of the token that asked',
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
      c.username,
      `svc_${role}`,
      'the username is the template output',
    );
    expectThat(
      await exists(t, dnOf(t, c.username)),
      'exists',
      'absent',
      'present',
      'the LDIF created the entry with that username',
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
      read.response.status,
      '404 or 400 (a read of a missing object: status not named)',
      'the role is gone',
    );
  },
);
