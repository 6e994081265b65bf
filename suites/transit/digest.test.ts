// size: one test per hash, random, HMAC and CMAC rule, each output recomputed locally with the same helpers
/** Hash, random, HMAC and CMAC outputs recomputed locally. */
import { createHash, createHmac } from 'node:crypto';
import { conformance, suite } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs } from '../../harness/checks/index.js';
import { b64, createKey, data, expectVersion, exported, rotate, unb64, versioned } from './lib/api.js';
import { cmacLocal, HASH } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const INPUT = Buffer.from('digest me \u00e9\u00e8', 'utf8');

/** A hex sum: the document says "hex", not which case, so the digits are compared in any case. */
function hexSum(expected: string, description: string) {
  return bodyAt(
    '/data/sum',
    (v: unknown) => typeof v === 'string' && v.toLowerCase() === expected,
    `${description} (${expected}, any case)`,
  );
}

conformance(
  {
    id: 'transit.hash.sum',
    level: 'MUST',
    also: ['transit.params.hash-default'],
    title: 'POST /transit/hash returns the hex SHA-256 of input by default and base64 with format base64',
  },
  async (t) => {
    const sha256 = createHash('sha256').update(INPUT).digest();
    const ex = await t.svc.post(`${transit.path}/hash`, { body: { input: INPUT.toString('base64') } });
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data/sum', (v: unknown) => typeof v === 'string', 'is the sum (a string)'),
    );
    // The default algorithm is its own rule: the SHA-256 digest in either encoding proves it.
    t.as('transit.params.hash-default').check(
      ex,
      bodyAt(
        '/data/sum',
        (v: unknown) =>
          typeof v === 'string' && (v.toLowerCase() === sha256.toString('hex') || v === sha256.toString('base64')),
        'is the SHA-256 digest of the input (the default algorithm)',
      ),
    );
    t.check(ex, hexSum(sha256.toString('hex'), 'is the hex SHA-256 of the input'));
    t.check(
      await t.svc.post(`${transit.path}/hash`, { body: { input: INPUT.toString('base64'), format: 'base64' } }),
      statusIs(200),
      bodyAt('/data/sum', createHash('sha256').update(INPUT).digest('base64'), 'is the base64 SHA-256 of the input'),
    );
  },
);

conformance(
  {
    id: 'transit.params.hash-in-url',
    level: 'MUST',
    also: ['transit.hash.sum'],
    title: 'POST /transit/hash/sha2-512 returns the sha2-512 digest (the algorithm in the URL is used)',
  },
  async (t) => {
    const expected = createHash('sha512').update(INPUT).digest('hex');
    const url = await t.svc.post(`${transit.path}/hash/sha2-512`, { body: { input: INPUT.toString('base64') } });
    t.check(url, statusIs(200));
    // The URL's algorithm is used: the answer is that of algorithm sha2-512 in the body, not the default's.
    const body = await t.svc.post(`${transit.path}/hash`, {
      body: { input: INPUT.toString('base64'), algorithm: 'sha2-512' },
    });
    const byDefault = await t.svc.post(`${transit.path}/hash`, { body: { input: INPUT.toString('base64') } });
    expectThat(
      data(url).sum === data(body).sum && data(url).sum !== data(byDefault).sum,
      'hash-url',
      data(url).sum,
      data(body).sum,
      'hash/sha2-512 answers what algorithm sha2-512 in the body answers, not the default digest',
    );
    // Which digest that is, in which encoding, is the hash rule's.
    t.as('transit.hash.sum').check(url, hexSum(expected, 'is the sha2-512 digest (URL)'));
  },
);

for (const alg of ['sha2-256', 'sha2-512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512']) {
  conformance(
    {
      id: 'transit.params.hash-algorithms',
      level: 'MUST',
      also: ['transit.params.hash-in-url', 'transit.hash.sum'],
      title: `POST /transit/hash/${alg} returns the ${alg} digest, as does algorithm ${alg} in the body`,
    },
    async (t) => {
      const expected = createHash(HASH[alg]!).update(INPUT).digest('hex');
      // The body form's acceptance proves the algorithm (the assumption); a digest answered for it
      // is the hash rule's (data.sum is the digest with the algorithm); the URL form is the
      // hash-in-url rule's.
      const body = await t.svc.post(`${transit.path}/hash`, {
        body: { input: INPUT.toString('base64'), algorithm: alg },
      });
      t.check(body, statusIs(200));
      t.as('transit.hash.sum').check(body, hexSum(expected, `is the ${alg} digest (body)`));
      t.as('transit.params.hash-in-url').check(
        await t.svc.post(`${transit.path}/hash/${alg}`, { body: { input: INPUT.toString('base64') } }),
        statusIs(200),
        hexSum(expected, `is the ${alg} digest (URL)`),
      );
    },
  );
}

