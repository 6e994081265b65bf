/**
 * The robustness generator without a target: invalid cases break the schema (and only one
 * property), boundary cases stay inside it, the same seed gives the same cases, and the judges
 * read answers as the rules say.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Operation } from '../../harness/spec/registry.js';
import type { Exchange } from '../../harness/http/exchange.js';
import { casesOf, fullBody, planOperation } from '../../harness/robustness/plan.js';
import { invalidMutations } from '../../harness/robustness/invalid.js';
import { boundaryMutations } from '../../harness/robustness/boundary.js';
import { entryKeys, firstDifference, judgeBoundary, judgeInvalid, observed } from '../../harness/robustness/judge.js';
import { ruleSeed } from '../../harness/robustness/runner.js';

const schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 8 },
    size: { type: 'integer', minimum: 1, maximum: 10 },
    mode: { type: 'string', enum: ['a', 'b'] },
    flag: { type: 'boolean', default: false },
    opts: { type: 'object', properties: { depth: { type: 'integer', minimum: 0 } } },
  },
};

const op = {
  api: 'svc',
  file: 'x.yaml',
  method: 'POST',
  template: '/things/{id}',
  operationId: 'writeThing',
  regex: /x/,
  weight: 1,
  op: {
    operationId: 'writeThing',
    'x-observed-by': 'readThing',
    requestBody: { content: { 'application/json': { schema } } },
    responses: {},
  },
} as unknown as Operation;

const validate = new Ajv2020({ strict: false }).compile(schema);
const base = { name: 'n', size: 3 };

function ex(status: number, body: unknown): Exchange {
  return {
    api: 'svc',
    request: { method: 'POST', url: '', path: '', headers: {} },
    response: { status, headers: {}, body, text: JSON.stringify(body), contentType: 'application/json' },
    durationMs: 1,
  };
}

describe('robustness generator', () => {
  const plan = planOperation(op);

  it('plans the three rules of a JSON write observed by a read', () => {
    expect(plan.rules).toEqual(['invalid-4xx', 'boundary-no-5xx', 'unchanged']);
    expect(plan.observer?.operationId).toBe('readThing');
  });

  it('every invalid case breaks the schema (or is malformed JSON)', () => {
    for (const { kind, arb } of casesOf(invalidMutations(plan, base, {}))) {
      for (const c of fc.sample(arb, { seed: 7, numRuns: 20 })) {
        if (kind === 'malformed-json') expect(() => JSON.parse(c.raw!), c.raw).toThrow();
        else expect(validate(c.body), `${kind} at ${c.target}: ${JSON.stringify(c.body)}`).toBe(false);
      }
    }
  });

  it('covers each kind of break the schema allows', () => {
    const kinds = casesOf(invalidMutations(plan, base, {}))
      .map((k) => k.kind)
      .sort();
    expect(kinds).toEqual([
      'bad-enum',
      'inherited-name',
      'malformed-json',
      'missing-required',
      'out-of-range',
      'oversized',
      'wrong-type',
    ]);
  });

  it('boundary cases with a body stay inside the schema', () => {
    for (const { kind, arb } of casesOf(boundaryMutations(plan, base, {}, { properties: true }))) {
      if (kind === 'unknown-name') continue;
      for (const c of fc.sample(arb, { seed: 7, numRuns: 20 }))
        expect(validate(c.body), `${kind} ${JSON.stringify(c.body)}`).toBe(true);
    }
  });

  it('sends names every JavaScript object inherits, which a lookup of the value in a plain object finds', () => {
    const values = (cases: ReturnType<typeof casesOf>) =>
      cases
        .filter((k) => k.kind === 'inherited-name')
        .flatMap((k) => fc.sample(k.arb, { seed: 7, numRuns: 30 }))
        .map((c) => `${c.target}=${JSON.stringify(c.body)}`);
    // Outside the enum: refused (invalid-4xx).
    const invalid = new Set(values(casesOf(invalidMutations(plan, base, {}))));
    expect(invalid).toContain('/mode={"name":"n","size":3,"mode":"toString"}');
    expect(invalid).toContain('/mode={"name":"n","size":3,"mode":"__proto__"}');
    // A free string: inside the schema, so no 5xx (boundary-no-5xx); only names within maxLength 8.
    const boundary = new Set(values(casesOf(boundaryMutations(plan, base, {}, { properties: true }))));
    expect(boundary).toContain('/name={"name":"toString","size":3}');
    expect([...boundary].some((v) => v.includes('constructor'))).toBe(false);
    expect([...boundary].some((v) => v.startsWith('/mode='))).toBe(false);
  });

  it('the same seed gives the same cases; another seed other ones', () => {
    const [first] = casesOf(invalidMutations(plan, base, {})).filter((k) => k.kind === 'wrong-type');
    const a = fc.sample(first!.arb, { seed: 42, numRuns: 10 });
    expect(fc.sample(first!.arb, { seed: 42, numRuns: 10 })).toEqual(a);
    expect(fc.sample(first!.arb, { seed: 43, numRuns: 10 })).not.toEqual(a);
    expect(ruleSeed(1, 'writeThing', 'invalid-4xx')).toBe(ruleSeed(1, 'writeThing', 'invalid-4xx'));
    expect(ruleSeed(1, 'writeThing', 'invalid-4xx')).not.toBe(ruleSeed(2, 'writeThing', 'invalid-4xx'));
  });

  it('the full body sets optional properties away from their defaults', () => {
    expect(fullBody(plan, base)).toEqual({ name: 'n', size: 3, mode: 'a', flag: true });
  });
});

describe('robustness judges', () => {
  it('invalid input: a 4xx with {errors} for the secrets service, any message for the scheduler', () => {
    expect(judgeInvalid('svc', ex(400, { errors: ['bad'] }))).toBeUndefined();
    expect(judgeInvalid('svc', ex(400, { message: 'bad' }))?.message).toMatch(/error body/);
    expect(judgeInvalid('svc', ex(500, { errors: ['boom'] }))?.status).toBe(500);
    expect(judgeInvalid('svc', ex(200, {}))?.status).toBe(200);
    expect(
      judgeInvalid('sched', { ...ex(400, ''), response: { ...ex(400, '').response, text: 'bad job' } }),
    ).toBeUndefined();
    expect(judgeInvalid('sched', { ...ex(400, ''), response: { ...ex(400, '').response, text: '' } })?.message).toMatch(
      /empty/,
    );
    expect(judgeInvalid('svc', new Error('no response within 10 ms'))?.message).toMatch(/no answer/);
  });

  it('boundary input: no 5xx unless the spec documents it', () => {
    expect(judgeBoundary(new Set(), ex(404, { errors: [] }))).toBeUndefined();
    expect(judgeBoundary(new Set(), ex(500, { errors: ['x'] }))?.status).toBe(500);
    expect(judgeBoundary(new Set([502]), ex(502, { errors: ['x'] }))).toBeUndefined();
  });

  it('observations leave out request ids and the ignored pointers', () => {
    const a = observed(ex(200, { request_id: '1', data: { now: 1, size: 3 } }), ['/data/now']);
    const b = observed(ex(200, { request_id: '2', data: { now: 2, size: 3 } }), ['/data/now']);
    expect(a).toBe(b);
    expect(observed(ex(200, { data: { size: 4 } }), [])).not.toBe(b);
  });

  describe('a listing compared at the entries the write names', () => {
    // sys/auth as a concurrent file changes it: its own mounts come and go.
    const listing = (entries: Record<string, unknown>) => ex(200, { request_id: 'r', ...entries, data: entries });
    const own = ['rb-sys-1/'];
    const mine = { type: 'userpass', description: '' };

    it("ignores other clients' entries appearing, changing and disappearing", () => {
      const before = observed(listing({ 'token/': { type: 'token' }, 'other-a/': { type: 'kv' } }), [], own);
      const after = observed(listing({ 'token/': { type: 'token' }, 'other-b/': { type: 'ldap' } }), [], own);
      expect(after).toBe(before);
      expect(observed(listing({ 'rb-sys-1/': mine, 'x/': {} }), [], own)).toBe(
        observed(listing({ 'rb-sys-1/': mine, 'y/': { type: 'kv' } }), [], own),
      );
    });

    it('still sees its own entry appear (a half-applied write), change or disappear', () => {
      const absent = observed(listing({ 'token/': { type: 'token' } }), [], own);
      const present = observed(listing({ 'token/': { type: 'token' }, 'rb-sys-1/': mine }), [], own);
      expect(present).not.toBe(absent);
      expect(firstDifference(absent, present)).toMatch(/^\/body: absent became/);
      const changed = observed(listing({ 'rb-sys-1/': { ...mine, description: 'half' } }), [], own);
      expect(firstDifference(present, changed)).toMatch(/rb-sys-1\/\/description/);
      expect(observed(ex(404, { errors: [] }), [], own)).not.toBe(absent);
    });

    it('resolves entry templates from path parameters, then the valid body', () => {
      const params: Record<string, string> = { path: 'rb-sys-1' };
      const param = (n: string) => params[n];
      expect(entryKeys(['{path}/'], param, { type: 'kv' })).toEqual(['rb-sys-1/']);
      expect(entryKeys(['{from}/', '{to}/'], param, { from: 'm-1', to: 'm-1-moved' })).toEqual(['m-1/', 'm-1-moved/']);
      expect(() => entryKeys(['{nope}/'], param, {})).toThrow(
        /\{nope\} is neither a path parameter nor a body property/,
      );
    });
  });
});
