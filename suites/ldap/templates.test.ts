/** LDIF templates of dynamic roles: the fields they receive and the functions they may call. */
import { conformance, type T } from '../../harness/index.js';
import { errorMessage, expectThat, statusIs } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif } from '../../fixtures/ldap/roles.js';
import { admin, data, ldapSuite, leaseId, refused, revokeLease } from './helpers.js';
import { deleteEntry } from '../../harness/directory/index.js';
import { dynamicRoles } from './dynamic-roles.js';

const { mount } = ldapSuite();
const { rolePath, userDn, dnOf, rendered } = dynamicRoles(mount);

/** RFC 3339 date-time (fractional seconds allowed, Z or an offset). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** How much earlier than the lease's own times the time fields may be ("slightly"). */
const SLIGHTLY = 5;

/** The lease's own issue and expiry times (Unix seconds, with fractions), from PUT sys/leases/lookup. */
async function leaseTimes(t: T, lease: string): Promise<{ issue: number; expire: number }> {
  const ex = t.precondition(await t.svc.put('sys/leases/lookup', { body: { lease_id: lease } }), statusIs(200));
  const d = data<{ issue_time?: string; expire_time?: string }>(ex);
  const issue = Date.parse(String(d.issue_time ?? '')) / 1000;
  const expire = Date.parse(String(d.expire_time ?? '')) / 1000;
  if (Number.isNaN(issue) || Number.isNaN(expire))
    t.notApplicable('sys/leases/lookup shows no issue_time and expire_time of the lease');
  return { issue, expire };
}

conformance(
  { id: 'ldap.template.fields', level: 'MUST', title: 'LDIF templates receive .RoleName, .DisplayName and .Username' },
  async (t) => {
    const self = t.precondition(await t.svc.get('auth/token/lookup-self'), statusIs(200));
    const display = String(data(self).display_name ?? '');
    const r = await rendered(t, '{{.RoleName}}|{{.DisplayName}}|{{.Username}}');
    expectThat(
      r.value === `${r.role}|${display}|${r.username}`,
      'fields',
      r.value,
      `${r.role}|${display}|${r.username}`,
      'the fields render the role, the token display name and the username',
    );
  },
);

conformance(
  {
    id: 'ldap.template.time-fields',
    level: 'MUST',
    title:
      '.ExpirationTimeSeconds minus .IssueTimeSeconds is the lease TTL and .IssueTime and .ExpirationTime are RFC 3339',
  },
  async (t) => {
    const r = await rendered(t, '{{.IssueTimeSeconds}} {{.ExpirationTimeSeconds}} {{.IssueTime}} {{.ExpirationTime}}');
    const [issue, exp, issueText, expText] = r.value.split(' ');
    expectThat(
      RFC3339.test(issueText ?? '') && RFC3339.test(expText ?? ''),
      'rfc3339-format',
      `${issueText} ${expText}`,
      'YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)',
      '.IssueTime and .ExpirationTime are RFC 3339 date-times',
    );
    const span = Number(exp) - Number(issue);
    expectThat(
      Math.abs(span - r.leaseSeconds) <= 2,
      'time-fields',
      span,
      r.leaseSeconds,
      'the expiry fields are the lease duration after the issue fields',
    );
    expectThat(
      Math.abs(Date.parse(issueText!) / 1000 - Number(issue)) <= 1 &&
        Math.abs(Date.parse(expText!) / 1000 - Number(exp)) <= 1,
      'rfc3339',
      `${issueText} ${expText}`,
      `${issue} ${exp}`,
      'the RFC 3339 fields match the Unix ones',
    );
  },
);

conformance(
  {
    id: 'ldap.template.time-fields',
    level: 'MUST',
    title: "The time fields are at most slightly earlier, never later, than the lease's own issue and expiry times",
  },
  async (t) => {
    const r = await rendered(t, '{{.IssueTimeSeconds}} {{.ExpirationTimeSeconds}} {{.IssueTime}} {{.ExpirationTime}}');
    const [issue, exp, issueText, expText] = r.value.split(' ');
    const lease = await leaseTimes(t, r.lease);
    // "slightly earlier": a few seconds at most (the lease's times may carry fractions of a second).
    const close = (field: number, own: number) => field <= own + 1 && field >= own - SLIGHTLY;
    const fields = {
      IssueTimeSeconds: close(Number(issue), lease.issue),
      ExpirationTimeSeconds: close(Number(exp), lease.expire),
      IssueTime: close(Date.parse(issueText ?? '') / 1000, lease.issue),
      ExpirationTime: close(Date.parse(expText ?? '') / 1000, lease.expire),
    };
    const off = Object.entries(fields)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    expectThat(
      off.length === 0,
      'earlier',
      { fields: r.value, off },
      { issue_time: lease.issue, expire_time: lease.expire },
      `each time field is at most ${SLIGHTLY} s earlier than the lease's value and not later`,
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
      r.value,
      r.role.toUpperCase().split('-').join('+'),
      'both functions applied in order',
    );
  },
);

conformance(
  { id: 'ldap.template.printf', level: 'MUST', title: 'printf is available: {{ printf "%s=%d" "abc" 42 }}' },
  async (t) => {
    const r = await rendered(t, '{{ printf "%s=%d" "abc" 42 }}');
    expectThat(r.value === 'abc=42', 'printf', r.value, 'abc=42', 'printf formats its arguments');
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
      r.value,
      r.role,
      'the role name is not altered',
    );
  },
);

