/**
 * Version gating for the release suite. A gated test reproduces the documented trigger, then
 * hands what it saw to `gate`: a symptom on an affected version is a known issue (reported, not
 * failed); a symptom on any other version is a regression (fails); no symptom passes everywhere
 * (a vendor may have back-ported the fix).
 */
import semver from 'semver';
import type { T } from '../../harness/index.js';
import { CheckFailure } from '../../harness/checks/index.js';
import { TransportError } from '../../harness/index.js';
import type { Exchange } from '../../harness/index.js';

export function versionOf(t: T): string | undefined {
  return semver.coerce(t.config.svc.version)?.version;
}

/** Skips a change-table test on targets that predate the release introducing the change. */
export function requireAtLeast(t: T, min: string, what: string): void {
  const v = versionOf(t);
  if (!v)
    t.notApplicable(
      `${what} applies from ${min} and the target's version is ${t.config.svc.versionSource ?? 'unknown'}`,
      'svc.version (SVC_VERSION) or dialect.versionProbe',
    );
  if (semver.lt(v, min)) t.skip(`${what} applies from ${min}; the target is ${v}`, 'svc.version (SVC_VERSION)');
}

export function gate(t: T, id: string, symptom: string | undefined, correct: string): void {
  if (!symptom) {
    t.note(`${id}: correct behaviour observed (${correct}) on ${t.config.svc.version}`);
    return;
  }
  if (t.affected(id)) {
    t.knownIssue(`${id} on ${t.config.svc.version}: ${symptom}`);
    return;
  }
  throw new CheckFailure(
    'regression',
    `${id}: ${symptom} on ${t.config.svc.version}, which is outside the affected versions; expected ${correct}`,
    correct,
    symptom,
  );
}

/** One request whose transport failure (timeout, reset) is an observation, not a test error. */
export async function attempt(fn: () => Promise<Exchange>): Promise<{ ex?: Exchange; failure?: string }> {
  try {
    return { ex: await fn() };
  } catch (err) {
    if (err instanceof TransportError) return { failure: err.message };
    throw err;
  }
}

/** Short description of an answer for symptom messages. */
export function explain(r: { ex?: Exchange; failure?: string }): string {
  if (r.failure) return r.failure;
  const ex = r.ex!;
  const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
  return `${ex.request.method} ${ex.request.path} answered ${ex.response.status}${Array.isArray(errors) && errors.length ? ` (${errors.join('; ')})` : ''}`;
}

/** Runs `fn` over `items` with at most `size` at a time. */
export async function pool<I, R>(items: I[], size: number, fn: (item: I, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}
