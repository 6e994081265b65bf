/**
 * LDIF of the directory suite's tests of record order: an account with one entry below it, made
 * parent first (the child cannot be added before its parent) and removed child first (a parent
 * with a child cannot be deleted), so records run in another order leave something behind. The
 * fixture LDIF (fixtures/ldap/roles.ts) supplies the account's own entry.
 */
import { creationLdif, failingCreationLdif } from '../../fixtures/ldap/roles.js';

/** The DN of the entry below an account's entry. */
export const childDn = (accountDn: string) => `cn=child,${accountDn}`;

/** Creation: the account's entry, then an entry below it. */
export const parentThenChild = (userDn: string) => `${creationLdif(userDn)}
dn: cn=child,cn={{.Username}},${userDn}
objectClass: top
objectClass: person
cn: child
sn: child
`;

/** Deletion or rollback: the entry below the account's, then the account's entry. */
export const childThenParent = (userDn: string) => `dn: cn=child,cn={{.Username}},${userDn}
changetype: delete

dn: cn={{.Username}},${userDn}
changetype: delete
`;

/**
 * Creation that adds the account's entry and one below it, then fails (its next record's parent
 * is missing), with a record after that: the fixture's failing creation with the child inserted.
 */
export const parentChildThenFailing = (userDn: string) => {
  const failing = failingCreationLdif(userDn);
  const cut = failing.indexOf('\n\n') + 2;
  return `${failing.slice(0, cut)}dn: cn=child,cn={{.Username}},${userDn}
objectClass: top
objectClass: person
cn: child
sn: child

${failing.slice(cut)}`;
};
