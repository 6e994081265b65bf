/**
 * Library sets of one ldap mount, for the test files that lend accounts (library.test.ts,
 * library-checkout.test.ts): a set of test-owned accounts (removed after the test), a borrower
 * token, check-out with its lease revoked afterwards, and the status of an account.
 */
import type { Exchange, MountRef, T } from '../../harness/index.js';
import { expectThat, statusIs, success } from '../../harness/checks/index.js';
import { ALL_CAPS, type Account, data, leaseId, LONG, revokeLease, tokenWith } from './helpers.js';

export function library(mount: MountRef) {
  const setPath = (name: string) => `${mount.path}/library/${name}`;

  /**
   * A set of `accounts` with long TTLs and check-in enforcement written explicitly, so a test
   * leans on no default but the ones it reads back (`extra` overrides).
   */
  async function createSet(
    t: T,
    accounts: Account[],
    extra: Record<string, unknown> = {},
    base = 'set',
  ): Promise<string> {
    const name = t.unique(base);
    t.check(
      await t.svc.post(setPath(name), {
        body: {
          service_account_names: accounts.map((a) => a.cn),
          ttl: LONG,
          max_ttl: LONG,
          disable_check_in_enforcement: false,
          ...extra,
        },
      }),
      success,
    );
    t.track(`library set ${name}`, () => t.svc.delete(setPath(name)));
    return name;
  }

  /** A token that may use the set's paths but not the manage path. */
  async function borrower(t: T): Promise<string> {
    return tokenWith(t, { [`${mount.path}/library/*`]: ALL_CAPS, [`${mount.path}/library/manage/*`]: ['deny'] });
  }

  async function checkOut(t: T, set: string, token?: string, body: Record<string, unknown> = {}) {
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-out`, { body, ...(token ? { token } : {}) }),
      statusIs(200),
    );
    const lease = leaseId(ex);
    t.track('check-out lease', () => revokeLease(t, lease), 'revoke');
    const d = data<{ service_account_name: string; password: string }>(ex);
    return { ex, lease, name: d.service_account_name, password: d.password };
  }

  async function statusOf(t: T, set: string, acct: string): Promise<Record<string, unknown>> {
    const ex = t.check(await t.svc.get(`${setPath(set)}/status`), statusIs(200));
    return (data(ex)[acct] ?? {}) as Record<string, unknown>;
  }

  async function expectAvailable(t: T, set: string, acct: string, available: boolean, what: string): Promise<void> {
    const st = await statusOf(t, set, acct);
    expectThat(
      st.available === available,
      'status',
      st.available,
      available,
      `${what}: status of ${acct} is ${available ? 'available' : 'checked out'}`,
    );
  }

  const checkIns = (ex: Exchange) => (data(ex).check_ins ?? []) as string[];

  return { setPath, createSet, borrower, checkOut, statusOf, expectAvailable, checkIns };
}
