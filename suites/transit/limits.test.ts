/**
 * Limits and versioning of the transit paths (Limits: "Request size | 32 MB (tunable per
 * listener)"; Versioning 1: "Paths are under `/v1`."). The size is the target's
 * limits.maxRequestBytes (32 MB unless set), as the core suite reads it.
 */
import { createHash } from 'node:crypto';
import { conformance, suite } from '../../harness/index.js';
import { clientError, CheckFailure, expectThat, statusBetween, statusIs } from '../../harness/checks/index.js';
import { b64, data } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

conformance(
  {
    id: 'transit.limits.request-size',
    level: 'MUST',
    timeoutMs: 120_000,
    title: 'POST /transit/encrypt/:name with a body well under the request size is served and decrypts',
  },
  async (t) => {
    // A quarter of the limit (at most 4 MiB): base64 and the envelope keep the body under it.
    const size = Math.min(4 * 1024 * 1024, Math.floor(t.config.limits.maxRequestBytes / 4));
    const plaintext = Buffer.alloc(size, 0x5a);
    const name = t.unique('big');
    const enc = await t.svc.post(`${transit.path}/encrypt/${name}`, {
      body: { plaintext: b64(plaintext) },
      timeoutMs: 60_000,
    });
    t.check(enc, statusIs(200));
    const dec = await t.svc.post(`${transit.path}/decrypt/${name}`, {
      body: { ciphertext: data(enc).ciphertext },
      timeoutMs: 60_000,
    });
    t.check(dec, statusIs(200));
    const back = Buffer.from(String(data(dec).plaintext), 'base64');
    expectThat(
      digest(back) === digest(plaintext),
      'big-roundtrip',
      back.length,
      size,
      `the ${size}-byte plaintext comes back`,
    );
  },
);

conformance(
  {
    id: 'transit.limits.request-size',
    level: 'MUST',
    timeoutMs: 120_000,
    title: 'POST /transit/encrypt/:name with a body over the request size is refused and creates no key',
  },
  async (t) => {
    const limit = t.config.limits.maxRequestBytes;
    const name = t.unique('too-big');
    // A valid encrypt body one byte over the limit: only its size is wrong.
    const prefix = '{"plaintext":"';
    const suffix = '"}';
    const raw = Buffer.alloc(limit + 1, 'A');
    raw.write(prefix, 0);
    raw.write(suffix, raw.length - suffix.length);
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, {
      rawBody: raw,
      contentType: 'application/json',
      validate: false,
      timeoutMs: 60_000,
    });
    t.check(ex, statusBetween(400, 499));
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), clientError);
  },
);

conformance(
  {
    id: 'transit.versioning.v1-paths',
    level: 'MUST',
    title: 'POST /v2/transit/encrypt/:name (a version other than v1) is not served and creates no key; under /v1 it is',
  },
  async (t) => {
    const name = t.unique('v2');
    const headers: Record<string, string> = {
      [t.config.dialect.tokenHeader]: t.config.svc.token,
      [t.config.dialect.requestHeader]: 'true',
      'content-type': 'application/json',
    };
    if (t.config.svc.namespace) headers[t.config.dialect.namespaceHeader] = t.config.svc.namespace;
    const res = await fetch(`${t.config.svc.addr.replace(/\/+$/, '')}/v2/${transit.path}/encrypt/${name}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ plaintext: b64('x') }),
      signal: AbortSignal.timeout(t.config.timeouts.requestMs),
    });
    const text = await res.text();
    t.note(`POST /v2/${transit.path}/encrypt/:name answered ${res.status}`);
    if (res.status < 400)
      throw new CheckFailure(
        'status',
        'POST /v2/.../encrypt was served',
        '>= 400',
        `${res.status} ${text.slice(0, 80)}`,
      );
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), clientError);
    t.check(await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('x') } }), statusIs(200));
  },
);
