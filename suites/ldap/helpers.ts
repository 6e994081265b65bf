/**
 * Shared pieces of the directory suite: a configured engine mount per file, test-owned directory
 * accounts (created with a known password, removed after the test), tokens with ACL policies, and
 * the bind checks that look at the directory itself.
 */
import { randomBytes } from 'node:crypto';
import { suite, type MountRef, type Suite, type T } from '../../harness/index.js';
import type { Exchange } from '../../harness/index.js';
import { type Check, expectThat, statusBetween, statusIs, success } from '../../harness/checks/index.js';
import type { LdapTarget } from '../../harness/index.js';
import { createToken, freshMount as freshEngineMount } from '../../harness/index.js';
import {
  addMember,
  canBind,
  createAccount,
  createUnit,
  deleteEntry,
  entryExists,
  findEntries,
  readAttribute,
  removeMember,
  type DirectoryAdmin,
} from '../../harness/directory/index.js';

/** Long enough that other files moving the shared clock never rotate or expire our objects. */
export const LONG = '8760h';

export interface LdapSuite {
  s: Suite;
  mount: MountRef;
}

export function directory(t: { config: T['config'] }): LdapTarget {
  const d = t.config.ldap;
  if (!d)
    throw new Error(
      'no directory: set LDAP_URL (and LDAP_BIND_DN, LDAP_BIND_PASS, LDAP_USER_DN) or let the harness start slapd',
    );
  return d;
}

export function admin(t: { config: T['config'] }): DirectoryAdmin {
  const d = directory(t);
  return { url: d.url, bindDn: d.bindDn, bindPass: d.bindPass, userDn: d.userDn };
}

/** The engine configuration pointing at the run's directory. */
export function baseConfig(t: { config: T['config'] }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const d = directory(t);
  return { binddn: d.bindDn, bindpass: d.bindPass, url: d.url, userdn: d.userDn, ...extra };
}

/** One run-unique ldap mount per file, configured for the run's directory before the tests. */
export function ldapSuite(): LdapSuite {
  const s = suite('ldap');
  const mount = s.mount('ldap', { type: 'ldap', configKey: 'ldap' });
  s.setup(async (ctx) => {
    const ex = await ctx.svc.post(`${mount.path}/config`, { body: baseConfig(ctx) });
    if (ex.response.status !== 200 && ex.response.status !== 204)
      throw new Error(`could not configure ${mount.path}/config: status ${ex.response.status}`);
  });
  return { s, mount };
}

/** (Re)writes the mount's config; the base fields first so every test starts from a known state. */
export async function configure(t: T, mount: MountRef, extra: Record<string, unknown> = {}): Promise<Exchange> {
  return t.check(await t.svc.post(`${mount.path}/config`, { body: baseConfig(t, extra) }), success);
}

/**
 * A refusal whose status the documents do not name ("is rejected", "verifies that it exists",
 * "cannot change after creation", "belong to one set only"): any error status (real products
 * answer some of these 500). Where the documents do tie the refusal to a status (a required field
 * missing or a value outside the listed ones: "400 | Invalid request, missing or invalid data"; a
 * check-out with no account available: 400) the tests ask for that status instead. Paired with
 * `errorMessage` and, where the refused write names an object, `expectNotStored`.
 */
export const refused: Check = statusBetween(400, 599);

/** The object a refused write named is not there: a read answers 404 or 400 (the status of a read of a missing object is not named). */
export async function expectNotStored(t: T, path: string, what: string): Promise<void> {
  const read = await t.svc.get(path);
  expectThat(
    read.response.status === 404 || read.response.status === 400,
    'not-stored',
    read.response.status,
    '404 or 400 (a read of a missing object: status not named)',
    `${what} is not stored`,
  );
}

export interface Account {
  cn: string;
  dn: string;
  password: string;
}

/** A directory account owned by this test, with a known password; deleted afterwards. */
export async function account(t: T, base = 'acct'): Promise<Account> {
  const cn = t.unique(base);
  const password = `Init-${randomBytes(9).toString('base64url')}`;
  t.secret(password);
  const dn = await createAccount(admin(t), cn, password);
  t.track(`directory entry ${dn}`, () => deleteEntry(admin(t), dn));
  return { cn, dn, password };
}

