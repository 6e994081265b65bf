import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Redactor, REDACTED } from '../../harness/redaction/redact.js';

describe('redaction', () => {
  it('masks secret fields by name and remembers their values', () => {
    const r = new Redactor();
    const out = r.value({ data: { password: 'Sup3rSecret!', username: 'svc-app' } });
    expect(out.data.password).toBe(REDACTED);
    expect(out.data.username, 'non-secret fields stay').toBe('svc-app');
    expect(r.text('bind failed for Sup3rSecret!'), 'remembered value masked in free text').toBe(
      `bind failed for ${REDACTED}`,
    );
  });

  it('keeps LIST key names but masks exported key material', () => {
    const r = new Redactor();
    expect(r.value({ data: { keys: ['a', 'b/'] } }).data.keys).toEqual(['a', 'b/']);
    expect(r.value({ data: { keys: { '1': 'c2VjcmV0LWtleS1tYXRlcmlhbA==' } } }).data.keys['1']).toBe(REDACTED);
  });

  it('keeps the versions of a key read (public part, creation time) and does not remember them', () => {
    const r = new Redactor();
    const when = '2026-11-24T04:40:00.123456789Z';
    const read = { data: { keys: { '1': { public_key: 'MCowBQYDK2VwAyEA', creation_time: when, name: 'ed25519' } } } };
    expect(r.value(read).data.keys['1']).toEqual(read.data.keys['1']);
    expect(
      r.value({ data: { keys: { '2': { private_key: 'LS0tLS1CRUdJTiBQUklW' } } } }).data.keys['2'].private_key,
    ).toBe(REDACTED);
    expect(r.text(`created at ${when}`), 'a timestamp is not a secret').toBe(`created at ${when}`);
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
    const out = r.value({
      auth: { client_token: 'tok-123456' },
      data: { client_secret: 'cs-7890', plaintext: 'aGVsbG8=' },
    });
    expect(JSON.stringify(out)).not.toMatch(/tok-123456|cs-7890|aGVsbG8=/);
  });
});

describe('redaction masks whole values only', () => {
  const quiet = () => {};

  it('a short token (SVC_TOKEN=root) never changes requirement ids, titles or catalogue text', () => {
    const r = new Redactor(quiet);
    r.add('root', 'svc.token (SVC_TOKEN)');
    for (const text of [
      'ldap.rotate-root.rotates-bind-password',
      'auth.write-only.root-password',
      'POST /ldap/rotate-root rotates the bind password',
      'cf-ab12-root-token-3',
      'suites/ldap/rotate-root.test.ts',
      'rootless',
      'the chroot path',
    ])
      expect(r.text(text), text).toBe(text);
  });

  it('masks the secret where it stands as a whole value: JSON values, headers, words in free text', () => {
    const r = new Redactor(quiet);
    r.add('root', 'svc.token (SVC_TOKEN)');
    expect(r.value({ data: { note: 'root', other: 'x' } }).data.note, 'a JSON string equal to the secret').toBe(
      REDACTED,
    );
    expect(r.headers({ 'X-Custom': 'root' })['X-Custom'], 'a header value').toBe(REDACTED);
    expect(r.text('token root was refused'), 'a word in prose').toBe(`token ${REDACTED} was refused`);
    expect(r.text('http://127.0.0.1:8200/v1/auth/token/lookup?token=root'), 'a query value').toBe(
      `http://127.0.0.1:8200/v1/auth/token/lookup?token=${REDACTED}`,
    );
    expect(r.text('"root"'), 'a quoted value').toBe(`"${REDACTED}"`);
    expect(r.text('root'), 'the whole text').toBe(REDACTED);
    expect(r.text('failed: root.'), 'at the end of a sentence').toBe(`failed: ${REDACTED}.`);
  });

  it('long generated secrets are still masked wherever they stand alone', () => {
    const r = new Redactor(quiet);
    r.value({ data: { password: 'Zq8-kL2!pW9x' } });
    expect(r.text('bind as cn=app with Zq8-kL2!pW9x failed')).toBe(`bind as cn=app with ${REDACTED} failed`);
    expect(r.text('{"errors":["bad password Zq8-kL2!pW9x"]}')).not.toContain('Zq8-kL2!pW9x');
  });

  it('warns once, on a labelled (configured) secret shorter than 8 characters, without printing it', () => {
    const warnings: string[] = [];
    const r = new Redactor((m) => warnings.push(m));
    r.add('s3cr', 'svc.token (SVC_TOKEN)');
    r.add('abcd', 'sched.token (SCHED_TOKEN)');
    r.add('a-much-longer-token-value', 'svc.token (SVC_TOKEN)');
    expect(warnings.length, 'one warning').toBe(1);
    expect(warnings[0]).toContain('svc.token (SVC_TOKEN)');
    expect(warnings[0]).toContain('shorter than 8');
    expect(warnings[0], 'the value itself is never printed').not.toContain('s3cr');
  });

  it('short values the target hands out (no label) are masked without a warning', () => {
    const warnings: string[] = [];
    const r = new Redactor((m) => warnings.push(m));
    expect(r.value({ data: { nonce: 'abcd' } }).data.nonce).toBe(REDACTED);
    expect(warnings).toEqual([]);
  });
});

/**
 * The masking before secrets were indexed (harness/redaction/redact.ts compares a text only with the secrets
 * occurring in it): every remembered value, longest first, then the bearer safety net.
 */
