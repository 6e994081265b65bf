/**
 * The spec check every exchange goes through: find the operation for method and path, then
 * validate the body against the response schema of its status. What it finds is an observation
 * of the operation's schema requirement (`schema.<operationId>`), reported once per operation and
 * status; it does not fail the behavioural test that sent the request (see conformsToSpec and the
 * field checks, which consult the findings of the fields they assert).
 */
import type { Exchange } from '../http/exchange.js';
import type { SpecRegistry } from '../spec/registry.js';
import type { SpecFinding, SpecObservation } from '../spec/findings.js';
import { SCHEMA_HELP_ID, SCHEMA_UNMATCHED_ID, schemaId } from '../spec/schema-requirements.js';
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
  return (
    !!body &&
    typeof body === 'object' &&
    Array.isArray((body as { errors?: unknown }).errors) &&
    (body as { errors: unknown[] }).errors.every((e) => typeof e === 'string')
  );
}

export interface SpecResult {
  /** The operation label (`file METHOD template`), 'generic help', or undefined when none matched. */
  operation?: string;
  /** The schema requirement this exchange is evidence for; absent when the spec says nothing. */
  observation?: SpecObservation;
}

/** What the spec says about one exchange: the operation it belongs to and any findings. */
export function observeAgainstSpec(ex: Exchange, reg: SpecRegistry, opts: SpecCheckOptions): SpecResult {
  const path = ex.api === 'svc' ? specPath(ex.request.path, opts) : ex.request.path.replace(/\/+$/, '') || '/';
  const status = ex.response.status;
  const help = ex.api === 'svc' ? new URL(ex.request.url).searchParams.get('help') : null;
  if (help && help !== '0' && status === 200) {
    // Help is an answer every path gives, described once in x-generic-responses.
    const violations = reg.validateGeneric('help', status, ex.response.contentType, ex.response.body);
    const findings: SpecFinding[] =
      violations === undefined
        ? [
            {
              pointer: '',
              message: `help for ${path} answered but the spec has no generic help response`,
              expected: 'x-generic-responses.help',
              actual: status,
            },
          ]
        : violations;
    return {
      operation: 'generic help',
      observation: { id: SCHEMA_HELP_ID, operation: 'the generic help schema', status, findings },
    };
  }
  const op = reg.find(ex.api, ex.request.method, path);
  if (!op) {
    // Unknown paths and methods are exercised on purpose; their error bodies still have a shape.
    const unmatched = `${ex.request.method} ${path}`;
    if (status >= 400) {
      if (ex.api === 'svc' && !isErrorBody(ex.response.body)) {
        return {
          observation: {
            id: SCHEMA_UNMATCHED_ID,
            operation: 'undocumented paths',
            status,
            findings: [
              {
                pointer: '',
                message: `${unmatched} answered ${status} without the error body`,
                expected: { errors: ['<string>'] },
                actual: ex.response.body,
              },
            ],
          },
        };
      }
      return {};
    }
    return {
      observation: {
        id: SCHEMA_UNMATCHED_ID,
        operation: 'undocumented paths',
        status,
        findings: [
          {
            pointer: '',
            message: `${unmatched} succeeded (${status}) but the spec documents no such operation`,
            expected: 'a documented operation',
            actual: unmatched,
          },
        ],
      },
    };
  }
  const label = `${op.file} ${op.method} ${op.template}`;
  const id = schemaId(op);
  const violations = reg.validateResponse(
    op,
    status,
    ex.response.contentType,
    ex.response.body === '' ? undefined : ex.response.body,
  );
  if (violations === undefined) {
    // An error answer with the error body on a status the operation does not list is the
    // documents' generic error convention, not a finding.
    if (status >= 400 && (ex.api === 'sched' || isErrorBody(ex.response.body))) return { operation: label };
    return {
      operation: label,
      observation: {
        id,
        operation: label,
        status,
        findings: [
          {
            pointer: '',
            message: `status ${status} is not documented for this operation`,
            expected: Object.keys(op.op.responses ?? {}),
            actual: status,
          },
        ],
      },
    };
  }
  return { operation: label, observation: { id, operation: label, status, findings: violations } };
}

/** The first finding as a CheckFailure, naming the operation, pointer, expected and actual. */
export function findingFailure(obs: SpecObservation): CheckFailure | undefined {
  const first = obs.findings[0];
  if (!first) return undefined;
  const more =
    obs.findings.length > 1
      ? ` (+${obs.findings.length - 1} more: ${obs.findings
          .slice(1, 4)
          .map((v) => `${v.pointer} ${v.message}`)
          .join('; ')})`
      : '';
  const where = first.pointer ? `violates the schema at ${first.pointer}: ` : '';
  return new CheckFailure(
    'spec',
    `${obs.operation} response ${obs.status} ${where}${first.message}${more} [${obs.id}]`,
    first.expected,
    first.actual === undefined ? '(absent)' : first.actual,
  );
}

/** Throws a CheckFailure when the exchange contradicts the spec. Returns the operation label. */
export function checkAgainstSpec(ex: Exchange, reg: SpecRegistry, opts: SpecCheckOptions): string | undefined {
  const result = observeAgainstSpec(ex, reg, opts);
  const failure = result.observation && findingFailure(result.observation);
  if (failure) throw failure;
  return result.operation;
}
