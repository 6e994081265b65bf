/**
 * The transit and directory specs accept the answers the documents describe and real products
 * give where the documents leave a choice (batch 400 as the envelope with data.batch_results, a
 * borrower without an entity, durations read back as strings), and still reject what breaks an
 * explicit statement (so these cases can fail).
 */
import { describe, expect, it } from 'vitest';
import { specRegistry } from '../../harness/spec/registry.js';
import { checkAgainstSpec } from '../../harness/checks/schema.js';
import type { Exchange } from '../../harness/http/exchange.js';

const ex = (method: string, path: string, status: number, body: unknown): Exchange => ({
  api: 'svc',
  request: { method, url: `http://x/v1${path}`, path, headers: {} },
  response: {
    status,
    headers: { 'content-type': 'application/json' },
    body,
    text: JSON.stringify(body),
    contentType: 'application/json',
  },
  durationMs: 1,
});

const opts = { mountAliases: new Map<string, string>(), namespace: '' };
const envelope = (data: unknown) => ({
  request_id: '6f2d1c2e-0000-4000-8000-000000000001',
  lease_id: '',
  renewable: false,
  lease_duration: 0,
  data,
  wrap_info: null,
  warnings: null,
  auth: null,
});
const ITEMS = [
  { ciphertext: 'svc:v1:AAAA', reference: 'a' },
  { error: 'invalid ciphertext', reference: 'b' },
];

describe('transit and directory payloads', () => {
  it('accepts the batch 400 as the envelope with data.batch_results (no errors array), with errors, and the plain error body', async () => {
    const reg = await specRegistry();
    for (const op of ['encrypt', 'decrypt', 'rewrap', 'hmac', 'sign', 'verify']) {
      expect(
        checkAgainstSpec(ex('POST', `/transit/${op}/k`, 400, envelope({ batch_results: ITEMS })), reg, opts),
      ).toBeTruthy();
      expect(
        checkAgainstSpec(
          ex('POST', `/transit/${op}/k`, 400, {
            ...envelope({ batch_results: ITEMS }),
            errors: ['batch item 1 failed'],
          }),
          reg,
          opts,
        ),
      ).toBeTruthy();
      expect(
        checkAgainstSpec(ex('POST', `/transit/${op}/k`, 400, { errors: ['missing input'] }), reg, opts),
      ).toBeTruthy();
    }
  });

  it('rejects a batch 400 that is neither an error body nor batch results', async () => {
    const reg = await specRegistry();
    expect(() =>
      checkAgainstSpec(ex('POST', '/transit/encrypt/k', 400, envelope({ ciphertext: 'svc:v1:AAAA' })), reg, opts),
    ).toThrow();
  });

  it('accepts other batch operations answering 200 with item errors', async () => {
    const reg = await specRegistry();
    expect(
      checkAgainstSpec(
        ex(
          'POST',
          '/transit/hmac/k',
          200,
          envelope({ batch_results: [{ hmac: 'svc:v1:AAAA' }, { error: 'bad input' }] }),
        ),
        reg,
        opts,
      ),
    ).toBeTruthy();
  });

  it('accepts a library status without borrower_entity_id and requires the client token', async () => {
    const reg = await specRegistry();
    expect(
      checkAgainstSpec(
        ex(
          'GET',
          '/ldap/library/s/status',
          200,
          envelope({ a: { available: false, borrower_client_token: 'hmac-accessor' }, b: { available: true } }),
        ),
        reg,
        opts,
      ),
    ).toBeTruthy();
    expect(() =>
      checkAgainstSpec(ex('GET', '/ldap/library/s/status', 200, envelope({ a: { available: false } })), reg, opts),
    ).toThrow(/borrower_client_token/);
  });

  it('accepts library and dynamic role durations read back as seconds or duration strings', async () => {
    const reg = await specRegistry();
    for (const ttl of [3600, '1h0m0s']) {
      expect(
        checkAgainstSpec(
          ex(
            'GET',
            '/ldap/library/s',
            200,
            envelope({ service_account_names: ['a'], ttl, max_ttl: ttl, disable_check_in_enforcement: false }),
          ),
          reg,
          opts,
        ),
      ).toBeTruthy();
      expect(
        checkAgainstSpec(
          ex(
            'GET',
            '/ldap/role/r',
            200,
            envelope({ creation_ldif: 'x', deletion_ldif: 'y', default_ttl: ttl, max_ttl: ttl }),
          ),
          reg,
          opts,
        ),
      ).toBeTruthy();
    }
  });

  it('accepts a static role read whose dn is empty (the role was written with username only)', async () => {
    const reg = await specRegistry();
    expect(
      checkAgainstSpec(
        ex(
          'GET',
          '/ldap/static-role/r',
          200,
          envelope({
            dn: '',
            username: 'u',
            rotation_period: 3600,
            last_svc_rotation: '2026-11-23T16:07:09.123456789Z',
          }),
        ),
        reg,
        opts,
      ),
    ).toBeTruthy();
  });
});