function maskedAsBefore(values: string[], input: string): string {
  const WORD = /[A-Za-z0-9_]/;
  const JOIN = /[-.]/;
  const alone = (text: string, start: number, end: number) => {
    const before = text[start - 1];
    const after = text[end];
    if (before !== undefined && (WORD.test(before) || (JOIN.test(before) && WORD.test(text[start - 2] ?? ''))))
      return false;
    return !(after !== undefined && (WORD.test(after) || (JOIN.test(after) && WORD.test(text[end + 1] ?? ''))));
  };
  if (values.includes(input)) return REDACTED;
  let out = input;
  for (const v of [...values].sort((a, b) => b.length - a.length)) {
    if (!out.includes(v)) continue;
    let next = '';
    let from = 0;
    for (let at = out.indexOf(v); at !== -1; at = out.indexOf(v, at + v.length)) {
      if (!alone(out, at, at + v.length)) continue;
      next += out.slice(from, at) + REDACTED;
      from = at + v.length;
    }
    out = from === 0 ? out : next + out.slice(from);
  }
  return out.replace(/(Bearer\s+)[^\s"'\\,}<>]{8,}/gi, `$1${REDACTED}`);
}

describe('indexed secrets mask exactly as comparing every secret did', () => {
  // Few characters, so secrets overlap, nest, repeat and touch joiners, brackets and the mask itself.
  // 'š' (U+0161) shares its low byte with 'a': the first-pair filter must let both through.
  const piece = fc.constantFrom(
    'ab',
    'a',
    'b',
    'AB',
    '1',
    '-',
    '.',
    '_',
    ' ',
    '[',
    ']',
    'RED',
    'ACTED',
    'Bearer ',
    'š',
  );
  const text = fc.array(piece, { maxLength: 24 }).map((p) => p.join(''));
  const secret = fc
    .array(piece, { minLength: 1, maxLength: 6 })
    .map((p) => p.join(''))
    .filter((s) => s.length >= 4);

  it('for random secrets and texts, with few and with many secrets remembered', () => {
    fc.assert(
      fc.property(
        fc.array(secret, { minLength: 1, maxLength: 40 }),
        fc.array(text, { maxLength: 20 }),
        (secrets, texts) => {
          const r = new Redactor(() => {});
          const remembered: string[] = [];
          for (const s of secrets) {
            r.add(s);
            for (const v of [s, Buffer.from(s).toString('base64')])
              if (v.length >= (v === s ? 4 : 8) && !remembered.includes(v)) remembered.push(v);
          }
          // Texts made of the secrets too, so most of them hold one or several.
          const inputs = [
            ...texts,
            ...texts.map((t, i) => `${t}${secrets[i % secrets.length]}${t}`),
            secrets.join(' '),
          ];
          for (const input of inputs) expect(r.text(input), input).toBe(maskedAsBefore(remembered, input));
        },
      ),
      { seed: 1328, numRuns: 400 },
    );
  });

  /** A redactor that remembered `secrets`, and the values it holds in the order it took them. */
  function remembering(secrets: string[]): { r: Redactor; values: string[] } {
    const r = new Redactor(() => {});
    const values: string[] = [];
    for (const s of secrets) {
      r.add(s);
      for (const v of [s, Buffer.from(s).toString('base64')])
        if (v.length >= (v === s ? 4 : 8) && !values.includes(v)) values.push(v);
    }
    return { r, values };
  }
  const filler = Array.from({ length: 30 }, (_, i) => `filler-secret-${i}`);

  for (const [label, others] of [
    ['few secrets', []],
    ['many secrets', filler],
  ] as const) {
    it(`a secret that appears only across an inserted mask is still compared (${label})`, () => {
      const { r, values } = remembering([...others, 'REDACTED', 'abcdefghij', 'D] x']);
      for (const input of ['abcdefghij x', 'x abcdefghij', 'REDACTED abcdefghij'])
        expect(r.text(input), input).toBe(maskedAsBefore(values, input));
      expect(r.text('abcdefghij x')).toBe(`[${REDACTED}] x`);
    });

    it(`of two overlapping secrets of one length, the one remembered first is masked (${label})`, () => {
      const { r, values } = remembering([...others, 'c de', 'ab c']);
      expect(r.text('ab c de')).toBe(maskedAsBefore(values, 'ab c de'));
      expect(r.text('ab c de')).toBe(`ab ${REDACTED}`);
    });
  }
});

describe('remember() remembers what value() would mask by field, and masks nothing', () => {
  const name = fc.constantFrom('password', 'token', 'keys', 'key_material', 'data', 'name', 'list', 'secret_id', '1');
  const leaf = fc.oneof(fc.string({ minLength: 0, maxLength: 12 }), fc.integer(), fc.constant(null), fc.boolean());
  const body = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(name, tie('node'), { maxKeys: 4 }),
    ),
  })).node;

  /** Every string in a value, at any depth. */
  const strings = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : Array.isArray(v)
        ? v.flatMap(strings)
        : v && typeof v === 'object'
          ? Object.values(v).flatMap(strings)
          : [];

  it('for random answers: the same texts are masked afterwards', () => {
    fc.assert(
      fc.property(body, (answer) => {
        const byValue = new Redactor(() => {});
        const byRemember = new Redactor(() => {});
        byValue.value(answer);
        byRemember.remember(answer);
        for (const s of strings(answer)) expect(byRemember.text(`x ${s} y`), s).toBe(byValue.text(`x ${s} y`));
      }),
      { seed: 2611, numRuns: 300 },
    );
  });

  it('remembers a password, exported key material and not a key read’s public part', () => {
    const r = new Redactor(() => {});
    r.remember({
      data: {
        password: 'Sup3rSecret!',
        keys: { '1': 'c2VjcmV0LWtleQ==', '2': { public_key: 'PUBLIC-PART', creation_time: '2026-01-01' } },
      },
    });
    expect(r.text('Sup3rSecret! c2VjcmV0LWtleQ== PUBLIC-PART 2026-01-01')).toBe(
      `${REDACTED} ${REDACTED} PUBLIC-PART 2026-01-01`,
    );
  });
});
