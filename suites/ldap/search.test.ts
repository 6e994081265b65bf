/**
 * How the directory engine finds and binds: a configured userattr, the default userattr of the ad
 * and racf schemas (with the password stored the schema's way), and the UPN binddn@upndomain.
 * The ad and racf attributes need the directory the harness starts (its schema has them); the UPN
 * bind goes through a listener that accepts UPNs as Active Directory does.
 */
import { conformance, type T } from '../../harness/index.js';
import { expectThat, statusIs, success } from '../../harness/checks/index.js';
import { createAccount, deleteEntry, readBinaryAttribute, upnListener } from '../../harness/directory/index.js';
import { randomBytes } from 'node:crypto';
import {
  account,
  admin,
  adminAccount,
  baseConfig,
  data,
  directory,
  expectBinds,
  freshMount,
  importRotation,
  ldapSuite,
  reachedDirectory,
  staticRoles,
} from './helpers.js';

ldapSuite();

/** The host:port of the run's directory (an ldap:// URL). */
function directoryAddress(t: T): string {
  return new URL(directory(t).url).host;
}

/**
 * An account carrying the attributes of the ad and racf schemas (auxiliary class
 * conformanceAccount of the directory the harness starts); deleted afterwards.
 */
async function schemaAccount(t: T, attrs: Record<string, string[]>): Promise<{ cn: string; dn: string }> {
  if (!directory(t).extraSchema)
    t.skip(
      'the directory has no userPrincipalName/racfid attributes: only the directory the harness starts with slapd has them',
      'ldap.url (LDAP_URL)',
      { prerequisite: true },
    );
  const cn = t.unique('sch');
  const password = `Init-${randomBytes(9).toString('base64url')}`;
  t.secret(password);
  const dn = await createAccount(admin(t), cn, password, {
    objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson', 'conformanceAccount'],
    ...attrs,
  });
  t.track(`directory entry ${dn}`, () => deleteEntry(admin(t), dn));
  return { cn, dn };
}

/** Creates a static role (rotated on creation) on `mountPath` and returns static-cred's password. */
async function rotatedPassword(t: T, mountPath: string, username: string): Promise<string> {
  const role = await staticRoles(mountPath).createRole(t, { username }, 'srch');
  const cred = t.check(await t.svc.get(`${mountPath}/static-cred/${role}`), statusIs(200));
  return String(data(cred).password ?? '');
}

conformance(
  {
    id: 'ldap.config.userattr',
    level: 'MUST',
    title: 'With userattr uid a static role finds its entry by uid and its password opens that entry',
  },
  async (t) => {
    const m = await freshMount(t, { userattr: 'uid' });
    const acct = await account(t, 'byuid');
    // The account's uid is uid-<cn>: only a search by uid finds it under that name.
    const password = await rotatedPassword(t, m, `uid-${acct.cn}`);
    await expectBinds(t, acct.dn, password, 'static-cred of a role found by uid');
  },
);

conformance(
  {
    id: 'ldap.config.userattr-default',
    level: 'MUST',
    title: 'With schema ad and no userattr a static role finds its entry by userPrincipalName and sets unicodePwd',
  },
  async (t) => {
    const upn = `${t.unique('upn')}@corp.example`;
    const acct = await schemaAccount(t, { userPrincipalName: [upn] });
    const m = await freshMount(t, { schema: 'ad' });
    const password = await rotatedPassword(t, m, upn);
    // The ad schema stores a password as the quoted UTF-16LE unicodePwd.
    const stored = await readBinaryAttribute(admin(t), acct.dn, 'unicodePwd');
    const want = Buffer.from(`"${password}"`, 'utf16le');
    expectThat(
      password !== '' && !!stored?.some((v) => v.equals(want)),
      'unicodePwd',
      stored?.length ? '[another value]' : '(no unicodePwd)',
      'the quoted UTF-16LE password',
      'the rotated password is the unicodePwd of the entry found by userPrincipalName',
    );
  },
);

conformance(
  {
    id: 'ldap.config.userattr-default',
    level: 'MUST',
    title: 'With schema racf and no userattr a static role finds its entry by racfid and sets racfPassword',
  },
  async (t) => {
    const racfid = t.unique('R').toUpperCase();
    const acct = await schemaAccount(t, { racfid: [racfid] });
    const m = await freshMount(t, { schema: 'racf' });
    const password = await rotatedPassword(t, m, racfid);
    const stored = await readBinaryAttribute(admin(t), acct.dn, 'racfPassword');
    expectThat(
      password !== '' && !!stored?.some((v) => v.toString('utf8') === password),
      'racfPassword',
      stored?.length ? '[another value]' : '(no racfPassword)',
      'the password',
      'the rotated password is the racfPassword of the entry found by racfid',
    );
  },
);

conformance(
  {
    id: 'ldap.config.upndomain',
    level: 'MUST',
    title: 'With upndomain the engine binds as binddn@upndomain (a directory taking UPN binds only)',
  },
  async (t) => {
    const root = await adminAccount(t);
    const domain = 'upn.example';
    // Binds named <cn>@upn.example reach the directory as cn=<cn>,<userdn>; a bind with the
    // plain name is refused there (it is not a DN).
    const listener = await upnListener(directoryAddress(t), domain, directory(t).userDn);
    t.track('UPN listener', () => listener.close());
    const m = await freshMount(t, null);
    t.check(
      await t.svc.post(`${m}/config`, {
        body: baseConfig(t, {
          binddn: root.cn,
          bindpass: root.password,
          upndomain: domain,
          url: `ldap://${listener.address}`,
        }),
      }),
      success,
    );
    // Creating a static role with import rotation binds, searches and sets the password: it works
    // only with the UPN.
    const use = await importRotation(t, m, 'upnchk');
    await reachedDirectory(t, use, 'configured with upndomain');
    t.check(use.ex, success);
  },
);