/**
 * A directory account outside userdn: in an organizational unit of its own beside userdn's, with
 * a cn no entry under userdn has. Deleted (with its unit) afterwards.
 */
export async function accountOutsideUserDn(t: T): Promise<Account> {
  const d = directory(t);
  const parent = d.userDn.split(',').slice(1).join(',') || d.baseDn;
  const unit = await createUnit(admin(t), t.unique('outside'), parent);
  t.track(`directory unit ${unit}`, () => deleteEntry(admin(t), unit));
  const cn = t.unique('away');
  const password = `Init-${randomBytes(9).toString('base64url')}`;
  t.secret(password);
  const dn = await createAccount(admin(t), cn, password, {}, unit);
  t.track(`directory entry ${dn}`, () => deleteEntry(admin(t), dn));
  return { cn, dn, password };
}

/**
 * The service's current time (ms, to the second), which may run ahead of this machine's when a
 * test moved the service's clock: the creation time of a token created now.
 */
export async function serviceNow(t: T): Promise<number> {
  const token = await createToken(t, ['default'], { ttl: '1h' });
  const self = t.precondition(await t.svc.get('auth/token/lookup-self', { token }), success);
  // creation_time (Unix seconds) as the real product shows it; issue_time (RFC 3339) otherwise.
  const { creation_time: created, issue_time: issued } = data<{ creation_time?: unknown; issue_time?: unknown }>(self);
  if (typeof created === 'number') return created * 1000;
  const ms = Date.parse(String(issued ?? ''));
  if (Number.isNaN(ms)) t.notApplicable('auth/token/lookup-self shows neither creation_time nor issue_time');
  return ms;
}

/** A test-owned entry allowed to manage the directory (for rotate-root, which changes its password). */
export async function adminAccount(t: T): Promise<Account> {
  const acct = await account(t, 'root');
  const group = directory(t).groupDn;
  if (group) {
    await addMember(admin(t), group, acct.dn);
    t.track(`membership of ${acct.dn}`, () => removeMember(admin(t), group, acct.dn));
  }
  return acct;
}

export async function binds(t: T, dn: string, password: unknown): Promise<boolean> {
  return typeof password === 'string' && password !== '' ? canBind(directory(t).url, dn, password) : false;
}

export async function expectBinds(t: T, dn: string, password: unknown, what: string): Promise<void> {
  expectThat(
    await binds(t, dn, password),
    'directory-bind',
    'invalid credentials',
    'bind succeeds',
    `${what}: the password should open ${dn} in the directory`,
  );
}

export async function expectNoBind(t: T, dn: string, password: unknown, what: string): Promise<void> {
  expectThat(
    !(await binds(t, dn, password)),
    'directory-bind',
    'bind succeeds',
    'invalid credentials',
    `${what}: the password should no longer open ${dn}`,
  );
}

export async function exists(t: T, dn: string): Promise<boolean> {
  const d = directory(t);
  return entryExists(d.url, d.bindDn, d.bindPass, dn);
}

export async function entriesUnder(t: T, filter: string): Promise<string[]> {
  return findEntries(admin(t), directory(t).userDn, filter);
}

/** A token whose policy grants `capabilities` on the given paths (other paths: default deny). */
export { tokenWith } from '../../harness/index.js';

export const ALL_CAPS = ['create', 'read', 'update', 'delete', 'list'];

export function data<T = Record<string, unknown>>(ex: Exchange): T {
  return ((ex.response.body as { data?: unknown } | undefined)?.data ?? {}) as T;
}

export function leaseId(ex: Exchange): string {
  return String((ex.response.body as { lease_id?: unknown } | undefined)?.lease_id ?? '');
}

export async function revokeLease(t: T, id: string): Promise<Exchange> {
  return t.svc.put('sys/leases/revoke', { body: { lease_id: id } });
}

/** A separate ldap mount for one test, configured with `extra`; removed after the test. */
export async function freshMount(t: T, extra: Record<string, unknown> | null = {}): Promise<string> {
  // Honours mounts.ldap (same type as the configured mount) and the dialect's engine type.
  const name = await freshEngineMount(t, 'ldap', { type: 'ldap' });
  if (extra) t.check(await t.svc.post(`${name}/config`, { body: baseConfig(t, extra) }), success);
  return name;
}

