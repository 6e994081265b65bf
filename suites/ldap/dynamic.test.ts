import { conformance, type T } from '../../harness/index.js';
import { bodyAt, clientError, errorMessage, expectThat, statusIs, success } from '../../harness/checks/index.js';
import {
  creationLdif,
  deletionLdif,
  deletionWithErrorLdif,
  failingCreationLdif,
  rollbackLdif,
} from '../../fixtures/ldap/roles.js';
import {
  admin,
  attribute,
  data,
  directory,
  durationOf,
  exists,
  expectBinds,
  leaseId,
  ldapSuite,
  LONG,
  revokeLease,
} from './helpers.js';
import { deleteEntry } from '../../harness/directory/index.js';

const { mount } = ldapSuite();
const rolePath = (name: string) => `${mount.path}/role/${name}`;
const userDn = (t: T) => directory(t).userDn;
const dnOf = (t: T, cn: string) => `cn=${cn},${userDn(t)}`;

async function createRole(t: T, body: Record<string, unknown>, base = 'dyn'): Promise<string> {
  const name = t.unique(base);
  const full = {
    creation_ldif: creationLdif(userDn(t)),
    deletion_ldif: deletionLdif(userDn(t)),
    default_ttl: LONG,
    ...body,
  };
  t.check(await t.svc.post(rolePath(name), { body: full }), success);
  t.track(`dynamic role ${name}`, () => t.svc.delete(rolePath(name)));
  return name;
}

interface Creds {
  username: string;
  password: string;
  dns: string[];
  lease: string;
  ex: Awaited<ReturnType<T['svc']['get']>>;
}

async function creds(t: T, role: string): Promise<Creds> {
  const ex = t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(200));
  const d = data<{ username: string; password: string; distinguished_names: string[] }>(ex);
  const lease = leaseId(ex);
  t.track(`lease of ${role}`, () => revokeLease(t, lease), 'revoke');
  t.track(`account ${d.username}`, () => deleteEntry(admin(t), dnOf(t, d.username)));
  return { username: d.username, password: d.password, dns: d.distinguished_names ?? [], lease, ex };
}

/** Renders `expr` through a creation LDIF into the entry's description and reads it back from the directory. */
async function rendered(
  t: T,
  expr: string,
  base = 'tpl',
): Promise<{ value: string; role: string; username: string; leaseSeconds: number }> {
  const role = await createRole(t, { creation_ldif: creationLdif(userDn(t), `description: ${expr}\n`) }, base);
  const c = await creds(t, role);
  const values = await attribute(t, dnOf(t, c.username), 'description');
  const leaseSeconds = Number((c.ex.response.body as { lease_duration?: number }).lease_duration);
  return { value: values?.[0] ?? '', role, username: c.username, leaseSeconds };
}

/** Creates a role whose username is the role name, so a failed creation's entries can be found. */
async function failingRole(t: T, rollback: string | undefined): Promise<string> {
  const name = t.unique('fail');
  const body: Record<string, unknown> = {
    creation_ldif: failingCreationLdif(userDn(t)),
    deletion_ldif: deletionLdif(userDn(t)),
    username_template: '{{.RoleName}}',
  };
  if (rollback) body.rollback_ldif = rollback;
  t.check(await t.svc.post(rolePath(name), { body }), success);
  t.track(`dynamic role ${name}`, () => t.svc.delete(rolePath(name)));
  t.track('entries of the failed creation', async () => {
    await deleteEntry(admin(t), dnOf(t, name));
    await deleteEntry(admin(t), dnOf(t, `${name}-third`));
  });
  return name;
}

conformance(
  {
    id: 'ldap.dynamic.create-read',
    level: 'MUST',
    title: 'POST /ldap/role/:name stores the role and GET returns its LDIF and TTLs',
  },
  async (t) => {
    const name = await createRole(t, { default_ttl: 3600, max_ttl: 7200 });
    const read = t.check(await t.svc.get(rolePath(name)), statusIs(200));
    t.check(
      read,
      bodyAt('/data/creation_ldif', creationLdif(userDn(t)), 'is the creation LDIF written'),
      bodyAt('/data/default_ttl', durationOf(3600), 'is the default_ttl written'),
      bodyAt('/data/max_ttl', durationOf(7200), 'is the max_ttl written'),
    );
  },
);

