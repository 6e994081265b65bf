/**
 * Looks at the directory itself, so suites can check what the engine did to it: whether a
 * password opens an account, whether an entry exists, and test-owned entries to work on.
 * Every call has connect and operation timeouts; credentials never appear in error messages.
 */
import { Client, InvalidCredentialsError, NoSuchObjectError } from 'ldapts';

const CONNECT_MS = 3000;
const OP_MS = 5000;

export interface DirectoryAdmin {
  url: string;
  bindDn: string;
  bindPass: string;
  userDn: string;
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ url, connectTimeout: CONNECT_MS, timeout: OP_MS });
  try {
    return await fn(client);
  } finally {
    await client.unbind().catch(() => {});
  }
}

/** True when a simple bind with dn/password succeeds; false on invalid credentials. */
export async function canBind(url: string, dn: string, password: string): Promise<boolean> {
  // An empty password would be an unauthenticated bind, which succeeds without proving anything.
  if (!password) return false;
  return withClient(url, async (c) => {
    try {
      await c.bind(dn, password);
      return true;
    } catch (err) {
      if (err instanceof InvalidCredentialsError) return false;
      throw new Error(`bind as ${dn} failed for another reason: ${(err as Error).constructor.name}`);
    }
  });
}

export async function entryExists(url: string, adminDn: string, adminPass: string, dn: string): Promise<boolean> {
  return withClient(url, async (c) => {
    await c.bind(adminDn, adminPass);
    try {
      const r = await c.search(dn, { scope: 'base', attributes: ['1.1'] });
      return r.searchEntries.length > 0;
    } catch (err) {
      if (err instanceof NoSuchObjectError) return false;
      throw err;
    }
  });
}

/** DNs under `base` matching `filter` (for example entries a role created). */
export async function findEntries(dir: DirectoryAdmin, base: string, filter: string): Promise<string[]> {
  return withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    try {
      const r = await c.search(base, { scope: 'sub', filter, attributes: ['1.1'] });
      return r.searchEntries.map((e) => e.dn);
    } catch (err) {
      if (err instanceof NoSuchObjectError) return [];
      throw err;
    }
  });
}

/** Creates a person under `parentDn` (default userDn) with a known password; returns its DN. */
export async function createAccount(
  dir: DirectoryAdmin,
  cn: string,
  password: string,
  extra: Record<string, string[]> = {},
  parentDn: string = dir.userDn,
): Promise<string> {
  const dn = `cn=${cn},${parentDn}`;
  await withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    await c.add(dn, {
      objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
      cn: [cn],
      sn: [cn],
      uid: [`uid-${cn}`],
      userPassword: [password],
      ...extra,
    });
  });
  return dn;
}

/** Creates an organizational unit (a container for entries a test keeps apart); returns its DN. */
export async function createUnit(dir: DirectoryAdmin, ou: string, parentDn: string): Promise<string> {
  const dn = `ou=${ou},${parentDn}`;
  await withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    await c.add(dn, { objectClass: ['top', 'organizationalUnit'], ou: [ou] });
  });
  return dn;
}

/** Deletes an entry; absent entries are fine (cleanup after tests). */
export async function deleteEntry(dir: DirectoryAdmin, dn: string): Promise<void> {
  await withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    await c.del(dn).catch((err: Error) => {
      if (!(err instanceof NoSuchObjectError)) throw err;
    });
  });
}

/** Adds `memberDn` to a groupOfNames (used to make a test-owned administrator). */
export async function addMember(dir: DirectoryAdmin, groupDn: string, memberDn: string): Promise<void> {
  const { Change, Attribute } = await import('ldapts');
  await withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    await c.modify(
      groupDn,
      new Change({ operation: 'add', modification: new Attribute({ type: 'member', values: [memberDn] }) }),
    );
  });
}

export async function removeMember(dir: DirectoryAdmin, groupDn: string, memberDn: string): Promise<void> {
  const { Change, Attribute } = await import('ldapts');
  await withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    await c
      .modify(
        groupDn,
        new Change({ operation: 'delete', modification: new Attribute({ type: 'member', values: [memberDn] }) }),
      )
      .catch(() => {});
  });
}

/** Values of one attribute of an entry (as UTF-8 text); undefined when the entry is absent. */
export async function readAttribute(dir: DirectoryAdmin, dn: string, attr: string): Promise<string[] | undefined> {
  return withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    try {
      const r = await c.search(dn, { scope: 'base', attributes: [attr] });
      const e = r.searchEntries[0];
      if (!e) return undefined;
      const key = Object.keys(e).find((k) => k.toLowerCase() === attr.toLowerCase());
      const v = key ? e[key] : [];
      const list = Array.isArray(v) ? v : [v];
      return list.map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)));
    } catch (err) {
      if (err instanceof NoSuchObjectError) return undefined;
      throw err;
    }
  });
}

/** Values of one attribute of an entry as bytes (unicodePwd, racfPassword); undefined when the entry is absent. */
export async function readBinaryAttribute(
  dir: DirectoryAdmin,
  dn: string,
  attr: string,
): Promise<Buffer[] | undefined> {
  return withClient(dir.url, async (c) => {
    await c.bind(dir.bindDn, dir.bindPass);
    try {
      const r = await c.search(dn, { scope: 'base', attributes: [attr], explicitBufferAttributes: [attr] });
      const e = r.searchEntries[0];
      if (!e) return undefined;
      const key = Object.keys(e).find((k) => k.toLowerCase() === attr.toLowerCase());
      const v = key ? e[key] : [];
      const list = Array.isArray(v) ? v : [v];
      return list.map((x) => (Buffer.isBuffer(x) ? x : Buffer.from(String(x), 'utf8')));
    } catch (err) {
      if (err instanceof NoSuchObjectError) return undefined;
      throw err;
    }
  });
}
