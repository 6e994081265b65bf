/**
 * Library sets: shared service accounts lent with check-out and returned with check-in. The
 * engine sets each account's password when it joins a set and rotates it on every check-in, so a
 * borrower's password stops working once the account is back.
 */
import type { LeaseSpec, TokenInfo } from '../../engine.js';
import { badRequest, notFound } from '../../errors.js';
import type { Borrower } from './rules.js';
import { boolField, type Shared } from './shared.js';

interface LibrarySet {
  accounts: string[];
  ttl: number;
  maxTtl: number;
  disableEnforcement: boolean;
}

interface CheckOut {
  entityId: string;
  accessor: string;
  spec: LeaseSpec;
}

interface Account {
  set: string;
  dn: string;
  password: string;
  checkout?: CheckOut;
  /** Whether the account was ever checked out. */
  borrowed?: boolean;
  /** The borrower of its last check-out, once it was returned. */
  lastBorrower?: Borrower;
}

export class Library {
  private readonly sets = new Map<string, LibrarySet>();
  private readonly accounts = new Map<string, Account>();
  /** The accounts each set's earlier check-ins returned. */
  private readonly checkedIn = new Map<string, string[]>();

  constructor(private readonly s: Shared) {}

  private duration(value: unknown, key: 'ttl' | 'max_ttl' | 'check-out ttl'): number | undefined {
    if (value === undefined || value === null) return undefined;
    try {
      return this.s.rules.libraryDuration(key, value);
    } catch {
      throw badRequest(`${key} must be a duration`);
    }
  }

  has(name: string): boolean {
    return this.sets.has(name);
  }

  list(prefix: string): { keys: string[] } {
    return { keys: this.s.rules.libraryList(this.sets.keys(), prefix) };
  }

  private get(name: string): LibrarySet {
    const set = this.sets.get(name);
    if (!set) throw notFound(`library set "${name}" not found`);
    return set;
  }

  read(name: string): Record<string, unknown> {
    const set = this.get(name);
    return {
      service_account_names: set.accounts,
      ttl: set.ttl,
      max_ttl: set.maxTtl,
      disable_check_in_enforcement: set.disableEnforcement,
    };
  }

  async write(name: string, body: Record<string, unknown>): Promise<void> {
    const existing = this.sets.get(name);
    const rules = this.s.rules;
    const accounts = rules.accountNames(body.service_account_names) ?? existing?.accounts ?? [];
    if (!accounts.length && rules.libraryAccountsRequired) throw badRequest('service_account_names is required');
    const given = (key: 'ttl' | 'max_ttl') => {
      const v = this.duration(body[key], key);
      return v === undefined ? undefined : rules.libraryTtl(v, key);
    };
    const kept = (key: 'ttl' | 'max_ttl', value: number | undefined) =>
      value === undefined ? undefined : rules.libraryOmittedOnUpdate(key, value);
    const applies = !existing || rules.libraryUpdateApplies;
    const ttl = (applies ? given('ttl') : undefined) ?? kept('ttl', existing?.ttl) ?? rules.libraryDefaultTtl;
    const maxTtl =
      (applies ? given('max_ttl') : undefined) ?? kept('max_ttl', existing?.maxTtl) ?? rules.libraryDefaultMaxTtl;
    if (ttl > 0 && maxTtl > 0 && ttl > maxTtl) throw badRequest('ttl cannot be greater than max_ttl');
    const disableEnforcement =
      boolField(body, 'disable_check_in_enforcement') ??
      existing?.disableEnforcement ??
      rules.libraryDefaultDisableEnforcement;
    const unique = [...new Set(accounts)];
    for (const acct of unique) {
      const owner = this.accounts.get(acct)?.set;
      if (owner !== undefined && owner !== name && this.s.rules.accountInOneSetOnly) {
        throw badRequest(`"${acct}" is already managed by library set "${owner}"`);
      }
    }
    const added = unique.filter((a) => this.accounts.get(a)?.set !== name);
    const attr = this.s.userAttr();
    const base = rules.librarySearchBase(this.s.searchBase());
    const verify = rules.verifyAddedAccounts(!existing);
    const joined = await this.s.withDirectory(async (session) => {
      const found: { name: string; dn: string; password: string }[] = [];
      for (const acct of added) {
        const dn = await session.findAccount(acct, undefined, attr, base);
        if (!dn) {
          if (!rules.libraryAccountsMustExist || !verify) {
            found.push({ name: acct, dn: '', password: '' });
            continue;
          }
          throw badRequest(`service account "${acct}" does not exist in the directory`);
        }
        found.push({ name: acct, dn, password: '' });
      }
      // Only after every account was found, so a rejected write changes nothing.
      for (const f of found) {
        if (!f.dn) continue;
        f.password = this.s.generatePassword('library');
        await session.setPassword(f.dn, f.password);
      }
      return found;
    });
    if (existing) {
      for (const acct of existing.accounts) {
        if (!unique.includes(acct)) this.release(acct, rules.releaseRemovedAccounts);
        else if (!rules.updateKeepsCheckouts) this.dropCheckout(acct);
      }
    }
    for (const j of joined) this.accounts.set(j.name, { set: name, dn: j.dn, password: j.password });
    this.sets.set(name, { accounts: unique, ttl, maxTtl, disableEnforcement });
  }

  /** Takes the account out of its set; it stays reserved for the set when `free` is false. */
  private release(acct: string, free = true): void {
    const a = this.accounts.get(acct);
    if (a) a.checkout = undefined;
    if (free) this.accounts.delete(acct);
  }