// The full list of algorithms is "not shown"; sha1 appears in the material for signing (its path
// can be denied) but a hash endpoint without it is not excluded. Accepted or refused with 4xx; when
// accepted, the digest must be right.
conformance(
  {
    id: 'transit.params.hash-algorithms',
    level: 'MUST',
    also: ['transit.params.hash-in-url', 'transit.hash.sum'],
    title: 'POST /transit/hash/sha1 returns the SHA-1 digest or refuses the algorithm with 4xx',
  },
  async (t) => {
    const expected = createHash('sha1').update(INPUT).digest('hex');
    for (const [path, body] of [
      ['hash/sha1', {}],
      ['hash', { algorithm: 'sha1' }],
    ] as const) {
      const ex = await t.svc.post(`${transit.path}/${path}`, { body: { input: INPUT.toString('base64'), ...body } });
      if (ex.response.status >= 400 && ex.response.status < 500) continue;
      t.check(ex, statusIs(200));
      t.as('transit.hash.sum').check(ex, hexSum(expected, `is the sha1 digest (${path} ${JSON.stringify(body)})`));
    }
  },
);

conformance(
  {
    id: 'transit.random.bytes',
    level: 'MUST',
    also: ['transit.random.format'],
    title: 'POST /transit/random returns 32 random bytes in base64 by default',
  },
  async (t) => {
    const a = await t.svc.post(`${transit.path}/random`);
    t.check(a, statusIs(200));
    const value = String(data(a).random_bytes);
    // Base64 without format is the format rule's default ("default base64"); 32 bytes is this one's.
    t.proving('transit.random.format', () =>
      expectThat(
        /^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length === 44,
        'random-default-format',
        value,
        'base64',
        'random_bytes without format is base64 (of 32 bytes: 44 characters)',
      ),
    );
    expectThat(unb64(value).length === 32, 'random-default', unb64(value).length, 32, 'random_bytes holds 32 bytes');
    const b = String(data(await t.svc.post(`${transit.path}/random`)).random_bytes);
    expectThat(a !== undefined && b !== value, 'random-differs', b, 'different', 'two calls give different bytes');
  },
);

conformance(
  {
    id: 'transit.random.bytes',
    level: 'MUST',
    title: 'POST /transit/random/:bytes and bytes in the body return that many bytes',
  },
  async (t) => {
    // format base64 is named: the default format is the format rule's.
    for (const [path, body, n] of [
      ['random/17', { format: 'base64' }, 17],
      ['random', { bytes: 64, format: 'base64' }, 64],
      ['random/platform/5', { format: 'base64' }, 5],
    ] as const) {
      const ex = await t.svc.post(`${transit.path}/${path}`, { body });
      t.check(ex, statusIs(200));
      const len = unb64(data(ex).random_bytes).length;
      expectThat(len === n, 'random-count', len, n, `${path} ${JSON.stringify(body)} returns ${n} bytes`);
    }
  },
);

conformance(
  {
    id: 'transit.random.format',
    level: 'MUST',
    also: ['transit.random.bytes'],
    title: 'POST /transit/random with format hex returns hex of the requested length',
  },
  async (t) => {
    const ex = await t.svc.post(`${transit.path}/random`, { body: { bytes: 24, format: 'hex' } });
    t.check(ex, statusIs(200));
    const value = String(data(ex).random_bytes);
    // The document says "hex", not which case.
    expectThat(/^([0-9a-fA-F]{2})+$/.test(value), 'random-hex', value, 'hex digits', 'random_bytes is hex digits');
    t.proving('transit.random.bytes', () =>
      expectThat(value.length === 48, 'random-count', value.length, 48, 'the hex encodes the 24 bytes asked for'),
    );
  },
);