export async function attribute(t: T, dn: string, attr: string): Promise<string[] | undefined> {
  return readAttribute(admin(t), dn, attr);
}

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * A duration as a read returns it, in seconds: the documents give durations as "string or
 * integer" and do not fix the read format, so integer seconds, a digit string and a Go-style
 * duration string (`1h0m0s`) are all read. NaN when the value is none of these.
 */
export function seconds(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || v === '') return NaN;
  if (/^\d+$/.test(v)) return Number(v);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/gy;
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(v))) {
    total += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
    pos = re.lastIndex;
  }
  return pos === v.length ? total : NaN;
}

/** bodyAt predicate: a duration read back equal to `expected` seconds, whatever its format. */
export const durationOf = (expected: number) => (v: unknown) => seconds(v) === expected;

/**
 * A request every implementation must take to the directory: creating a static role with import
 * rotation (`skip_import_rotation: false`; the documents: "when true the existing password is not
 * rotated", so without it the password is rotated on creation), for which the engine binds, finds
 * the entry and sets a new password. A role created with `skip_import_rotation: true` proves
 * nothing about the directory: an engine may store it without contacting the directory at all (the
 * upstream product does). The role is removed afterwards when it was created; the answer is
 * returned unchecked (use `reachedDirectory` before judging it).
 */
export async function importRotation(t: T, mountPath: string, base = 'use'): Promise<{ ex: Exchange; acct: Account }> {
  const acct = await account(t, base);
  const { ex } = await postStaticRole(t, mountPath, { username: acct.cn, skip_import_rotation: false }, base);
  return { ex, acct };
}

/**
 * Proves that an `importRotation` the engine answered with success reached the directory: the
 * entry's initial password no longer opens it. When it still does, the engine answered without
 * rotating (a difference the static-role import tests report), so nothing shows how it reaches the
 * directory: the test ends not applicable, naming the answer. A refusal is left to the caller.
 */
export async function reachedDirectory(t: T, use: { ex: Exchange; acct: Account }, what: string): Promise<void> {
  if (use.ex.response.status >= 400) return;
  if (await binds(t, use.acct.dn, use.acct.password))
    t.notApplicable(
      `${what}: the engine answered ${use.ex.response.status} to creating a static role with import rotation, but the entry's password was not changed in the directory, so nothing shows the request reached the directory`,
    );
}

/** Rotates a static role now and reads its credentials back (the rotated password in `data.password`). */
export async function rotateNow(t: T, mountPath: string, name: string): Promise<Exchange> {
  t.check(await t.svc.post(`${mountPath}/rotate-role/${name}`), success);
  return t.check(await t.svc.get(`${mountPath}/static-cred/${name}`), statusIs(200));
}

/**
 * Creates a static role for one test at `mountPath` (`rotation_period` LONG unless the body gives
 * one) and removes it after the test when it was created. The answer is returned unchecked: the
 * caller checks it (`success`, a precondition, or its own reading of a refusal).
 */
export async function postStaticRole(
  t: T,
  mountPath: string,
  body: Record<string, unknown>,
  base = 'st',
): Promise<{ name: string; ex: Exchange }> {
  const name = t.unique(base);
  const path = `${mountPath}/static-role/${name}`;
  const ex = await t.svc.post(path, { body: { rotation_period: LONG, ...body } });
  if (ex.response.status < 400) t.track(`static role ${name}`, () => t.svc.delete(path));
  return { name, ex };
}

/**
 * The static roles of a mount (the file's `MountRef` or a fresh mount's path): a role's path, and a
 * role made for one test whose creation must succeed (removed after the test).
 */
export function staticRoles(mount: MountRef | string) {
  const mountPath = () => (typeof mount === 'string' ? mount : mount.path);
  const role = (name: string) => `${mountPath()}/static-role/${name}`;
  async function createRole(t: T, body: Record<string, unknown>, base = 'st'): Promise<string> {
    const { name, ex } = await postStaticRole(t, mountPath(), body, base);
    t.check(ex, success);
    return name;
  }
  return { role, createRole };
}