  /** Makes a checked-out account available without a check-in (its lease ends later, to no effect). */
  private dropCheckout(acct: string): void {
    const a = this.accounts.get(acct);
    if (a?.checkout) a.checkout = undefined;
  }

  async delete(name: string): Promise<void> {
    const set = this.sets.get(name);
    if (!set || !this.s.rules.libraryDeleteRemoves) return;
    for (const acct of set.accounts) {
      const co = this.accounts.get(acct)?.checkout;
      this.release(acct, this.s.rules.releaseOnDelete);
      if (co) await this.endLease(co);
    }
    this.sets.delete(name);
    this.checkedIn.delete(name);
  }

  status(name: string): Record<string, unknown> {
    const set = this.get(name);
    const out: Record<string, unknown> = {};
    for (const acct of set.accounts) {
      const account = this.accounts.get(acct);
      const co = account?.checkout;
      if (!co && !account?.borrowed && !this.s.rules.statusShowsNeverBorrowed) continue;
      if (!co) out[acct] = this.s.rules.availableStatus(account?.lastBorrower);
      // The borrower token is identified by its accessor: the token itself must never be echoed.
      else out[acct] = this.s.rules.borrowerStatus(co);
    }
    return out;
  }

  async checkOut(
    name: string,
    body: Record<string, unknown>,
    token: TokenInfo,
  ): Promise<{ data: Record<string, unknown>; lease?: LeaseSpec }> {
    const set = this.get(name);
    const requested = this.duration(body.ttl, 'check-out ttl');
    let ttl = this.s.rules.checkoutTtl(requested, set.ttl);
    if (set.ttl > 0 && ttl > set.ttl && this.s.rules.checkoutTtlCapped) ttl = set.ttl;
    if (set.ttl > 0 && ttl === 0) ttl = requested === 0 ? this.s.rules.unlimitedCheckoutTtl(set.ttl) : set.ttl;
    const free = this.s.rules.pickFreeAccount(set.accounts, (a) => {
      const acc = this.accounts.get(a);
      return acc !== undefined && !acc.checkout;
    });
    if (!free) throw badRequest(`no service accounts available for check-out in set "${name}"`);
    const account = this.accounts.get(free)!;
    const renewCap = this.s.rules.renewCap(set.maxTtl);
    const checkout: CheckOut = {
      entityId: token.entityId,
      accessor: token.accessor,
      spec: {
        ttl,
        maxTtl: renewCap,
        renewable: this.s.rules.checkoutRenewable,
        revoke: async () => {
          if (!this.s.rules.expiryChecksIn) return;
          if (account.checkout === checkout) await this.returnAccount(account);
        },
        renew: async (inc) => (set.ttl > 0 ? Math.min(inc || set.ttl, set.ttl) : inc),
      },
    };
    account.checkout = checkout;
    account.borrowed = true;
    const password = this.s.rules.checkoutPassword(account.password);
    const data = { service_account_name: free, password };
    return this.s.rules.checkoutCreatesLease ? { data, lease: checkout.spec } : { data };
  }

  /** Makes the account available and rotates its password (as the real product does on check-in). */
  private async returnAccount(account: Account): Promise<void> {
    if (account.checkout)
      account.lastBorrower = { accessor: account.checkout.accessor, entityId: account.checkout.entityId };
    account.checkout = undefined;
    if (!this.s.rules.checkInRotates || !account.dn) return;
    const password = this.s.generatePassword('library');
    await this.s.withDirectory((session) => session.setPassword(account.dn, password));
    account.password = password;
  }

  /** Ends the lease of a check-out that was returned through the API. */
  private async endLease(co: CheckOut): Promise<void> {
    for (const id of this.s.ctx.leases.list()) {
      if (this.s.ctx.leases.get(id)?.spec === co.spec) await this.s.ctx.leases.revoke(id);
    }
  }

  async checkIn(
    name: string,
    body: Record<string, unknown>,
    token: TokenInfo,
    manage: boolean,
  ): Promise<Record<string, unknown>> {
    const set = this.get(name);
    const enforce = this.s.rules.checkInEnforced(set.disableEnforcement, manage);
    const caller = { entityId: token.entityId, accessor: token.accessor };
    const isBorrower = (co: CheckOut) => this.s.rules.isBorrower(co, caller);
    let wanted = this.s.rules.checkInNames(body.service_account_names, manage);
    if (!wanted?.length) {
      const mine = set.accounts.filter((a) => {
        const co = this.accounts.get(a)?.checkout;
        return co && (!enforce || isBorrower(co));
      });
      if (mine.length > 1)
        throw badRequest('service_account_names is required when more than one account is checked out');
      wanted = mine;
    }
    for (const acct of wanted) {
      if (!set.accounts.includes(acct)) throw badRequest(`"${acct}" is not part of library set "${name}"`);
    }
    const denied = wanted.filter((a) => {
      const co = this.accounts.get(a)?.checkout;
      return co && enforce && !isBorrower(co);
    });
    if (denied.length)
      throw this.s.rules.unauthorizedCheckIn(
        `${denied.join(', ')} cannot be checked in: not checked out by the caller`,
      );
    const checkIns: string[] = [];
    for (const acct of wanted) {
      const account = this.accounts.get(acct);
      const co = account?.checkout;
      if (!account || !co) {
        if (this.s.rules.checkInListsAvailable) checkIns.push(acct);
        continue;
      }
      await this.returnAccount(account);
      await this.endLease(co);
      checkIns.push(acct);
    }
    const earlier = this.checkedIn.get(name) ?? [];
    this.checkedIn.set(name, [...earlier, ...checkIns]);
    return { check_ins: this.s.rules.checkInsReported(checkIns, earlier) };
  }
}