conformance(
  {
    id: 'transit.random.source',
    level: 'MUST',
    also: ['transit.random.bytes'],
    title: 'POST /transit/random/:source accepts platform and all, in the URL and in the body',
  },
  async (t) => {
    for (const [path, body] of [
      ['random/platform', {}],
      ['random/all', {}],
      ['random', { source: 'all' }],
      ['random/all/8', {}],
    ] as const) {
      const ex = await t.svc.post(`${transit.path}/${path}`, { body });
      t.check(ex, statusIs(200));
      const value = data(ex).random_bytes;
      expectThat(
        typeof value === 'string' && unb64(value).length > 0,
        'random-source',
        value,
        'bytes',
        `${path} ${JSON.stringify(body)} returns random bytes`,
      );
      // How many is the bytes rule's (default 32, or the count in the URL).
      t.proving('transit.random.bytes', () =>
        expectThat(
          unb64(value).length === (path.endsWith('/8') ? 8 : 32),
          'random-count',
          unb64(value).length,
          path.endsWith('/8') ? 8 : 32,
          `${path} ${JSON.stringify(body)} returns ${path.endsWith('/8') ? 8 : 32} bytes`,
        ),
      );
    }
  },
);

conformance(
  {
    id: 'transit.random.seal',
    level: 'MUST',
    also: ['transit.random.bytes'],
    requires: ['sealRandom'],
    title: 'POST /transit/random/seal returns random bytes',
  },
  async (t) => {
    const ex = await t.svc.post(`${transit.path}/random/seal`);
    t.check(ex, statusIs(200));
    const value = data(ex).random_bytes;
    expectThat(
      typeof value === 'string' && unb64(value).length > 0,
      'random-seal',
      value,
      'bytes',
      'the seal source returns random bytes',
    );
    t.proving('transit.random.bytes', () =>
      expectThat(
        unb64(value).length === 32,
        'random-count',
        unb64(value).length,
        32,
        'the seal source returns 32 bytes by default',
      ),
    );
  },
);

conformance(
  {
    id: 'transit.hmac.compute',
    level: 'MUST',
    also: ['transit.format.export-encoding', 'transit.params.hash-in-url', 'transit.params.key-version-latest'],
    title: 'POST /transit/hmac/:name(/:algorithm) equals the HMAC recomputed from the exported hmac-key, per version',
  },
  async (t) => {
    const name = await createKey(t, transit, 'hmac', { exportable: true });
    await rotate(t, transit, name);
    const keys = await exported(t, transit, 'hmac-key', name);
    // Which rule each case proves beyond the HMAC itself: the algorithm in the URL is the shared
    // parameter's ("also accepted in the URL"), the version named by key_version is key_version's.
    const cases: [string, Record<string, unknown>, number, string, string | undefined][] = [
      [`hmac/${name}`, {}, 2, 'sha2-256', undefined],
      [`hmac/${name}/sha2-512`, {}, 2, 'sha2-512', 'transit.params.hash-in-url'],
      [`hmac/${name}`, { algorithm: 'sha3-256' }, 2, 'sha3-256', undefined],
      [`hmac/${name}`, { key_version: 1 }, 1, 'sha2-256', 'transit.params.key-version-latest'],
    ];
    for (const [path, body, version, alg, rule] of cases) {
      const ex = await t.svc.post(`${transit.path}/${path}`, { body: { input: INPUT.toString('base64'), ...body } });
      t.check(ex, statusIs(200));
      const what = `hmac of ${path} ${JSON.stringify(body)}`;
      const mac = rule
        ? t.proving(rule, () => expectVersion(t, data(ex).hmac, version, what))
        : expectVersion(t, data(ex).hmac, version, what);
      const local = createHmac(HASH[alg]!, unb64(keys[String(version)]))
        .update(INPUT)
        .digest();
      const same = () =>
        expectThat(
          local.equals(mac.bytes),
          'hmac-recompute',
          mac.bytes.toString('base64'),
          local.toString('base64'),
          `${path} ${JSON.stringify(body)} equals HMAC-${alg} under the exported version ${version} key`,
        );
      if (rule === 'transit.params.hash-in-url') t.proving(rule, same);
      else same();
    }
    // The request's algorithm applies to every item of a batch as to the single input (HMAC
    // parameters: `algorithm`, `batch_input` (items with input)).
    const inputs = [Buffer.from('first item'), INPUT];
    const batch = await t.svc.post(`${transit.path}/hmac/${name}`, {
      body: { algorithm: 'sha2-512', batch_input: inputs.map((i) => ({ input: i.toString('base64') })) },
    });
    t.check(batch, statusIs(200));
    const results = (data(batch).batch_results ?? []) as { hmac?: unknown }[];
    expectThat(results.length === 2, 'batch-length', results.length, 2, 'the hmac batch answers one result per item');
    for (const [i, input] of inputs.entries()) {
      const mac = expectVersion(t, results[i]?.hmac, 2, `hmac batch item ${i}`);
      const local = createHmac('sha512', unb64(keys['2'])).update(input).digest();
      expectThat(
        local.equals(mac.bytes),
        'hmac-batch-algorithm',
        mac.bytes.toString('base64'),
        local.toString('base64'),
        `hmac batch item ${i} with algorithm sha2-512 equals HMAC-SHA512 under the exported version 2 key`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.hmac.compute',
    level: 'MUST',
    title: 'POST /transit/hmac/:name with an hmac key of key_size 64 equals the local HMAC with the exported key',
  },
  async (t) => {
    const name = await createKey(t, transit, 'hmac64', { type: 'hmac', key_size: 64, exportable: true });
    const key = unb64((await exported(t, transit, 'hmac-key', name))['1']);
    const ex = await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: INPUT.toString('base64') } });
    t.check(ex, statusIs(200));
    const mac = versioned(t, data(ex).hmac, 'hmac');
    const local = createHmac('sha256', key).update(INPUT).digest();
    expectThat(
      local.equals(mac.bytes),
      'hmac-recompute',
      mac.bytes.toString('base64'),
      local.toString('base64'),
      'the HMAC equals HMAC-SHA256 under the exported 64-byte key',
    );
  },
);

