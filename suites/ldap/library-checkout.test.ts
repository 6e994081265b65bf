/**
 * Library check-out and check-in in detail: the check-out ttl (requested, capped, default, 0),
 * renewals, the forms of check-in's service_account_names, and borrowers that are entities (a
 * user's tokens) in the status and at check-in.
 */
import { conformance, type T, writePolicy } from '../../harness/index.js';
import { errorMessage, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { createUser, login, loggedIn } from '../lib/auth.js';
import { account, data, ldapSuite } from './helpers.js';
import { library } from './library-sets.js';

const { s, mount } = ldapSuite();
const userpass = s.auth('userpass', { type: 'userpass' });
const { setPath, createSet, checkOut, statusOf, expectAvailable, checkIns } = library(mount);

const leaseSeconds = (co: { ex: { response: { body: unknown } } }) =>
  Number((co.ex.response.body as { lease_duration?: number }).lease_duration);

/** Two logins of one userpass user whose policy may use the mount's library paths: two tokens, one entity. */
async function sameUserTokens(t: T): Promise<{ first: string; second: string; entityId: string }> {
  const policy = await writePolicy(
    t,
    `path "${mount.path}/library/*" { capabilities = ["create", "read", "update", "delete", "list"] }`,
  );
  const user = await createUser(t, userpass, [policy]);
  // Set-up: logins are the auth suite's business; a target refusing them makes the test not applicable.
  const first = loggedIn(
    t.precondition(await login(t, userpass, user.name, user.password), statusIs(200)),
    'first login',
  );
  const second = loggedIn(
    t.precondition(await login(t, userpass, user.name, user.password), statusIs(200)),
    'second login',
  );
  const self = t.precondition(await t.svc.get('auth/token/lookup-self', { token: first }), success);
  const entityId = String(data(self).entity_id ?? '');
  if (!entityId) t.notApplicable('a userpass login has no entity_id (auth/token/lookup-self)');
  return { first, second, entityId };
}

conformance(
  {
    id: 'ldap.library.checkout-ttl-capped',
    level: 'MUST',
    title: 'A check-out ttl above the set ttl is capped to the set ttl',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '1h', max_ttl: '2h' });
    const co = await checkOut(t, set, undefined, { ttl: '10h' });
    const d = leaseSeconds(co);
    // "capped at the set's ttl": the lease lasts the set's ttl, not less (a second of rounding).
    expectThat(d >= 3599 && d <= 3600, 'ttl-cap', d, 3600, "lease_duration is the set's ttl");
  },
);

conformance(
  {
    id: 'ldap.library.renew-max-ttl',
    level: 'MUST',
    also: ['ldap.leases.revoke-path'],
    title: 'Renewing a check-out never goes past the set max_ttl',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '1h', max_ttl: '1h30m' });
    const co = await checkOut(t, set);
    // How a lease is renewed is the assumption (the lease endpoints are not documented).
    const renewed = t
      .as('ldap.leases.revoke-path')
      .check(await t.svc.put('sys/leases/renew', { body: { lease_id: co.lease, increment: 36000 } }), statusIs(200));
    const d = Number((renewed.response.body as { lease_duration?: number }).lease_duration);
    expectThat(d > 0 && d <= 5400, 'max-ttl', d, '<= 5400', 'the renewed check-out ends within max_ttl');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-body-optional',
    level: 'MUST',
    title: 'POST check-in without service_account_names checks in the one account the caller holds',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    await checkOut(t, set);
    const ex = t.check(await t.svc.post(`${setPath(set)}/check-in`, { body: {} }), statusIs(200));
    expectThat(
      checkIns(ex).includes(a.cn),
      'check_ins',
      checkIns(ex),
      [a.cn],
      'the single checked-out account is checked in',
    );
  },
);

conformance(
  {
    id: 'ldap.library.status',
    level: 'MUST',
    title: 'GET /ldap/library/:set/status shows available accounts and the borrower of a checked-out one',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const set = await createSet(t, [a, b]);
    await checkOut(t, set);
    // Which account was lent is read from the status itself (one of the two is out).
    const lent = (await statusOf(t, set, a.cn)).available === false ? a.cn : b.cn;
    const free = lent === a.cn ? b.cn : a.cn;
    const busy = await statusOf(t, set, lent);
    // borrower_entity_id names the borrower's entity; the root token that checked out here may have
    // none, so the field may be absent (it must be a string when present).
    const entityOk = busy.borrower_entity_id === undefined || typeof busy.borrower_entity_id === 'string';
    expectThat(
      busy.available === false &&
        typeof busy.borrower_client_token === 'string' &&
        busy.borrower_client_token !== '' &&
        entityOk,
      'status',
      busy,
      'available false, borrower_client_token, borrower_entity_id a string when present',
      'the checked-out account names its borrower',
    );
    await expectAvailable(t, set, free, true, 'the other account');
  },
);