conformance(
  { id: 'ldap.dynamic.required-ldif', level: 'MUST', title: 'POST /ldap/role/:name without deletion_ldif returns 400' },
  async (t) => {
    t.check(
      await t.svc.post(rolePath(t.unique('nodel')), { body: { creation_ldif: creationLdif(userDn(t)) } }),
      statusIs(400),
      errorMessage,
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.creds-shape',
    level: 'MUST',
    title: 'GET /ldap/creds/:name returns username, password and distinguished_names with a lease',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    expectThat(c.lease !== '', 'lease', 'the credentials come with a lease id', 'a lease id', '');
    expectThat(
      c.dns.some((d) => d.toLowerCase() === dnOf(t, c.username).toLowerCase()),
      'dns',
      'distinguished_names names the created entry',
      dnOf(t, c.username),
      c.dns,
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.creds-account-exists',
    level: 'MUST',
    title: 'After GET /ldap/creds/:name the account exists in the directory and its password binds',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    expectThat(
      await exists(t, dnOf(t, c.username)),
      'exists',
      'the dynamic account exists in the directory',
      'present',
      'absent',
    );
    await expectBinds(t, dnOf(t, c.username), c.password, 'the dynamic password');
  },
);

conformance(
  {
    id: 'ldap.dynamic.revoke-deletes',
    level: 'MUST',
    also: ['ldap.leases.revoke-path'],
    title: 'PUT /sys/leases/revoke of a dynamic lease runs deletion_ldif: the account is gone',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    t.check(await revokeLease(t, c.lease), success);
    expectThat(
      !(await exists(t, dnOf(t, c.username))),
      'deleted',
      'the dynamic account is gone after revoke',
      'absent',
      'present',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.deletion-continues',
    level: 'MUST',
    title: 'deletion_ldif whose first record fails still deletes the account',
  },
  async (t) => {
    const role = await createRole(t, { deletion_ldif: deletionWithErrorLdif(userDn(t)) });
    const c = await creds(t, role);
    t.check(await revokeLease(t, c.lease), success);
    expectThat(
      !(await exists(t, dnOf(t, c.username))),
      'deleted',
      'the record after the failing one ran',
      'absent',
      'present',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.creation-stops-at-error',
    level: 'MUST',
    title: 'A creation LDIF error fails the request and skips the records after it',
  },
  async (t) => {
    const role = await failingRole(t, undefined);
    const ex = await t.svc.get(`${mount.path}/creds/${role}`);
    t.check(ex, statusIs(400, 500, 502), errorMessage);
    expectThat(
      !(await exists(t, dnOf(t, `${role}-third`))),
      'skipped',
      'the record after the failing one was not run',
      'absent',
      'present',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.rollback-runs',
    level: 'MUST',
    title: 'After a creation error rollback_ldif runs and nothing is left behind',
  },
  async (t) => {
    const role = await failingRole(t, `dn: cn={{.Username}},${userDn(t)}\nchangetype: delete\n`);
    t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(400, 500, 502));
    expectThat(
      !(await exists(t, dnOf(t, role))),
      'rolled-back',
      'the entry created before the error was removed by rollback',
      'absent',
      'present',
    );
    expectThat(!(await exists(t, dnOf(t, `${role}-third`))), 'skipped', 'no later record ran', 'absent', 'present');
  },
);

conformance(
  {
    id: 'ldap.dynamic.rollback-continues',
    level: 'MUST',
    title: 'rollback_ldif whose first record fails still runs its later records',
  },
  async (t) => {
    const role = await failingRole(t, rollbackLdif(userDn(t)));
    t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(400, 500, 502));
    expectThat(
      !(await exists(t, dnOf(t, role))),
      'rolled-back',
      'the second rollback record removed the created entry',
      'absent',
      'present',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.partial-update',
    level: 'MUST',
    title: 'POST /ldap/role/:name with only default_ttl keeps the other keys',
  },
  async (t) => {
    const name = await createRole(t, { username_template: 'p{{random 8}}', default_ttl: 3600 });
    t.check(await t.svc.post(rolePath(name), { body: { default_ttl: 7200 } }), success);
    const read = t.check(await t.svc.get(rolePath(name)), statusIs(200));
    t.check(
      read,
      bodyAt('/data/default_ttl', durationOf(7200), 'is the updated default_ttl'),
      bodyAt('/data/username_template', 'p{{random 8}}', 'is unchanged'),
      bodyAt('/data/creation_ldif', creationLdif(userDn(t)), 'is unchanged'),
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.empty-string-deletes',
    level: 'MUST',
    title: 'POST /ldap/role/:name with username_template "" deletes the key',
  },
  async (t) => {
    const name = await createRole(t, { username_template: 'p{{random 8}}', rollback_ldif: deletionLdif(userDn(t)) });
    t.check(await t.svc.post(rolePath(name), { body: { username_template: '' } }), success);
    const read = t.check(await t.svc.get(rolePath(name)), statusIs(200));
    const v = data(read).username_template;
    expectThat(v === undefined || v === '' || v === null, 'deleted', 'username_template is gone', 'absent or empty', v);
    t.check(read, bodyAt('/data/rollback_ldif', deletionLdif(userDn(t)), 'is unchanged'));
  },
);

conformance(
  {
    id: 'ldap.dynamic.base64-ldif',
    level: 'MUST',
    title: 'LDIF sent base64-encoded is returned decoded by GET /ldap/role/:name',
  },
  async (t) => {
    const text = creationLdif(userDn(t));
    const name = await createRole(t, { creation_ldif: Buffer.from(text).toString('base64') });
    t.check(await t.svc.get(rolePath(name)), statusIs(200), bodyAt('/data/creation_ldif', text, 'is the decoded LDIF'));
  },
);

conformance(
  { id: 'ldap.dynamic.default-ttl', level: 'MUST', title: 'The credential lease lasts the role default_ttl' },
  async (t) => {
    const role = await createRole(t, { default_ttl: '2h' });
    const c = await creds(t, role);
    const d = Number((c.ex.response.body as { lease_duration?: number }).lease_duration);
    expectThat(d <= 7200 && d >= 7190, 'ttl', 'lease_duration is the default_ttl', 7200, d);
  },
);

conformance(
  { id: 'ldap.dynamic.max-ttl', level: 'MUST', title: 'Renewing a dynamic lease never goes past the role max_ttl' },
  async (t) => {
    const role = await createRole(t, { default_ttl: '1h', max_ttl: '2h' });
    const c = await creds(t, role);
    const renewed = t.check(
      await t.svc.put('sys/leases/renew', { body: { lease_id: c.lease, increment: 36000 } }),
      statusIs(200),
    );
    const d = Number((renewed.response.body as { lease_duration?: number }).lease_duration);
    expectThat(d <= 7200, 'max-ttl', 'the renewed lease ends within max_ttl', '<= 7200', d);
  },
);

conformance(
  {
    id: 'ldap.dynamic.username-template-default',
    level: 'MUST',
    title: 'Without username_template the username is v_<display>_<role>_<10 random>_<unix time>',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    const esc = role.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
    expectThat(
      new RegExp(`^v_.*_${esc}_[A-Za-z0-9]{10}_\\d{9,}$`).test(c.username),
      'default-template',
      'the username follows the default template',
      `v_<display>_${role}_<random 10>_<unix_time>`,
      c.username,
    );
  },
);

conformance(
  { id: 'ldap.dynamic.username-template', level: 'MUST', title: 'username_template fills .Username used by the LDIF' },
  async (t) => {
    const role = await createRole(t, { username_template: 'svc_{{.RoleName}}' });
    const c = await creds(t, role);
    expectThat(
      c.username === `svc_${role}`,
      'username',
      'the username is the template output',
      `svc_${role}`,
      c.username,
    );
    expectThat(
      await exists(t, dnOf(t, c.username)),
      'exists',
      'the LDIF created the entry with that username',
      'present',
      'absent',
    );
  },
);

conformance(
  { id: 'ldap.dynamic.delete', level: 'MUST', title: 'DELETE /ldap/role/:name removes the role' },
  async (t) => {
    const name = await createRole(t, {});
    t.check(await t.svc.delete(rolePath(name)), success);
    const read = await t.svc.get(rolePath(name));
    expectThat(
      read.response.status === 404 ||
        read.response.status === 400 ||
        (read.response.status === 200 && !data(read).creation_ldif),
      'deleted',
      'the role is gone',
      '404 or 400 (a read of a missing object: status not named)',
      read.response.status,
    );
  },
);

// ---- template language (rendered into the entry's description and read from the directory)

conformance(
  { id: 'ldap.template.fields', level: 'MUST', title: 'LDIF templates receive .RoleName, .DisplayName and .Username' },
  async (t) => {
    const self = t.check(await t.svc.get('auth/token/lookup-self'), statusIs(200));
    const display = String(data(self).display_name ?? '');
    const r = await rendered(t, '{{.RoleName}}|{{.DisplayName}}|{{.Username}}');
    expectThat(
      r.value === `${r.role}|${display}|${r.username}`,
      'fields',
      'the fields render the role, the token display name and the username',
      `${r.role}|${display}|${r.username}`,
      r.value,
    );
  },
);

conformance(
  {
    id: 'ldap.template.time-fields',
    level: 'MUST',
    title: '.ExpirationTimeSeconds minus .IssueTimeSeconds is the lease TTL and .IssueTime is RFC 3339',
  },
  async (t) => {
    const r = await rendered(t, '{{.IssueTimeSeconds}} {{.ExpirationTimeSeconds}} {{.IssueTime}} {{.ExpirationTime}}');
    const [issue, exp, issueText, expText] = r.value.split(' ');
    const span = Number(exp) - Number(issue);
    expectThat(
      Math.abs(span - r.leaseSeconds) <= 2,
      'time-fields',
      'the expiry fields are the lease duration after the issue fields',
      r.leaseSeconds,
      span,
    );
    expectThat(
      Math.abs(Date.parse(issueText!) / 1000 - Number(issue)) <= 1 &&
        Math.abs(Date.parse(expText!) / 1000 - Number(exp)) <= 1,
      'rfc3339',
      'the RFC 3339 fields match the Unix ones',
      `${issue} ${exp}`,
      `${issueText} ${expText}`,
    );
  },
);

conformance(
  {
    id: 'ldap.template.pipes',
    level: 'MUST',
    title: 'Pipes chain with spaces inside braces: {{ .RoleName | uppercase | replace "-" "+" }}',
  },
  async (t) => {
    const r = await rendered(t, '{{ .RoleName | uppercase | replace "-" "+" }}');
    expectThat(
      r.value === r.role.toUpperCase().split('-').join('+'),
      'pipes',
      'both functions applied in order',
      r.role.toUpperCase().split('-').join('+'),
      r.value,
    );
  },
);

conformance(
  { id: 'ldap.template.printf', level: 'MUST', title: 'printf is available: {{ printf "%s=%d" .RoleName 42 }}' },
  async (t) => {
    const r = await rendered(t, '{{ printf "%s=%d" .RoleName 42 }}');
    expectThat(r.value === `${r.role}=42`, 'printf', 'printf formats its arguments', `${r.role}=42`, r.value);
  },
);

conformance(
  {
    id: 'ldap.template.dashes-kept',
    level: 'MUST',
    title: 'Dashes and underscores in a role name reach the template unchanged',
  },
  async (t) => {
    const r = await rendered(t, '{{.RoleName}}', 'dash-x_y');
    expectThat(
      r.value === r.role && r.role.includes('-') && r.role.includes('_'),
      'dashes',
      'the role name is not altered',
      r.role,
      r.value,
    );
  },
);

conformance(
  { id: 'ldap.template.fn-random', level: 'MUST', title: 'random 12 yields 12 characters from letters and digits' },
  async (t) => {
    const r = await rendered(t, 'r{{random 12}}');
    expectThat(/^r[A-Za-z0-9]{12}$/.test(r.value), 'random', '12 alphanumerics', 'r + 12 of [A-Za-z0-9]', r.value);
  },
);

conformance(
  { id: 'ldap.template.fn-truncate', level: 'MUST', title: 'truncate 5 cuts the value to 5 characters' },
  async (t) => {
    const r = await rendered(t, '{{ "abcdefghij" | truncate 5 }}');
    expectThat(r.value === 'abcde', 'truncate', 'the first 5 characters', 'abcde', r.value);
  },
);

conformance(
  {
    id: 'ldap.template.fn-truncate-sha256',
    level: 'MUST',
    title: 'truncate_sha256 20 keeps 20 characters ending in 8 hex digits of a SHA-256',
  },
  async (t) => {
    const input = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const r = await rendered(t, `{{ "${input}" | truncate_sha256 20 }}`);
    expectThat(
      r.value.length === 20 && r.value.startsWith(input.slice(0, 12)) && /^[0-9a-f]{8}$/.test(r.value.slice(12)),
      'truncate_sha256',
      '12 kept characters then 8 hex digits',
      `${input.slice(0, 12)}<8 hex>`,
      r.value,
    );
  },
);

conformance({ id: 'ldap.template.fn-case', level: 'MUST', title: 'uppercase and lowercase change case' }, async (t) => {
  const r = await rendered(t, '{{ "MiXed" | uppercase }}/{{ "MiXed" | lowercase }}');
  expectThat(r.value === 'MIXED/mixed', 'case', 'upper then lower case', 'MIXED/mixed', r.value);
});

conformance(
  { id: 'ldap.template.fn-replace', level: 'MUST', title: 'replace FROM TO replaces every occurrence' },
  async (t) => {
    const r = await rendered(t, '{{ "a.b.c" | replace "." "-" }}');
    expectThat(r.value === 'a-b-c', 'replace', 'every dot replaced', 'a-b-c', r.value);
  },
);

conformance(
  { id: 'ldap.template.fn-sha256-base64', level: 'MUST', title: 'sha256 gives the hex digest and base64 encodes' },
  async (t) => {
    const r = await rendered(t, '{{ "abc" | sha256 }} {{ "abc" | base64 }}');
    const { createHash } = await import('node:crypto');
    const want = `${createHash('sha256').update('abc').digest('hex')} YWJj`;
    expectThat(r.value === want, 'sha256-base64', 'digest and encoding of "abc"', want, r.value);
  },
);

conformance(
  {
    id: 'ldap.template.fn-time',
    level: 'MUST',
    title: 'unix_time, unix_time_millis and timestamp give the current time',
  },
  async (t) => {
    const r = await rendered(
      t,
      '{{unix_time}} {{unix_time_millis}} {{timestamp "2006-01-02"}} {{.IssueTimeSeconds}} {{.IssueTime}}',
    );
    const [secs, millis, day, issue, issueText] = r.value.split(' ');
    const ok =
      Math.abs(Number(secs) - Number(issue)) <= 5 &&
      Math.abs(Number(millis) / 1000 - Number(issue)) <= 5 &&
      day === issueText!.slice(0, 10);
    expectThat(
      ok,
      'time',
      'the time functions agree with the issue time',
      `${issue} / ${issueText!.slice(0, 10)}`,
      r.value,
    );
  },
);

conformance({ id: 'ldap.template.fn-uuid', level: 'MUST', title: 'uuid yields a random UUID' }, async (t) => {
  const r = await rendered(t, '{{uuid}}');
  expectThat(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(r.value),
    'uuid',
    'a UUID',
    '<uuid>',
    r.value,
  );
});

conformance(
  {
    id: 'ldap.template.utf16le-ldif-only',
    level: 'MUST',
    title: 'utf16le works in LDIF templates but a username_template using it does not produce credentials',
  },
  async (t) => {
    const r = await rendered(t, '{{ "pw" | utf16le | base64 }}');
    expectThat(
      r.value === Buffer.from('pw', 'utf16le').toString('base64'),
      'utf16le',
      'UTF-16LE bytes of "pw" in base64',
      Buffer.from('pw', 'utf16le').toString('base64'),
      r.value,
    );
    const name = t.unique('u16');
    const write = await t.svc.post(rolePath(name), {
      body: {
        creation_ldif: creationLdif(userDn(t)),
        deletion_ldif: deletionLdif(userDn(t)),
        username_template: '{{ .RoleName | utf16le | base64 }}',
      },
    });
    t.track(`dynamic role ${name}`, () => t.svc.delete(rolePath(name)));
    if (write.response.status >= 400) {
      t.check(write, clientError, errorMessage);
      return;
    }
    const c = await t.svc.get(`${mount.path}/creds/${name}`);
    if (c.response.status === 200) {
      const d = data<{ username: string }>(c);
      await deleteEntry(admin(t), dnOf(t, d.username)).catch(() => {});
      await revokeLease(t, leaseId(c));
    }
    expectThat(
      c.response.status >= 400,
      'utf16le-username',
      'a username template with utf16le is refused on write or on creds',
      '>= 400',
      c.response.status,
    );
  },
);