conformance(
  {
    id: 'transit.cmac.compute',
    level: 'MUST',
    also: ['transit.key.cmac-types'],
    requires: ['cmac'],
    title:
      'POST /transit/cmac/:name(/:url_mac_length) equals the AES-CMAC recomputed from the exported cmac-key, truncated to the length',
  },
  async (t) => {
    for (const type of ['aes128-cmac', 'aes256-cmac']) {
      const name = await createKey(t, transit, type, { type, exportable: true });
      const key = unb64((await exported(t, transit, 'cmac-key', name))['1']);
      const full = cmacLocal(key, INPUT);
      for (const [path, body, len] of [
        [`cmac/${name}`, {}, 16],
        [`cmac/${name}`, { mac_length: 8 }, 8],
        [`cmac/${name}/4`, { mac_length: 12 }, 4],
      ] as const) {
        const ex = await t.svc.post(`${transit.path}/${path}`, { body: { input: INPUT.toString('base64'), ...body } });
        t.check(ex, statusIs(200));
        const mac = versioned(t, data(ex).cmac, 'cmac');
        expectThat(
          mac.bytes.equals(full.subarray(0, len)),
          'cmac-recompute',
          mac.bytes.toString('hex'),
          full.subarray(0, len).toString('hex'),
          `${type} ${path} ${JSON.stringify(body)} is the first ${len} bytes of the local AES-CMAC`,
        );
      }
    }
  },
);

conformance(
  {
    id: 'transit.cmac.length-bound',
    level: 'MUST',
    requires: ['cmac'],
    title: 'POST /transit/cmac/:name with mac_length 17 or url_mac_length 32 returns 4xx',
  },
  async (t) => {
    const name = await createKey(t, transit, 'cmacbound', { type: 'aes256-cmac' });
    t.check(
      await t.svc.post(`${transit.path}/cmac/${name}`, { body: { input: b64('x'), mac_length: 17 } }),
      clientError,
    );
    t.check(await t.svc.post(`${transit.path}/cmac/${name}/32`, { body: { input: b64('x') } }), clientError);
    t.check(await t.svc.post(`${transit.path}/cmac/${name}/16`, { body: { input: b64('x') } }), statusIs(200));
  },
);
