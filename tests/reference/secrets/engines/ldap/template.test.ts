import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { render, TemplateError } from '../../../../../reference/secrets/engines/ldap/template.js';
import {
  goSprintf,
  goTimeFormat,
  rfc3339,
  templateFunctions,
} from '../../../../../reference/secrets/engines/ldap/template-functions.js';

const NOW = Date.UTC(2024, 0, 2, 15, 4, 5, 123);
const ldif = templateFunctions({ now: () => NOW, ldif: true });
const user = templateFunctions({ now: () => NOW, ldif: false });
const data = { Username: 'v_root_app-1_x', Password: 'pä', RoleName: 'app-1', DisplayName: 'root' };
const r = (src: string, fns = ldif) => render(src, data, fns);

describe('template syntax', () => {
  it('prints plain text unchanged', () => expect(r('dn: cn=a\n')).toBe('dn: cn=a\n'));
  it('substitutes fields with and without spaces inside braces', () => {
    expect(r('{{.RoleName}}/{{ .RoleName }}')).toBe('app-1/app-1');
  });
  it('keeps dashes and underscores of field values', () => expect(r('{{.Username}}')).toBe('v_root_app-1_x'));
  it('pipes a value through chained functions', () =>
    expect(r('{{ .RoleName | uppercase | replace "-" "_" }}')).toBe('APP_1'));
  it('passes the piped value as the last argument', () => expect(r('{{ .Username | truncate 3 }}')).toBe('v_r'));
  it('evaluates parenthesised pipelines as arguments', () => {
    expect(r('{{ printf "%s_%s" (.DisplayName | uppercase) (.RoleName | truncate 3) }}')).toBe('ROOT_app');
  });
  it('trims whitespace around {{- and -}}', () => expect(r('a  {{- .RoleName -}}  \n b')).toBe('aapp-1b'));
  it('drops comments', () => expect(r('a{{/* note */}}b')).toBe('ab'));
  it('supports if/else/end', () => {
    expect(r('{{if eq .RoleName "app-1"}}yes{{else}}no{{end}}')).toBe('yes');
    expect(r('{{if eq .RoleName "x"}}yes{{else}}no{{end}}')).toBe('no');
  });
  it('reads raw string literals', () => expect(r('{{ printf `%s!` .RoleName }}')).toBe('app-1!'));
  it('does not treat }} inside a string as the end of the action', () =>
    expect(r('{{ printf "}}%s" .RoleName }}')).toBe('}}app-1'));
  it('rejects an unknown function at parse time', () => expect(() => r('{{ nope .RoleName }}')).toThrow(/not defined/));
  it('rejects an unknown field', () => expect(() => r('{{ .Nope }}')).toThrow(TemplateError));
  it('rejects an unclosed action', () => expect(() => r('{{ .RoleName ')).toThrow(/unclosed/));
  it('rejects a missing end', () => expect(() => r('{{ if .RoleName }}x')).toThrow(/end/));
  it('rejects arguments given to a field', () => expect(() => r('{{ .RoleName 3 }}')).toThrow(TemplateError));
});

describe('custom functions', () => {
  it('random N gives N alphanumerics', () => expect(r('{{random 20}}')).toMatch(/^[A-Za-z0-9]{20}$/));
  it('truncate cuts to N characters', () => expect(r('{{ "abcdef" | truncate 4 }}')).toBe('abcd'));
  it('truncate leaves shorter values alone', () => expect(r('{{ "ab" | truncate 4 }}')).toBe('ab'));
  it('truncate_sha256 keeps N characters, the last 8 from the hash of the cut part', () => {
    const s = 'abcdefghijklmnopqrstuvwxyz';
    const out = r(`{{ "${s}" | truncate_sha256 12 }}`);
    expect(out).toHaveLength(12);
    expect(out).toBe(`abcd${createHash('sha256').update(s.slice(4)).digest('hex').slice(0, 8)}`);
  });
  it('truncate_sha256 needs N > 8', () => expect(() => r('{{ "abcdefghijkl" | truncate_sha256 8 }}')).toThrow(/> 8/));
  it('uppercase and lowercase', () => expect(r('{{ "aB" | uppercase }}{{ "aB" | lowercase }}')).toBe('ABab'));
  it('replace replaces every occurrence', () => expect(r('{{ "a-b-c" | replace "-" "." }}')).toBe('a.b.c'));
  it('sha256 is the hex digest', () =>
    expect(r('{{ "x" | sha256 }}')).toBe(createHash('sha256').update('x').digest('hex')));
  it('base64 encodes UTF-8', () => expect(r('{{ .Password | base64 }}')).toBe(Buffer.from('pä').toString('base64')));
  it('unix_time and unix_time_millis read the clock', () => {
    expect(r('{{unix_time}} {{unix_time_millis}}')).toBe(`${Math.floor(NOW / 1000)} ${NOW}`);
  });
  it('timestamp uses the Go reference layout', () => {
    expect(r('{{ timestamp "2006-01-02T15:04:05Z07:00" }}')).toBe('2024-01-02T15:04:05Z');
    expect(r('{{ timestamp "Jan _2 06 3:04PM .000" }}')).toBe('Jan  2 24 3:04PM .123');
  });
  it('uuid is a UUID', () =>
    expect(r('{{uuid}}')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/));
  it('utf16le then base64 encodes the UTF-16LE bytes (LDIF only)', () => {
    expect(r('{{ printf "%q" .Password | utf16le | base64 }}')).toBe(Buffer.from('"pä"', 'utf16le').toString('base64'));
  });
  it('utf16le is not defined in username templates', () =>
    expect(() => r('{{ .RoleName | utf16le }}', user)).toThrow(/not defined/));
  it('random rejects a non-integer', () => expect(() => r('{{ random "3" }}')).toThrow(/integer/));
});

describe('printf and time helpers', () => {
  it('formats Go verbs', () => {
    expect(goSprintf('%s|%d|%05d|%-4s|%x|%q|%%|%v', ['a', 7, 42, 'b', 'hi', 'q"', true])).toBe(
      'a|7|00042|b   |6869|"q\\""|%|true',
    );
  });
  it('reports missing and extra arguments like Go', () => {
    expect(goSprintf('%s %s', ['a'])).toBe('a %!s(MISSING)');
    expect(goSprintf('%s', ['a', 'b'])).toBe('a%!(EXTRA b)');
  });
  it('formats RFC 3339 without fractions', () => expect(rfc3339(NOW)).toBe('2024-01-02T15:04:05Z'));
  it('formats long month and weekday names', () =>
    expect(goTimeFormat('Monday January 2', NOW)).toBe('Tuesday January 2'));
});
