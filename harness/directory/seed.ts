/**
 * The directory's seed: a base DN, an OU of users and one of service accounts, a group of
 * administrators and the bind entry. Described once as data so both the slapadd path (LDIF) and
 * the container path (adds over LDAP) seed the same tree.
 */
export interface SeedEntry {
  dn: string;
  attributes: Record<string, string[]>;
}

export interface SeedPlan {
  baseDn: string;
  userDn: string;
  groupDn: string;
  bindDn: string;
  bindPass: string;
  /** An administrator whose password the directory accepts over TLS only (when seeded with one). */
  tlsBindDn?: string;
  tlsBindPass?: string;
  users: string[];
  serviceAccounts: string[];
  entries: SeedEntry[];
}

/** Accounts per OU: enough for every test file to take its own, running in parallel. */
export const SEED_ACCOUNTS = 60;

export function seedPlan(baseDn: string, bindPass: string, count = SEED_ACCOUNTS, tlsBindPass?: string): SeedPlan {
  const userDn = `ou=users,${baseDn}`;
  const groupDn = `cn=directory-admins,ou=groups,${baseDn}`;
  const bindDn = `cn=svc-admin,${baseDn}`;
  const tlsBindDn = tlsBindPass ? `cn=tls-admin,${baseDn}` : undefined;
  const dc = /^dc=([^,]+)/i.exec(baseDn)?.[1] ?? 'example';
  const pad = (n: number) => String(n).padStart(3, '0');
  const users = Array.from({ length: count }, (_, i) => `user-${pad(i + 1)}`);
  const serviceAccounts = Array.from({ length: count }, (_, i) => `sa-${pad(i + 1)}`);
  // uid differs from cn on purpose: a wrong userattr default then finds nothing.
  const person = (cn: string): SeedEntry => ({
    dn: `cn=${cn},${userDn}`,
    attributes: {
      objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
      cn: [cn],
      sn: [cn],
      uid: [`uid-${cn}`],
      userPassword: [`seed-${cn}`],
    },
  });
  const entries: SeedEntry[] = [
    { dn: baseDn, attributes: { objectClass: ['top', 'dcObject', 'organization'], dc: [dc], o: [dc] } },
    { dn: userDn, attributes: { objectClass: ['top', 'organizationalUnit'], ou: ['users'] } },
    { dn: `ou=groups,${baseDn}`, attributes: { objectClass: ['top', 'organizationalUnit'], ou: ['groups'] } },
    {
      dn: bindDn,
      attributes: { objectClass: ['top', 'person'], cn: ['svc-admin'], sn: ['svc-admin'], userPassword: [bindPass] },
    },
    ...(tlsBindDn
      ? [
          {
            dn: tlsBindDn,
            attributes: {
              objectClass: ['top', 'person'],
              cn: ['tls-admin'],
              sn: ['tls-admin'],
              userPassword: [tlsBindPass!],
            },
          },
        ]
      : []),
    {
      dn: groupDn,
      attributes: {
        objectClass: ['top', 'groupOfNames'],
        cn: ['directory-admins'],
        member: tlsBindDn ? [bindDn, tlsBindDn] : [bindDn],
      },
    },
    ...users.map(person),
    ...serviceAccounts.map(person),
  ];
  return { baseDn, userDn, groupDn, bindDn, bindPass, tlsBindDn, tlsBindPass, users, serviceAccounts, entries };
}

/** LDIF text of the plan (for slapadd). Values are plain ASCII by construction. */
export function toLdif(entries: SeedEntry[]): string {
  return `${entries
    .map((e) =>
      [`dn: ${e.dn}`, ...Object.entries(e.attributes).flatMap(([k, vs]) => vs.map((v) => `${k}: ${v}`))].join('\n'),
    )
    .join('\n\n')}\n`;
}
