/**
 * Password generation of the directory engine (configuration rules 1-4): length and
 * password_policy exclusive, the pre-policy default algorithm, length, a password policy for
 * static roles and for the .Password of dynamic roles.
 */
import { conformance, type T } from '../../harness/index.js';
import { errorMessage, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif } from '../../fixtures/ldap/roles.js';
import { deleteEntry } from '../../harness/directory/index.js';
import {
  account,
  admin,
  baseConfig,
  data,
  directory,
  expectBinds,
  freshMount,
  ldapSuite,
  leaseId,
  LONG,
  refused,
  revokeLease,
} from './helpers.js';

ldapSuite();

/** The kind of a password character: what rule 3 compares between the two algorithms. */
function kindOf(c: string): string {
  if (/[a-z]/.test(c)) return 'lowercase';
  if (/[A-Z]/.test(c)) return 'uppercase';
  if (/[0-9]/.test(c)) return 'digit';
  return 'other';
}

/** Creates a static role on a fresh account and returns the password static-cred reports. */
async function generated(
  t: T,
  mountPath: string,
): Promise<{ password: string; dn: string; status: number; role: string }> {
  const acct = await account(t, 'gen');
  const role = t.unique('gen');
  const created = await t.svc.post(`${mountPath}/static-role/${role}`, {
    body: { username: acct.cn, rotation_period: LONG },
  });
  if (created.response.status >= 400) return { password: '', dn: acct.dn, status: created.response.status, role };
  t.track(`static role ${role}`, () => t.svc.delete(`${mountPath}/static-role/${role}`));
  const cred = t.check(await t.svc.get(`${mountPath}/static-cred/${role}`), statusIs(200));
  return { password: String(data(cred).password ?? ''), dn: acct.dn, status: created.response.status, role };
}

conformance(
  {
    id: 'ldap.password.both-rejected',
    level: 'MUST',
    title: 'POST /ldap/config with both length and password_policy is rejected and stores nothing',
  },
  async (t) => {
    const m = await freshMount(t, null);
    // "is rejected": a refusal, whose status is not named.
    t.check(
      await t.svc.post(`${m}/config`, { body: baseConfig(t, { length: 20, password_policy: 'any' }) }),
      refused,
      errorMessage,
    );
    const read = await t.svc.get(`${m}/config`);
    expectThat(
      read.response.status === 404 ||
        read.response.status === 400 ||
        (read.response.status === 200 && !data(read).binddn && !data(read).password_policy),
      'not-stored',
      'the mount holds no configuration after the rejected write',
      '404, or no binddn and no password_policy',
      read.response.status === 200 ? data(read) : read.response.status,
    );
  },
);

conformance(
  {
    id: 'ldap.password.policy-not-checked-on-save',
    level: 'MUST',
    title: 'POST /ldap/config naming a password policy that does not exist is accepted',
  },
  async (t) => {
    const m = await freshMount(t, null);
    t.check(
      await t.svc.post(`${m}/config`, { body: baseConfig(t, { password_policy: t.unique('nopolicy') }) }),
      success,
    );
  },
);

conformance(
  {
    id: 'ldap.password.policy-missing-fails-generation',
    level: 'MUST',
    title: 'With a missing password policy, generating a password (static role import) fails',
  },
  async (t) => {
    const m = await freshMount(t, { password_policy: t.unique('nopolicy') });
    const { status } = await generated(t, m);
    expectThat(
      status >= 400,
      'generation-fails',
      'creating a static role needs a password from the missing policy and fails',
      '>= 400',
      status,
    );
  },
);

conformance(
  {
    id: 'ldap.password.default-algorithm',
    level: 'MUST',
    also: ['ldap.config.length-default'],
    title: 'Without length or password_policy generated passwords have the default length 64',
  },
  async (t) => {
    const m = await freshMount(t);
    const { password, dn } = await generated(t, m);
    expectThat(password.length === 64, 'length', 'the default generator gives 64 characters', 64, password.length);
    await expectBinds(t, dn, password, 'default-generated password');
  },
);

conformance(
  {
    id: 'ldap.default-algorithm-charset',
    level: 'SHOULD',
    title: 'The pre-policy default generator produces alphanumeric passwords',
  },
  async (t) => {
    const m = await freshMount(t);
    const { password } = await generated(t, m);
    expectThat(
      password !== '' && /^[A-Za-z0-9]+$/.test(password),
      'charset',
      'the default password is alphanumeric',
      'alphanumeric',
      '[other characters]',
    );
  },
);

