/**
 * Checks: small named functions `(exchange, ctx) => void` that throw a CheckFailure carrying
 * what was expected and what was found. Tests combine them with `t.check(exchange, ...checks)`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../http/exchange.js';
import { valueAt } from '../spec/registry.js';
import { CheckFailure } from './failure.js';
import { findingFailure } from './schema.js';

export { CheckFailure } from './failure.js';

export interface CheckContext {
  /** What the test is checking, prefixed to failure messages. */
  what?: string;
}

export type Check = ((ex: Exchange, ctx: CheckContext) => void) & { checkName?: string };

function named(name: string, fn: (ex: Exchange, ctx: CheckContext) => void): Check {
  const check = fn as Check;
  check.checkName = name;
  return check;
}

function where(ex: Exchange): string {
  return `${ex.request.method} ${ex.request.path}`;
}

/** The status is one of `codes`. */
export function statusIs(...codes: number[]): Check {
  return named('status', (ex) => {
    if (!codes.includes(ex.response.status)) {
      throw new CheckFailure(
        'status',
        `${where(ex)} answered ${ex.response.status}${errorHint(ex)}`,
        codes.length === 1 ? codes[0] : codes,
        ex.response.status,
      );
    }
  });
}

/** The status is in [lo, hi] (for example any 4xx where the document names no code). */
export function statusBetween(lo: number, hi: number): Check {
  return named('status-range', (ex) => {
    const s = ex.response.status;
    if (s < lo || s > hi)
      throw new CheckFailure('status-range', `${where(ex)} answered ${s}${errorHint(ex)}`, `${lo}-${hi}`, s);
  });
}

export const clientError: Check = statusBetween(400, 499);

/**
 * A refusal by policy: 403, or 404 from a target that hides paths a token may not see (Errors
 * table: 404 "Invalid path, or no permission to see a path (used to avoid leaking state)").
 */
export const denied: Check = statusIs(403, 404);

export const success: Check = named('success', (ex) => {
  const s = ex.response.status;
  if (s !== 200 && s !== 204)
    throw new CheckFailure('success', `${where(ex)} did not succeed${errorHint(ex)}`, '200 or 204', s);
});

function errorHint(ex: Exchange): string {
  const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
  if (Array.isArray(errors) && errors.length) return ` (errors: ${errors.slice(0, 3).join('; ')})`;
  if (typeof ex.response.body === 'string' && ex.response.body) return ` (body: ${ex.response.body.slice(0, 120)})`;
  return '';
}

/** The body is `{errors: [string, ...]}` (the error body of every status >= 400), as the spec describes it. */
export const errorsArray: Check = named('error-body', (ex) => {
  const body = ex.response.body as { errors?: unknown } | undefined;
  if (
    !body ||
    typeof body !== 'object' ||
    !Array.isArray(body.errors) ||
    body.errors.some((e) => typeof e !== 'string')
  ) {
    throw new CheckFailure(
      'error-body',
      `${where(ex)} error body is not {errors: [string]}`,
      { errors: ['<string>'] },
      ex.response.body,
    );
  }
  fieldFindings(ex, '/errors');
});

/** The error body has at least one message (not just an empty errors array). */
export const errorMessage: Check = named('error-message', (ex) => {
  errorsArray(ex, {});
  const errors = (ex.response.body as { errors: string[] }).errors;
  if (errors.length === 0)
    throw new CheckFailure('error-message', `${where(ex)} gave no error message`, 'at least one message', errors);
});

/**
 * The whole answer matches the spec for its operation and status. For tests whose purpose is the
 * shape (the envelope, the error body, a documented read's fields): other tests are not failed
 * by a schema finding, which is reported once under the operation's `schema.*` requirement.
 */
export const conformsToSpec: Check = named('spec', (ex) => {
  const failure = ex.spec && findingFailure(ex.spec);
  if (failure) throw failure;
});

/** The spec findings about the field a check reads (exactly that pointer): its shape is what it asserts. */
function fieldFindings(ex: Exchange, pointer: string): void {
  const mine = ex.spec?.findings.filter((f) => f.pointer === pointer) ?? [];
  if (mine.length && ex.spec) throw findingFailure({ ...ex.spec, findings: mine })!;
}

/** The value at JSON pointer `pointer` equals `expected` (deep) or satisfies the predicate. */
export function bodyAt(pointer: string, expected: unknown | ((v: unknown) => boolean), description?: string): Check {
  return named('body', (ex) => {
    const actual = valueAt(ex.response.body, pointer);
    const ok =
      typeof expected === 'function'
        ? (expected as (v: unknown) => boolean)(actual)
        : isDeepStrictEqual(actual, expected);
    if (!ok) {
      throw new CheckFailure(
        'body',
        `${where(ex)} ${pointer} ${description ?? 'has an unexpected value'}`,
        typeof expected === 'function' ? (description ?? 'a value satisfying the predicate') : expected,
        actual,
      );
    }
    fieldFindings(ex, pointer);
  });
}

/** The value at `pointer` is present (not undefined) and in the shape the spec gives it. */
export function hasField(pointer: string): Check {
  return named('field', (ex) => {
    if (valueAt(ex.response.body, pointer) === undefined)
      throw new CheckFailure('field', `${where(ex)} lacks ${pointer}`, 'present', undefined);
    fieldFindings(ex, pointer);
  });
}

/** The value at `pointer` is absent or empty (write-only secrets). */
export function lacksField(pointer: string): Check {
  return named('no-field', (ex) => {
    const v = valueAt(ex.response.body, pointer);
    if (v !== undefined && v !== null && v !== '')
      throw new CheckFailure(
        'no-field',
        `${where(ex)} returned ${pointer}, which must not be returned`,
        'absent',
        '[present]',
      );
  });
}

/** The response has a JSON content type. */
export const jsonContentType: Check = named('content-type', (ex) => {
  if (!/^application\/([a-z.+-]*\+)?json/i.test(ex.response.contentType)) {
    throw new CheckFailure(
      'content-type',
      `${where(ex)} Content-Type is not JSON`,
      'application/json',
      ex.response.contentType || '(none)',
    );
  }
});

/** The response has no body (204 style). */
export const emptyBody: Check = named('empty-body', (ex) => {
  if (ex.response.text.length > 0)
    throw new CheckFailure('empty-body', `${where(ex)} has a body`, '', ex.response.text.slice(0, 200));
});

/*
 * The check helpers' one argument order, whatever else they take first: what was seen, what was
 * expected, then the message (node:assert's order; tests/harness/check-helpers.test.ts keeps every
 * `expect*` helper to it).
 */

/** Plain assertion for values the test computed itself (local crypto, directory binds...). */
export function expectThat(ok: boolean, check: string, actual: unknown, expected: unknown, message: string): void {
  if (!ok) throw new CheckFailure(check, message, expected, actual);
}

/** The values are deeply and strictly equal. */
export function expectEqual(actual: unknown, expected: unknown, message: string): void {
  if (!isDeepStrictEqual(actual, expected)) throw new CheckFailure('equal', message, expected, actual);
}
