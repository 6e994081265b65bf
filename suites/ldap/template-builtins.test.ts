/**
 * The ordinary functions of the text-template language in LDIF templates: "for example printf"
 * (templates.test.ts) is one of them; each of the others a template is likely to use is tried
 * here, one case each, rendered into the created entry and read back from the directory.
 */
import { conformance } from '../../harness/index.js';
import { expectThat } from '../../harness/checks/index.js';
import { ldapSuite } from './helpers.js';
import { dynamicRoles } from './dynamic-roles.js';

const { mount } = ldapSuite();
const { rendered } = dynamicRoles(mount);

/** A function, a template calling it, and what the text-template language renders. */
const CASES: { fn: string; expr: string; want: string; what: string }[] = [
  { fn: 'len', expr: '{{ len "abcd" }}', want: '4', what: 'the length of a string' },
  { fn: 'index', expr: '{{ index "abc" 1 }}', want: '98', what: 'the byte at an index of a string' },
  { fn: 'eq', expr: '{{ eq "b" "a" "b" }}', want: 'true', what: 'true when the first argument equals any other' },
  { fn: 'ne', expr: '{{ ne "a" "b" }}', want: 'true', what: 'true for different arguments' },
  { fn: 'lt', expr: '{{ lt 1 2 }}', want: 'true', what: 'true when the first is less' },
  { fn: 'and', expr: '{{ and "x" "y" }}', want: 'y', what: 'its last argument when all are non-empty' },
  { fn: 'or', expr: '{{ or "" "y" }}', want: 'y', what: 'its first non-empty argument' },
  { fn: 'not', expr: '{{ not "" }}', want: 'true', what: 'the negation of an empty value' },
  { fn: 'print', expr: '{{ print "a" "b" }}', want: 'ab', what: 'its arguments printed together' },
];

for (const c of CASES) {
  conformance(
    {
      id: 'ldap.template.builtin-functions',
      level: 'MUST',
      title: `The template function ${c.fn} is available: ${c.expr} renders ${c.want}`,
    },
    async (t) => {
      const r = await rendered(t, c.expr, `fn-${c.fn}`);
      expectThat(r.value === c.want, c.fn, r.value, c.want, `${c.fn} gives ${c.what}`);
    },
  );
}
