/**
 * The verdicts of the robustness rules on one answer. Pure functions of the exchange, so they are
 * unit-tested without a target (tests/harness/robustness.test.ts).
 */
import type { Exchange } from '../http/exchange.js';
import { redactor } from '../redaction/redact.js';
import type { Verdict } from './runner.js';

function excerpt(ex: Exchange): string {
  const t = redactor.text(ex.response.text ?? '');
  return t.length > 200 ? `${t.slice(0, 200)}...` : t;
}

function transport(err: Error): Verdict {
  return { message: `no answer: ${redactor.text(err.message)}` };
}

/**
 * Invalid input: a 4xx with the error body. The secrets service's body is `{errors: [...]}`; the
 * scheduler's is not shown in its document, so any non-empty text or JSON counts as the message.
 */
export function judgeInvalid(api: 'svc' | 'sched', ex: Exchange | Error): Verdict {
  if (ex instanceof Error) return transport(ex);
  const { status } = ex.response;
  if (status < 400 || status >= 500)
    return { status, message: `expected a 4xx refusal, got ${status}: ${excerpt(ex)}`, exchange: ex };
  if (api === 'svc') {
    const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
    if (!Array.isArray(errors))
      return {
        status,
        message: `status ${status} without the error body {errors: [...]}: ${excerpt(ex)}`,
        exchange: ex,
      };
  } else if (!ex.response.text?.trim()) {
    return {
      status,
      message: `status ${status} with an empty body: the refusal carries no error message`,
      exchange: ex,
    };
  }
  return undefined;
}

/** Valid (or tolerated) input: no 5xx other than the ones the spec documents for the operation. */
export function judgeBoundary(documented5xx: ReadonlySet<number>, ex: Exchange | Error): Verdict {
  if (ex instanceof Error) return transport(ex);
  const { status } = ex.response;
  if (status >= 500 && !documented5xx.has(status))
    return { status, message: `a request inside the schema got ${status}: ${excerpt(ex)}`, exchange: ex };
  return undefined;
}

/**
 * Values that change on every read and say nothing about the resource: the secrets service's
 * request and lease ids, and the scheduler's query meta (its index moves with any work it does).
 */
const VOLATILE = new Set(['request_id', 'lease_id', 'Index', 'LastContact', 'KnownLeader']);

/** An ignore pointer of x-observed-by as a test: a `*` segment stands for any one key or index. */
function pointerMatcher(ignore: string[]): (pointer: string) => boolean {
  const exact = new Set(ignore.filter((p) => !p.split('/').includes('*')));
  const patterns = ignore
    .filter((p) => p.split('/').includes('*'))
    .map(
      (p) =>
        new RegExp(
          `^${p
            .split('/')
            .map((seg) => (seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/')}$`,
        ),
    );
  return (pointer) => exact.has(pointer) || patterns.some((re) => re.test(pointer));
}

/**
 * A read's status and body without volatile fields or the pointers the spec's x-observed-by ignores.
 * With `entries` (the keys of the entries the write concerns, resolved by `entryKeys`), only those
 * entries are kept, wherever the listing puts them (under `data`, repeated at the top level): an
 * entry that appears, changes or disappears still shows, other clients' entries never do.
 */
export function observed(ex: Exchange, ignore: string[], entries?: readonly string[]): string {
  const dropped = pointerMatcher(ignore);
  const walk = (v: unknown, at: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${at}/${i}`));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const p = `${at}/${k}`;
        if (dropped(p) || (at === '' && VOLATILE.has(k))) continue;
        out[k] = walk((v as Record<string, unknown>)[k], p);
      }
      return out;
    }
    return v;
  };
  const body = walk(ex.response.body, '');
  return JSON.stringify({ status: ex.response.status, body: entries ? only(body, new Set(entries)) : body });
}

/** The parts of an observed body that lead to one of `keys`; undefined where none does. */
function only(v: unknown, keys: ReadonlySet<string>): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (keys.has(k)) out[k] = x;
    else {
      const inner = only(x, keys);
      if (inner !== undefined) out[k] = inner;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The entry keys of an x-observed-by `entries` list for one write: `{name}` is the write's path
 * parameter of that name, or else the string property of that name of its (valid) body.
 */
export function entryKeys(
  templates: readonly string[],
  param: (name: string) => string | undefined,
  body: unknown,
): string[] {
  return templates.map((tpl) =>
    tpl.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const fromBody = (body as Record<string, unknown> | undefined)?.[name];
      const value = param(name) ?? (typeof fromBody === 'string' ? fromBody : undefined);
      if (value === undefined)
        throw new Error(`x-observed-by entry ${tpl}: {${name}} is neither a path parameter nor a body property`);
      return value;
    }),
  );
}

/** Where two observations first differ, for the failure message (values redacted). */
export function firstDifference(before: string, after: string): string {
  const a = JSON.parse(before) as unknown;
  const b = JSON.parse(after) as unknown;
  const find = (x: unknown, y: unknown, at: string): string | undefined => {
    if (JSON.stringify(x) === JSON.stringify(y)) return undefined;
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
        const d = find((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${at}/${k}`);
        if (d) return d;
      }
    }
    return `${at || '/'}: ${redactor.text(JSON.stringify(redactor.value(x)) ?? 'absent')} became ${redactor.text(JSON.stringify(redactor.value(y)) ?? 'absent')}`;
  };
  return find(a, b, '') ?? '';
}
