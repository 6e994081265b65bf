import { describe, expect, it } from 'vitest';
import { Redactor, REDACTED } from '../../harness/redact.js';

describe('redaction', () => {
  it('masks secret fields by name and remembers their values', () => {
    const r = new Redactor();
    const out = r.value({ data: { password: 'Sup3rSecret!', username: 'svc-app' } });
    expect(out.data.password).toBe(REDACTED);
    expect(out.data.username, 'non-secret fields stay').toBe('svc-app');
    expect(r.text('bind failed for Sup3rSecret!'), 'remembered value masked in free text').toBe(`bind failed for ${REDACTED}`);
  });

  it('keeps LIST key names but masks exported key material', () => {
    const r = new Redactor();
    expect(r.value({ data: { keys: ['a', 'b/'] } }).data.keys).toEqual(['a', 'b/']);
    expect(r.value({ data: { keys: { '1': 'c2VjcmV0LWtleS1tYXRlcmlhbA==' } } }).data.keys['1']).toBe(REDACTED);
  });

  it('masks token headers and bearer values', () => {
    const r = new Redactor();
    const h = r.headers({ 'X-Svc-Token': 'hvs.abcdef', Authorization: 'Bearer hvs.zzzzzz' });
    expect(h['X-Svc-Token']).toBe(REDACTED);
    expect(h.Authorization).toBe(REDACTED);
    expect(r.text('curl -H "Authorization: Bearer hvs.qqqqq"')).not.toContain('hvs.qqqqq');
  });

  it('masks client secrets nested in auth blocks and plaintexts', () => {
    const r = new Redactor();
    const out = r.value({ auth: { client_token: 'tok-123456' }, data: { client_secret: 'cs-7890', plaintext: 'aGVsbG8=' } });
    expect(JSON.stringify(out)).not.toMatch(/tok-123456|cs-7890|aGVsbG8=/);
  });
});