conformance(
  {
    id: 'ldap.password.length',
    level: 'MUST',
    title: 'With length 20 generated passwords are 20 characters and open the account',
  },
  async (t) => {
    const m = await freshMount(t, { length: 20 });
    const { password, dn, role } = await generated(t, m);
    expectThat(password.length === 20, 'length', 'passwords follow the configured length', 20, password.length);
    await expectBinds(t, dn, password, 'length-20 password');
    // Rule 3, "the same algorithm is used at that length": the characters of length-20 passwords
    // come from the kinds (lower, upper, digit, other) the default algorithm's passwords show.
    // Three passwords (60 characters) so an alphabet with other characters shows them.
    const more = [password];
    for (let i = 0; i < 2; i++) {
      t.check(await t.svc.post(`${m}/rotate-role/${role}`), success);
      more.push(String(data(t.check(await t.svc.get(`${m}/static-cred/${role}`), statusIs(200))).password ?? ''));
    }
    const reference = (await generated(t, await freshMount(t))).password;
    const allowed = new Set([...reference].map(kindOf));
    const foreign = [...new Set(more.join('').split('').map(kindOf))].filter((k) => !allowed.has(k));
    expectThat(
      foreign.length === 0,
      'same-algorithm',
      'length passwords use the alphabet of the default algorithm',
      `only ${[...allowed].join(', ')} characters`,
      `also ${foreign.join(', ')} characters`,
    );
  },
);

conformance(
  {
    id: 'ldap.password.policy',
    level: 'MUST',
    title: 'With password_policy generated passwords come from that policy (sys/policies/password/:name)',
  },
  async (t) => {
    const name = t.unique('pwpol');
    const policy = 'length = 24\nrule "charset" {\n  charset = "abcdefgh"\n  min-chars = 1\n}\n';
    // Set-up: how password policies are made is not shown (the engine only names one).
    t.precondition(await t.svc.post(`sys/policies/password/${name}`, { body: { policy } }), success);
    t.track(`password policy ${name}`, () => t.svc.delete(`sys/policies/password/${name}`));
    const m = await freshMount(t, { password_policy: name });
    const { password, dn } = await generated(t, m);
    expectThat(
      /^[a-h]{24}$/.test(password),
      'policy',
      'the password has the policy length and charset',
      '24 of [a-h]',
      `${password.length} characters`,
    );
    await expectBinds(t, dn, password, 'policy password');
  },
);

conformance(
  {
    id: 'ldap.template.password-policy',
    level: 'MUST',
    title: 'With password_policy the .Password of a dynamic role comes from that policy and opens the account',
  },
  async (t) => {
    const name = t.unique('pwpol');
    const policy = 'length = 24\nrule "charset" {\n  charset = "abcdefgh"\n  min-chars = 1\n}\n';
    t.precondition(await t.svc.post(`sys/policies/password/${name}`, { body: { policy } }), success);
    t.track(`password policy ${name}`, () => t.svc.delete(`sys/policies/password/${name}`));
    const m = await freshMount(t, { password_policy: name });
    const userDn = directory(t).userDn;
    const role = t.unique('pwdyn');
    t.check(
      await t.svc.post(`${m}/role/${role}`, {
        body: { creation_ldif: creationLdif(userDn), deletion_ldif: deletionLdif(userDn), default_ttl: LONG },
      }),
      success,
    );
    t.track(`dynamic role ${role}`, () => t.svc.delete(`${m}/role/${role}`));
    const creds = t.check(await t.svc.get(`${m}/creds/${role}`), statusIs(200));
    const { username, password } = data<{ username: string; password: string }>(creds);
    t.track('lease', () => revokeLease(t, leaseId(creds)), 'revoke');
    t.track(`account ${username}`, () => deleteEntry(admin(t), `cn=${username},${userDn}`));
    expectThat(
      /^[a-h]{24}$/.test(String(password)),
      'policy',
      'the dynamic password has the policy length and charset',
      '24 of [a-h]',
      `${String(password).length} characters`,
    );
    // The LDIF wrote .Password into userPassword: the returned password opens the entry.
    await expectBinds(t, `cn=${username},${userDn}`, password, 'the dynamic policy password');
  },
);