conformance(
  { id: 'ldap.template.fn-random', level: 'MUST', title: 'random 12 yields 12 characters from letters and digits' },
  async (t) => {
    const r = await rendered(t, 'r{{random 12}}');
    expectThat(/^r[A-Za-z0-9]{12}$/.test(r.value), 'random', r.value, 'r + 12 of [A-Za-z0-9]', '12 alphanumerics');
    // "from lowercase, uppercase and digits": 200 characters show each kind (a random string of
    // 200 that lacks one of them comes up less than once in 10^15).
    const long = (await rendered(t, '{{random 200}}')).value;
    const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/].map((k) => k.test(long));
    expectThat(
      /^[A-Za-z0-9]{200}$/.test(long) && kinds.every(Boolean),
      'random-alphabet',
      long,
      '200 of [A-Za-z0-9], each kind present',
      'random 200 draws lowercase letters, uppercase letters and digits',
    );
  },
);

conformance(
  { id: 'ldap.template.fn-truncate', level: 'MUST', title: 'truncate 5 cuts the value to 5 characters' },
  async (t) => {
    const r = await rendered(t, '{{ "abcdefghij" | truncate 5 }}');
    expectThat(r.value === 'abcde', 'truncate', r.value, 'abcde', 'the first 5 characters');
  },
);

conformance(
  {
    id: 'ldap.template.fn-truncate-sha256',
    level: 'MUST',
    title: 'truncate_sha256 20 keeps 20 characters ending in the first 8 hex digits of a SHA-256 of the text',
  },
  async (t) => {
    const input = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const r = await rendered(t, `{{ "${input}" | truncate_sha256 20 }}`);
    // "the SHA-256 of the cut text" reads several ways: the whole input, the 20 characters cut
    // to, the 12 kept or the part cut off (what the real product hashes). Each is accepted.
    const { createHash } = await import('node:crypto');
    const sha8 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);
    const readings = [input, input.slice(0, 20), input.slice(0, 12), input.slice(12)].map(sha8);
    expectThat(
      r.value.length === 20 && r.value.startsWith(input.slice(0, 12)) && readings.includes(r.value.slice(12)),
      'truncate_sha256',
      r.value,
      `${input.slice(0, 12)}<one of ${readings.join(', ')}>`,
      '12 kept characters then the first 8 hex digits of the SHA-256 of the text',
    );
  },
);

conformance({ id: 'ldap.template.fn-case', level: 'MUST', title: 'uppercase and lowercase change case' }, async (t) => {
  const r = await rendered(t, '{{ "MiXed" | uppercase }}/{{ "MiXed" | lowercase }}');
  expectThat(r.value === 'MIXED/mixed', 'case', r.value, 'MIXED/mixed', 'upper then lower case');
});

conformance(
  { id: 'ldap.template.fn-replace', level: 'MUST', title: 'replace FROM TO replaces every occurrence' },
  async (t) => {
    const r = await rendered(t, '{{ "a.b.c" | replace "." "-" }}');
    expectThat(r.value === 'a-b-c', 'replace', r.value, 'a-b-c', 'every dot replaced');
  },
);

conformance(
  { id: 'ldap.template.fn-sha256-base64', level: 'MUST', title: 'sha256 gives the hex digest and base64 encodes' },
  async (t) => {
    // "??>?" encodes to characters where the alphabets differ (+, /) and to padding.
    const r = await rendered(t, '{{ "abc" | sha256 }} {{ "abc" | base64 }} {{ "??>?" | base64 }}');
    const { createHash } = await import('node:crypto');
    const want = `${createHash('sha256').update('abc').digest('hex')} YWJj Pz8+Pw==`;
    expectThat(r.value === want, 'sha256-base64', r.value, want, 'digest and encoding of "abc"');
  },
);

conformance(
  {
    id: 'ldap.template.fn-time',
    level: 'MUST',
    title: 'unix_time, unix_time_millis and timestamp give the current time',
  },
  async (t) => {
    const r = await rendered(t, '{{unix_time}} {{unix_time_millis}} {{timestamp "2006-01-02"}}');
    const [secs, millis, day] = r.value.split(' ');
    // "Current": the service's time when the credentials were made, the issue time of their lease.
    const { issue } = await leaseTimes(t, r.lease);
    const ok =
      Math.abs(Number(secs) - issue) <= 5 &&
      Math.abs(Number(millis) / 1000 - issue) <= 5 &&
      day === new Date(issue * 1000).toISOString().slice(0, 10);
    expectThat(
      ok,
      'time',
      r.value,
      `${Math.floor(issue)} / ${new Date(issue * 1000).toISOString().slice(0, 10)}`,
      'the time functions agree with the lease issue time',
    );
  },
);

conformance({ id: 'ldap.template.fn-uuid', level: 'MUST', title: 'uuid yields a random UUID' }, async (t) => {
  const r = await rendered(t, '{{uuid}}');
  expectThat(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(r.value),
    'uuid',
    r.value,
    '<uuid>',
    'a UUID',
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
      r.value,
      Buffer.from('pw', 'utf16le').toString('base64'),
      'UTF-16LE bytes of "pw" in base64',
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
      t.check(write, refused, errorMessage);
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
      c.response.status,
      '>= 400',
      'a username template with utf16le is refused on write or on creds',
    );
  },
);
