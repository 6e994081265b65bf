/** LDIF templates of dynamic roles: the fields they receive and the functions they may call. */
import { conformance } from '../../harness/index.js';
import { clientError, errorMessage, expectThat, statusIs } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif } from '../../fixtures/ldap/roles.js';
import { admin, data, leaseId, ldapSuite, revokeLease } from './helpers.js';
import { deleteEntry } from '../../harness/directory/index.js';
import { dynamicRoles } from './dynamic-roles.js';

const { mount } = ldapSuite();
const { rolePath, userDn, dnOf, rendered } = dynamicRoles(mount);

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
