import { conformance } from '../../harness/index.js';
import { bodyAt, errorMessage, expectThat, hasField, statusIs, success } from '../../harness/checks/index.js';
import {
  account,
  accountOutsideUserDn,
  data,
  expectBinds,
  expectNoBind,
  expectNotStored,
  ldapSuite,
  LONG,
  refused,
  rotateNow,
  serviceNow,
  staticRoles,
} from './helpers.js';

/** RFC 3339 date-time (fractional seconds allowed, Z or an offset). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const { mount } = ldapSuite();
const { role, createRole } = staticRoles(mount);

conformance(
  {
    id: 'ldap.static.create-read',
    level: 'MUST',
    title:
      'POST /ldap/static-role/:name creates a role and GET returns dn, username, rotation_period and last_svc_rotation',
  },
  async (t) => {
    const acct = await account(t);
    const before = await serviceNow(t);
    const name = await createRole(t, { username: acct.cn, rotation_period: '2h' });
    const after = await serviceNow(t);
    const read = t.check(await t.svc.get(role(name)), statusIs(200));
    t.check(
      read,
      bodyAt('/data/username', acct.cn, 'is the username written'),
      bodyAt('/data/rotation_period', 7200, 'is 2h in seconds'),
      // The import rotation happened while the role was created: an RFC 3339 time between the
      // service's times before and after (a second of rounding either side).
      bodyAt(
        '/data/last_svc_rotation',
        (v: unknown) =>
          typeof v === 'string' && RFC3339.test(v) && Date.parse(v) >= before - 1000 && Date.parse(v) <= after + 1000,
        'is an RFC 3339 time of the creation',
      ),
    );
    // The role was written with username only: the read shows the dn written (empty, or left out as
    // a field holding no value) or the entry the search found; the document does not say which.
    t.check(
      read,
      bodyAt(
        '/data/dn',
        (v: unknown) =>
          v === undefined || (typeof v === 'string' && (v === '' || v.toLowerCase() === acct.dn.toLowerCase())),
        'is empty or absent (none written) or the entry DN',
      ),
    );
    // A role written with dn reads it back as written.
    const other = await account(t);
    const withDn = await createRole(t, { username: other.cn, dn: other.dn });
    t.check(
      await t.svc.get(role(withDn)),
      statusIs(200),
      bodyAt(
        '/data/dn',
        (v: unknown) => typeof v === 'string' && v.toLowerCase() === other.dn.toLowerCase(),
        'is the dn written',
      ),
    );
    // A second write with another rotation_period (and the username again: whether an update may
    // leave a required field out is ldap.static.update-keeps-omitted's): the read follows it.
    t.check(await t.svc.post(role(name), { body: { username: acct.cn, rotation_period: '3h' } }), success);
    t.check(
      await t.svc.get(role(name)),
      statusIs(200),
      bodyAt('/data/rotation_period', 10800, 'is the rotation_period of the second write'),
      bodyAt('/data/username', acct.cn, 'is unchanged'),
    );
  },
);

conformance(
  {
    id: 'ldap.static.update-keeps-omitted',
    level: 'MUST',
    title:
      'POST /ldap/static-role/:name on an existing role may omit username, dn or rotation_period: those not sent are kept',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, dn: acct.dn, rotation_period: '1h' });
    const sameDn = (v: unknown) => typeof v === 'string' && v.toLowerCase() === acct.dn.toLowerCase();
    t.check(await t.svc.post(role(name), { body: { rotation_period: '2h' } }), success);
    t.check(
      await t.svc.get(role(name)),
      statusIs(200),
      bodyAt('/data/rotation_period', 7200, 'is the rotation_period of the update'),
      bodyAt('/data/username', acct.cn, 'is kept (not sent)'),
      bodyAt('/data/dn', sameDn, 'is kept (not sent)'),
    );
    t.check(await t.svc.post(role(name), { body: { username: acct.cn } }), success);
    t.check(await t.svc.get(role(name)), statusIs(200), bodyAt('/data/rotation_period', 7200, 'is kept (not sent)'));
  },
);

conformance(
  {
    id: 'ldap.static.hierarchical-names',
    level: 'MUST',
    title: 'A static role name with slashes is stored and read back at its full path',
  },
  async (t) => {
    const acct = await account(t);
    const name = `${t.unique('team')}/sub/${t.unique('svc')}`;
    t.check(await t.svc.post(role(name), { body: { username: acct.cn, rotation_period: LONG } }), success);
    t.track(`static role ${name}`, () => t.svc.delete(role(name)));
    t.check(await t.svc.get(role(name)), statusIs(200), bodyAt('/data/username', acct.cn, 'is the username written'));
    // Every path of a role takes the full name: its credentials and rotate-role.
    const cred = await rotateNow(t, mount.path, name);
    await expectBinds(t, acct.dn, data(cred).password, 'the rotated password of the nested role');
  },
);

conformance(
  { id: 'ldap.static.list', level: 'MUST', title: 'LIST /ldap/static-role returns the names of the roles' },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn });
    const list = t.check(await t.svc.list(`${mount.path}/static-role`), statusIs(200));
    t.check(
      list,
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(name), 'contains the new role'),
    );
    // The row names GET: GET with list=true is the same list (Conventions 2). A plain GET without
    // list=true is not asked: the real product answers it 405, and the documents do not settle it.
    t.check(
      await t.svc.list(`${mount.path}/static-role`, { listVia: 'query' }),
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(name), 'contains the new role'),
    );
  },
);

conformance(
  {
    id: 'ldap.static.list-level',
    level: 'MUST',
    title: 'LIST /ldap/static-role/:prefix returns the names at that level, nested levels ending in /',
  },
  async (t) => {
    const acct = await account(t);
    const top = t.unique('lvl');
    const leaf = t.unique('svc');
    const name = `${top}/sub/${leaf}`;
    // Set-up: a role with slashes in its name (whether it may be made at all is
    // ldap.static.hierarchical-names, tested on its own); without one there is no level to list.
    t.precondition(await t.svc.post(role(name), { body: { username: acct.cn, rotation_period: LONG } }), success);
    t.track(`static role ${name}`, () => t.svc.delete(role(name)));
    // Compared as sets: the documents give no order.
    t.check(
      await t.svc.list(role(top)),
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.length === 1 && v[0] === 'sub/', 'is ["sub/"]'),
    );
    t.check(
      await t.svc.list(role(`${top}/sub`)),
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.length === 1 && v[0] === leaf, `is ["${leaf}"]`),
    );
  },
);

conformance(
  {
    id: 'ldap.static.username-required',
    level: 'MUST',
    title: 'POST /ldap/static-role/:name without username returns 400',
  },
  async (t) => {
    t.check(
      await t.svc.post(role(t.unique('nouser')), { body: { rotation_period: LONG } }),
      statusIs(400),
      errorMessage,
    );
  },
);

conformance(
  {
    id: 'ldap.static.username-must-exist',
    level: 'MUST',
    title: 'POST /ldap/static-role/:name for a user absent from the directory is refused',
  },
  async (t) => {
    // "Existing entry": a role for a missing one is refused, with a status the documents do not name.
    const ghost = t.unique('ghost');
    const first = await t.svc.post(role(ghost), { body: { username: t.unique('nobody'), rotation_period: LONG } });
    if (first.response.status < 400) t.track(`static role ${ghost}`, () => t.svc.delete(role(ghost)));
    t.check(first, refused, errorMessage);
    await expectNotStored(t, role(ghost), 'a role refused for its missing entry');
    // The search is under userdn: an entry with that cn elsewhere in the tree is not found.
    const outside = await accountOutsideUserDn(t);
    const name = t.unique('outside');
    const ex = await t.svc.post(role(name), { body: { username: outside.cn, rotation_period: LONG } });
    if (ex.response.status < 400) t.track(`static role ${name}`, () => t.svc.delete(role(name)));
    t.check(ex, refused, errorMessage);
    await expectNotStored(t, role(name), 'a role refused for an entry outside userdn');
  },
);

conformance(
  {
    id: 'ldap.static.dn-precedence',
    level: 'MUST',
    title: 'A static role with dn finds the entry by dn even when username names nothing',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: t.unique('other-name'), dn: acct.dn });
    const cred = t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200));
    await expectBinds(t, acct.dn, data(cred).password, 'static-cred of a role found by dn');
  },
);

conformance(
  {
    id: 'ldap.static.immutable-identity',
    level: 'MUST',
    title:
      'POST /ldap/static-role/:name changing username of an existing role is refused or ignored: the username stays',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const name = await createRole(t, { username: a.cn });
    // "cannot change after creation": the document does not say whether the attempt is refused (with
    // which status) or answered and ignored; what it says is that the username stays.
    const attempt = await t.svc.post(role(name), { body: { username: b.cn, rotation_period: LONG } });
    if (attempt.response.status >= 400) t.check(attempt, refused, errorMessage);
    else t.check(attempt, success);
    t.check(await t.svc.get(role(name)), statusIs(200), bodyAt('/data/username', a.cn, 'is still the first username'));
  },
);

conformance(
  {
    id: 'ldap.static.immutable-identity',
    level: 'MUST',
    title:
      'POST /ldap/static-role/:name changing the dn of an existing role is refused or ignored: the role keeps its entry',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const name = await createRole(t, { username: a.cn, dn: a.dn });
    const attempt = await t.svc.post(role(name), { body: { username: a.cn, dn: b.dn, rotation_period: LONG } });
    if (attempt.response.status >= 400) t.check(attempt, refused, errorMessage);
    else t.check(attempt, success);
    t.check(
      await t.svc.get(role(name)),
      statusIs(200),
      bodyAt(
        '/data/dn',
        (v: unknown) => typeof v === 'string' && v.toLowerCase() === a.dn.toLowerCase(),
        'is still the first dn',
      ),
    );
    // The role still manages the first entry: a rotation opens it, the other entry keeps its password.
    const cred = await rotateNow(t, mount.path, name);
    await expectBinds(t, a.dn, data(cred).password, 'the rotated password of the first entry');
    await expectBinds(t, b.dn, b.password, 'the other entry, untouched');
  },
);

conformance(
  {
    id: 'ldap.static.cred-fields',
    level: 'MUST',
    title: 'GET /ldap/static-cred/:name returns dn, username, password, rotation_period, ttl and last_svc_rotation',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, rotation_period: '1h' });
    const cred = t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200));
    t.check(
      cred,
      bodyAt('/data/username', acct.cn, 'is the role username'),
      bodyAt('/data/rotation_period', 3600, 'is the period in seconds'),
      hasField('/data/password'),
      hasField('/data/ttl'),
      hasField('/data/last_svc_rotation'),
      // Written with username only: the dn may hold no value (empty, or left out) or be the entry found.
      bodyAt('/data/dn', (v: unknown) => v === undefined || typeof v === 'string', 'is a string or absent'),
    );
    // Written with dn: static-cred shows it.
    const other = await account(t);
    const withDn = await createRole(t, { username: other.cn, dn: other.dn, rotation_period: '1h' });
    t.check(
      await t.svc.get(`${mount.path}/static-cred/${withDn}`),
      statusIs(200),
      bodyAt(
        '/data/dn',
        (v: unknown) => typeof v === 'string' && v.toLowerCase() === other.dn.toLowerCase(),
        'is the dn written',
      ),
    );
  },
);

conformance(
  {
    id: 'ldap.static.rotate-role',
    level: 'MUST',
    title: 'POST /ldap/rotate-role/:name: the new password binds, the previous one does not and becomes last_password',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn });
    const before = String(data(t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200))).password);
    const after = await rotateNow(t, mount.path, name);
    const pw = data(after).password;
    expectThat(
      pw !== before,
      'rotated',
      'the same password',
      'a different password',
      'rotate-role gives a new password',
    );
    t.check(after, bodyAt('/data/last_password', before, 'is the password before the rotation'));
    await expectBinds(t, acct.dn, pw, 'the rotated password');
    await expectNoBind(t, acct.dn, before, 'the password before rotate-role');
  },
);

conformance(
  { id: 'ldap.static.delete', level: 'MUST', title: 'DELETE /ldap/static-role/:name removes the role' },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn });
    t.check(await t.svc.delete(role(name)), success);
    const read = await t.svc.get(role(name));
    expectThat(
      read.response.status === 404 ||
        read.response.status === 400 ||
        (read.response.status === 200 && !data(read).username),
      'deleted',
      read.response.status,
      '404 or 400 (a read of a missing object: status not named)',
      'the role is gone after DELETE',
    );
  },
);

conformance(
  {
    id: 'ldap.static.unknown-404',
    level: 'SHOULD',
    title: 'GET /ldap/static-cred/:name of an unknown role returns 404 or 400',
  },
  async (t) => {
    t.check(await t.svc.get(`${mount.path}/static-cred/${t.unique('none')}`), statusIs(404, 400), errorMessage);
  },
);