conformance(
  {
    id: 'ldap.library.checkout-ttl-capped',
    level: 'MUST',
    title: 'A check-out ttl below the set ttl is the lease duration',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '1h', max_ttl: '2h' });
    const d = leaseSeconds(await checkOut(t, set, undefined, { ttl: 600 }));
    expectThat(d >= 599 && d <= 600, 'ttl', d, 600, 'lease_duration is the requested ttl');
  },
);

conformance(
  {
    id: 'ldap.library.checkout-ttl-capped',
    level: 'MUST',
    title: 'A check-out without ttl lasts the set ttl',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '2h', max_ttl: '3h' });
    const d = leaseSeconds(await checkOut(t, set));
    expectThat(d >= 7199 && d <= 7200, 'ttl', d, 7200, 'lease_duration is the set ttl');
  },
);

conformance(
  {
    id: 'ldap.library.checkout-ttl-zero',
    level: 'MUST',
    title:
      'A check-out requesting ttl 0 (unlimited) is lent with the set ttl, the set max_ttl or no expiry, not returned at once',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '1h', max_ttl: '2h' });
    // Whether the set's ttl still caps an unlimited request is not said: the lease may last the
    // set's ttl, run to its max_ttl (which bounds a check-out with renewals) or have no expiry.
    const d = leaseSeconds(await checkOut(t, set, undefined, { ttl: 0 }));
    const near = (want: number) => d >= want - 1 && d <= want;
    expectThat(
      d === 0 || near(3600) || near(7200),
      'ttl-zero',
      d,
      '3600 (ttl), 7200 (max_ttl) or 0 (no expiry)',
      'the unlimited check-out lasts the set ttl, its max_ttl or has no expiry',
    );
    await expectAvailable(t, set, a.cn, false, 'right after an unlimited check-out');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-body-optional',
    level: 'MUST',
    title: 'POST check-in with service_account_names as a string checks in that account only',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const set = await createSet(t, [a, b]);
    await checkOut(t, set);
    await checkOut(t, set);
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: a.cn } }),
      statusIs(200),
    );
    expectThat(
      checkIns(ex).length === 1 && checkIns(ex)[0] === a.cn,
      'check_ins',
      checkIns(ex),
      [a.cn],
      'the account named by the string is checked in, the other is not',
    );
    await expectAvailable(t, set, b.cn, false, 'the account not named');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-body-optional',
    level: 'MUST',
    title: 'POST check-in with service_account_names as a list checks in every account it names',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const c = await account(t);
    const set = await createSet(t, [a, b, c]);
    await checkOut(t, set);
    await checkOut(t, set);
    await checkOut(t, set);
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn, b.cn] } }),
      statusIs(200),
    );
    expectThat(
      checkIns(ex).length === 2 && checkIns(ex).includes(a.cn) && checkIns(ex).includes(b.cn),
      'check_ins',
      checkIns(ex),
      [a.cn, b.cn],
      'both accounts of the list are checked in, the third is not',
    );
    await expectAvailable(t, set, c.cn, false, 'the account not named');
  },
);

conformance(
  {
    id: 'ldap.library.status',
    level: 'MUST',
    title: "GET /ldap/library/:set/status of an account checked out by a user names the user's entity",
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const { first, entityId } = await sameUserTokens(t);
    await checkOut(t, set, first);
    const busy = await statusOf(t, set, a.cn);
    expectThat(
      busy.available === false && busy.borrower_entity_id === entityId,
      'borrower-entity',
      { available: busy.available, borrower_entity_id: busy.borrower_entity_id },
      { available: false, borrower_entity_id: entityId },
      'the status names the entity that checked out',
    );
  },
);

conformance(
  {
    id: 'ldap.library.checkin',
    level: 'MUST',
    title: 'State checked out -> available: another token of the borrowing entity may check in',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const { first, second } = await sameUserTokens(t);
    await checkOut(t, set, first);
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] }, token: second }),
      statusIs(200),
    );
    expectThat(
      checkIns(ex).includes(a.cn),
      'check_ins',
      checkIns(ex),
      [a.cn],
      "the entity's other token checked the account in",
    );
    await expectAvailable(t, set, a.cn, true, 'after check-in by the same entity');
  },
);

conformance(
  {
    id: 'ldap.library.accounts-required',
    level: 'MUST',
    title: 'POST /ldap/library/:set without service_account_names returns 400 and stores no set',
  },
  async (t) => {
    const name = t.unique('noaccounts');
    const ex = await t.svc.post(setPath(name), { body: { ttl: '1h' } });
    if (ex.response.status < 400) t.track(`library set ${name}`, () => t.svc.delete(setPath(name)));
    t.check(ex, statusIs(400), errorMessage);
    const read = await t.svc.get(setPath(name));
    expectThat(
      read.response.status === 404 || read.response.status === 400,
      'not-stored',
      read.response.status,
      '404 or 400 (a read of a missing object: status not named)',
      'the refused set is not stored',
    );
  },
);
