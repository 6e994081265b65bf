/**
 * The rotation_period of static roles: required, the 5-second minimum at the limit in each form and
 * on update, and its forms (seconds, duration strings in several units) read back as seconds.
 */
import { conformance } from '../../harness/index.js';
import { bodyAt, errorMessage, statusIs, success } from '../../harness/checks/index.js';
import { account, ldapSuite, staticRoles } from './helpers.js';

const { mount } = ldapSuite();
const { role, createRole } = staticRoles(mount);

conformance(
  {
    id: 'ldap.static.rotation-period-required',
    level: 'MUST',
    title: 'POST /ldap/static-role/:name without rotation_period returns 400',
  },
  async (t) => {
    const acct = await account(t);
    t.check(await t.svc.post(role(t.unique('noperiod')), { body: { username: acct.cn } }), statusIs(400), errorMessage);
  },
);

conformance(
  {
    id: 'ldap.static.rotation-period-minimum',
    level: 'MUST',
    title: 'rotation_period 4s is rejected with 400 and 5s is accepted',
  },
  async (t) => {
    const acct = await account(t);
    // Each side of the limit in both forms: 4 and "4s" are refused, 5 and "5s" are taken.
    for (const below of ['4s', 4]) {
      const name = t.unique('min');
      const ex = await t.svc.post(role(name), {
        body: { username: acct.cn, rotation_period: below, skip_import_rotation: true },
      });
      if (ex.response.status < 400) t.track(`static role ${name}`, () => t.svc.delete(role(name)));
      t.check(ex, statusIs(400), errorMessage);
    }
    // 5s is the minimum itself; created last-minute and removed at once so its schedule hardly matters.
    for (const limit of [5, '5s']) {
      const name = t.unique('min');
      const ex = await t.svc.post(role(name), {
        body: { username: acct.cn, rotation_period: limit, skip_import_rotation: true },
      });
      if (ex.response.status < 400) t.track(`static role ${name}`, () => t.svc.delete(role(name)));
      t.check(ex, success);
      t.check(await t.svc.get(role(name)), statusIs(200), bodyAt('/data/rotation_period', 5, `is ${limit} in seconds`));
      t.check(await t.svc.delete(role(name)), success);
    }
  },
);

conformance(
  {
    id: 'ldap.static.rotation-period-minimum',
    level: 'MUST',
    title: 'An update of a static role to a rotation_period below 5 seconds is rejected and the role keeps its period',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, rotation_period: '1h' });
    t.check(
      await t.svc.post(role(name), { body: { username: acct.cn, rotation_period: '4s' } }),
      statusIs(400),
      errorMessage,
    );
    t.check(await t.svc.get(role(name)), statusIs(200), bodyAt('/data/rotation_period', 3600, 'is still 3600'));
  },
);

conformance(
  {
    id: 'ldap.static.rotation-period-formats',
    level: 'MUST',
    title: 'rotation_period given as seconds or as a duration string reads back as integer seconds',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, rotation_period: 86400 });
    t.check(
      await t.svc.get(role(name)),
      statusIs(200),
      bodyAt('/data/rotation_period', 86400, 'is the seconds written'),
    );
    // The other forms of the field: a duration string reads back as its seconds.
    for (const [written, secs] of [
      ['90m', 5400],
      ['1h', 3600],
    ] as const) {
      t.check(await t.svc.post(role(name), { body: { username: acct.cn, rotation_period: written } }), success);
      t.check(
        await t.svc.get(role(name)),
        statusIs(200),
        bodyAt('/data/rotation_period', secs, `is ${written} in seconds`),
      );
    }
  },
);
