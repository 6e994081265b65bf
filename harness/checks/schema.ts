/**
 * The spec check every exchange goes through: find the operation for method and path, then
 * validate the body against the response schema of its status.
 */
import type { Exchange } from '../http/exchange.js';
import type { SpecRegistry } from '../spec/registry.js';
import { CheckFailure } from './failure.js';

export interface SpecCheckOptions {
  /** Map from a run's real mount path to the spec's default mount (`transit-ab12` → `transit`). */
  mountAliases: Map<string, string>;
  /** Namespace prefix to strip before matching. */
  namespace: string;
}

/** The spec path for an exchange path: namespace stripped, run-unique mounts mapped back. */
export function specPath(path: string, opts: SpecCheckOptions): string {
  let p = path.replace(/\/+$/, '') || '/';
  if (opts.namespace && p.startsWith(`/${opts.namespace}/`)) p = p.slice(opts.namespace.length + 1);
  let best = '';
  for (const actual of opts.mountAliases.keys()) {
    if ((p === `/${actual}` || p.startsWith(`/${actual}/`)) && actual.length > best.length) best = actual;
  }
  if (best) p = `/${opts.mountAliases.get(best)}${p.slice(best.length + 1)}`;
  return p;
}

function isErrorBody(body: unknown): boolean {
  return !!body && typeof body === 'object' && Array.isArray((body as { errors?: unknown }).errors) && (body as { errors: unknown[] }).errors.every((e) => typeof e === 'string');
}

/** Throws a CheckFailure when the exchange contradicts the spec. Returns the operation label. */
export function checkAgainstSpec(ex: Exchange, reg: SpecRegistry, opts: SpecCheckOptions): string | undefined {
  const path = ex.api === 'svc' ? specPath(ex.request.path, opts) : ex.request.path.replace(/\/+$/, '') || '/';
  const status = ex.response.status;
  const help = ex.api === 'svc' ? new URL(ex.request.url).searchParams.get('help') : null;
  if (help && help !== '0' && status === 200) {
    // Help is an answer every path gives, described once in x-generic-responses.
    const violations = reg.validateGeneric('help', status, ex.response.contentType, ex.response.body);
    if (violations === undefined) throw new CheckFailure('spec', `help for ${path} answered but the spec has no generic help response`, 'x-generic-responses.help', status);
    if (violations.length) throw new CheckFailure('spec', `help for ${path} violates the help schema at ${violations[0]!.pointer}: ${violations[0]!.message}`, violations[0]!.expected, violations[0]!.actual);
    return 'generic help';
  }
  const op = reg.find(ex.api, ex.request.method, path);
  if (!op) {
    // Unknown paths and methods are exercised on purpose; their error bodies still have a shape.
    if (status >= 400) {
      if (ex.api === 'svc' && !isErrorBody(ex.response.body)) {
        throw new CheckFailure('spec', `${ex.request.method} ${ex.request.path} answered ${status} without the error body`, { errors: ['<string>'] }, ex.response.body);
      }
      return undefined;
    }
    throw new CheckFailure('spec', `${ex.request.method} ${path} succeeded (${status}) but the spec documents no such operation`, 'a documented operation', `${ex.request.method} ${path}`);
  }
  const label = `${op.file} ${op.method} ${op.template}`;
  const violations = reg.validateResponse(op, status, ex.response.contentType, ex.response.body === '' ? undefined : ex.response.body);
  if (violations === undefined) {
    if (status >= 400 && (ex.api === 'sched' || isErrorBody(ex.response.body))) return label;
    throw new CheckFailure('spec', `${label}: status ${status} is not documented for this operation`, Object.keys(op.op.responses ?? {}), status);
  }
  if (violations.length) {
    const first = violations[0]!;
    const more = violations.length > 1 ? ` (+${violations.length - 1} more: ${violations.slice(1, 4).map((v) => `${v.pointer} ${v.message}`).join('; ')})` : '';
    throw new CheckFailure('spec', `${label} response ${status} violates the schema at ${first.pointer}: ${first.message}${more}`, first.expected, first.actual === undefined ? '(absent)' : first.actual);
  }
  return label;
}
