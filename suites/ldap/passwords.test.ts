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
  postStaticRole,
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

/**
 * Creates a static role on a fresh account and returns the password static-cred reports. With
 * `setUp` the role and its read only set up what the test judges (an assumption about the password):
 * a refusal makes the test not applicable instead of failing it.
 */
async function generated(
  t: T,
  mountPath: string,
  setUp = false,
): Promise<{ password: string; dn: string; status: number; role: string }> {
  const acct = await account(t, 'gen');
  const { name: role, ex: created } = await postStaticRole(t, mountPath, { username: acct.cn }, 'gen');
  if (setUp) t.precondition(created, success);
  if (created.response.status >= 400) return { password: '', dn: acct.dn, status: created.response.status, role };
  const read = await t.svc.get(`${mountPath}/static-cred/${role}`);
  const cred = setUp ? t.precondition(read, statusIs(200)) : t.check(read, statusIs(200));
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
      read.response.status === 200 ? data(read) : read.response.status,
      '404, or no binddn and no password_policy',
      'the mount holds no configuration after the rejected write',
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
      status,
      '>= 400',
      'creating a static role needs a password from the missing policy and fails',
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
    expectThat(password.length === 64, 'length', password.length, 64, 'the default generator gives 64 characters');
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
    // The generation is ldap.password.default-algorithm's; only the alphabet is the assumption.
    const { password } = await generated(t, m, true);
    expectThat(
      password !== '' && /^[A-Za-z0-9]+$/.test(password),
      'charset',
      '[other characters]',
      'alphanumeric',
      'the default password is alphanumeric',
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
    expectThat(password.length === 20, 'length', password.length, 20, 'passwords follow the configured length');
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
      `also ${foreign.join(', ')} characters`,
      `only ${[...allowed].join(', ')} characters`,
      'length passwords use the alphabet of the default algorithm',
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
      `${password.length} characters`,
      '24 of [a-h]',
      'the password has the policy length and charset',
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
      `${String(password).length} characters`,
      '24 of [a-h]',
      'the dynamic password has the policy length and charset',
    );
    // The LDIF wrote .Password into userPassword: the returned password opens the entry.
    await expectBinds(t, `cn=${username},${userDn}`, password, 'the dynamic policy password');
  },
);

conformance(
  {
    id: 'ldap.password.length',
    level: 'MUST',
    title: 'With length 20 the passwords of dynamic credentials are 20 characters and open the account',
  },
  async (t) => {
    const m = await freshMount(t, { length: 20 });
    const userDn = directory(t).userDn;
    const role = t.unique('lendyn');
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
      String(password).length === 20,
      'length',
      String(password).length,
      20,
      'dynamic passwords follow the configured length too',
    );
    await expectBinds(t, `cn=${username},${userDn}`, password, 'the length-20 dynamic password');
  },
);

conformance(
  {
    id: 'ldap.password.policy',
    level: 'MUST',
    title: "With password_policy a library check-out's password comes from that policy and opens the account",
  },
  async (t) => {
    const name = t.unique('pwpol');
    const policy = 'length = 24\nrule "charset" {\n  charset = "abcdefgh"\n  min-chars = 1\n}\n';
    t.precondition(await t.svc.post(`sys/policies/password/${name}`, { body: { policy } }), success);
    t.track(`password policy ${name}`, () => t.svc.delete(`sys/policies/password/${name}`));
    const m = await freshMount(t, { password_policy: name });
    const acct = await account(t, 'pwlib');
    const set = t.unique('pwlib');
    t.check(
      await t.svc.post(`${m}/library/${set}`, { body: { service_account_names: [acct.cn], ttl: LONG, max_ttl: LONG } }),
      success,
    );
    t.track(`library set ${set}`, () => t.svc.delete(`${m}/library/${set}`));
    const co = t.check(await t.svc.post(`${m}/library/${set}/check-out`, { body: {} }), statusIs(200));
    t.track('check-out lease', () => revokeLease(t, leaseId(co)), 'revoke');
    const { password } = data<{ password: string }>(co);
    expectThat(
      /^[a-h]{24}$/.test(String(password)),
      'policy',
      `${String(password).length} characters`,
      '24 of [a-h]',
      "the library account's password has the policy length and charset",
    );
    await expectBinds(t, acct.dn, password, 'the checked-out policy password');
  },
);
