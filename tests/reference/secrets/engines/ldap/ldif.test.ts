import { describe, expect, it } from 'vitest';
import { decodeMaybeBase64, parseLdif } from '../../../../../reference/secrets/engines/ldap/ldif.js';
import { listLevel } from '../../../../../reference/secrets/engines/ldap/names.js';

describe('LDIF records', () => {
  it('reads an add record (the default changetype) with repeated attributes', () => {
    const [r] = parseLdif('dn: cn=a,dc=x\nobjectClass: top\nobjectClass: person\ncn: a\n');
    expect(r).toMatchObject({ dn: 'cn=a,dc=x', changetype: 'add' });
    const attrs = r!.changetype === 'add' ? r!.attributes : [];
    expect(attrs.find((a) => a.type === 'objectClass')!.values.map(String)).toEqual(['top', 'person']);
  });
  it('splits records on blank lines and keeps their order', () => {
    const recs = parseLdif('dn: cn=a,dc=x\nchangetype: delete\n\ndn: cn=b,dc=x\nchangetype: delete\n');
    expect(recs.map((r) => r.dn)).toEqual(['cn=a,dc=x', 'cn=b,dc=x']);
  });
  it('decodes base64 values (attr:: value) as bytes', () => {
    const [r] = parseLdif(`dn: cn=a,dc=x\nunicodePwd:: ${Buffer.from('"p"', 'utf16le').toString('base64')}\n`);
    const v = r!.changetype === 'add' ? r!.attributes[0]!.values[0]! : Buffer.alloc(0);
    expect(v.equals(Buffer.from('"p"', 'utf16le'))).toBe(true);
  });
  it('joins continuation lines and drops comments', () => {
    const [r] = parseLdif('# note\ndn: cn=a,\n dc=x\nchangetype: delete\n');
    expect(r!.dn).toBe('cn=a,dc=x');
  });
  it('reads modify groups separated by "-"', () => {
    const [r] = parseLdif('dn: cn=a,dc=x\nchangetype: modify\nreplace: sn\nsn: b\n-\nadd: mail\nmail: a@x\n-\n');
    expect(r!.changetype === 'modify' ? r!.changes.map((c) => `${c.operation}:${c.type}`) : []).toEqual([
      'replace:sn',
      'add:mail',
    ]);
  });
  it('rejects a record without dn and an unknown changetype', () => {
    expect(() => parseLdif('cn: a\n')).toThrow(/dn/);
    expect(() => parseLdif('dn: cn=a,dc=x\nchangetype: rename\n')).toThrow(/changetype/);
  });
});

describe('base64 LDIF input', () => {
  it('decodes base64 text', () =>
    expect(decodeMaybeBase64(Buffer.from('dn: cn=a,dc=x\n').toString('base64'))).toBe('dn: cn=a,dc=x\n'));
  it('leaves plain LDIF alone', () => expect(decodeMaybeBase64('dn: cn=a,dc=x\n')).toBe('dn: cn=a,dc=x\n'));
});

describe('hierarchical LIST levels', () => {
  it('shows nested names as "<level>/" and the names of a level', () => {
    const names = ['a', 'team/x', 'team/sub/y'];
    expect(listLevel(names, '')).toEqual(['a', 'team/']);
    expect(listLevel(names, 'team')).toEqual(['sub/', 'x']);
  });
});
