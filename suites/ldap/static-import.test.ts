/**
 * Static roles and the password that was there before them: the import rotation on creation,
 * skip_import_rotation (on the role, as the config default, only on creation) and the first
 * rotation of a role created without one.
 */
import { conformance } from '../../harness/index.js';
import { bodyAt, errorMessage, expectThat, statusIs, success } from '../../harness/checks/index.js';
import {
  account,
  data,
  expectBinds,
  expectNoBind,
  freshMount,
  ldapSuite,
  LONG,
  refused,
  rotateNow,
  staticRoles,
} from './helpers.js';

const { mount } = ldapSuite();
const { role, createRole } = staticRoles(mount);

conformance(
  {
    id: 'ldap.static.import-rotation',
    level: 'MUST',
    also: ['ldap.static.cred-binds'],
    title: 'Creating a static role rotates the existing password: the old one stops working, static-cred binds',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn });
    await expectNoBind(t, acct.dn, acct.password, 'the password from before the role');
    const cred = t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200));
    await expectBinds(t, acct.dn, data(cred).password, 'static-cred password');
  },
);

conformance(
  {
    id: 'ldap.static.skip-import-rotation',
    level: 'MUST',
    title: 'skip_import_rotation true keeps the existing password and static-cred does not supply one',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, skip_import_rotation: true });
    await expectBinds(t, acct.dn, acct.password, 'the password from before the role');
    const cred = await t.svc.get(`${mount.path}/static-cred/${name}`);
    const pw = cred.response.status === 200 ? data(cred).password : undefined;
    expectThat(
      cred.response.status >= 400 || pw === undefined || pw === '' || pw === null,
      'no-password',
      '[a password]',
      'no password or an error',
      'static-cred supplies no password before the first rotation',
    );
    // "until the first rotation": after rotate-role static-cred supplies the password, which opens
    // the entry, and the original one no longer does.
    const rotated = await rotateNow(t, mount.path, name);
    await expectBinds(t, acct.dn, data(rotated).password, 'static-cred after the first rotation');
    await expectNoBind(t, acct.dn, acct.password, 'the original password after the first rotation');
  },
);

conformance(
  {
    id: 'ldap.static.skip-import-creation-only',
    level: 'MUST',
    title:
      'An update sending skip_import_rotation true is refused or changes nothing: static-cred still supplies the password',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn });
    const before = String(data(t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200))).password);
    const update = await t.svc.post(role(name), {
      body: { username: acct.cn, skip_import_rotation: true, rotation_period: LONG },
    });
    // "Only on creation": the document does not say whether an update is refused (with which status)
    // or ignored; what it says is that the role keeps supplying its password.
    if (update.response.status >= 400) t.check(update, refused, errorMessage);
    else t.check(update, success);
    const after = t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200));
    t.check(after, bodyAt('/data/password', before, 'is still the current password'));
    await expectBinds(t, acct.dn, data(after).password, 'the password after the update');
  },
);

conformance(
  {
    id: 'ldap.static.skip-import-config-default',
    level: 'MUST',
    title: 'skip_static_role_import_rotation in the config applies to new roles and a role-level false overrides it',
  },
  async (t) => {
    const m = await freshMount(t, { skip_static_role_import_rotation: true });
    const kept = await account(t);
    const fresh = staticRoles(m);
    await fresh.createRole(t, { username: kept.cn }, 'cfgskip');
    await expectBinds(t, kept.dn, kept.password, 'config default skip: the original password');
    const rotated = await account(t);
    await fresh.createRole(t, { username: rotated.cn, skip_import_rotation: false }, 'override');
    await expectNoBind(t, rotated.dn, rotated.password, 'role-level false overrides the config: the original password');
  },
);
