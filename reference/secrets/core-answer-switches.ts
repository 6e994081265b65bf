/**
 * The core's wire-level switches about the documented fields and bodies on every kind of answer
 * (secrets-service-core.md, Response envelope, Endpoints > Conventions 2 and 3, Errors): an
 * envelope field left out of one kind of answer (a list, a write, a login), the status of a write
 * answered with a body, the help text, the body of an empty list, of a 404 and of a 400, the
 * Content-Type of errors. Each rewrites the answer in the
 * server's one response layer (wire.ts); core-wire-switches.ts applies this table after its own.
 */
import { switchesOf } from '../switches.js';
import { type Rewrite, type Wire, errorsOf } from './wire.js';

const { fault } = switchesOf<never, Wire>(['core']);

/** An envelope answer without `field` when `which` holds for it. */
const dropping =
  (field: string, which: (w: Wire, body: Record<string, unknown>) => boolean): Rewrite =>
  (w) => {
    if (w.kind !== 'envelope' || w.body === undefined) return w;
    const body = w.body as Record<string, unknown>;
    if (!which(w, body)) return w;
    const { [field]: _dropped, ...rest } = body;
    return { ...w, body: rest };
  };
const isWrite = (w: Wire) => w.method === 'POST' || w.method === 'PUT';
const isLogin = (body: Record<string, unknown>) => body.auth !== null && body.auth !== undefined;

export const coreAnswerSwitches = [
  // --- the envelope's fields on every kind of answer ---
  fault('core.request-id-missing-on-lists', {
    breaks: 'core.envelope.request-id-uuid',
    statements: ['doc.core.envelope.request-id'],
    description: 'The answer to a LIST carries no request_id (reads and writes do).',
    rewrite: dropping('request_id', (w) => w.method === 'LIST'),
  }),
  fault('core.request-id-missing-on-writes', {
    breaks: 'core.envelope.request-id-uuid',
    statements: ['doc.core.envelope.request-id'],
    description: 'The answer to a write that returns data (a version 2 kv write) carries no request_id.',
    rewrite: dropping('request_id', (w, body) => isWrite(w) && !isLogin(body)),
  }),
  fault('core.request-id-missing-on-logins', {
    breaks: 'core.envelope.request-id-uuid',
    statements: ['doc.core.envelope.request-id'],
    description: 'The answer to a login (an envelope carrying auth) has no request_id.',
    rewrite: dropping('request_id', (_w, body) => isLogin(body)),
  }),
  fault('core.lease-id-missing-on-writes', {
    breaks: 'core.envelope.lease-id-empty',
    statements: ['doc.core.envelope.lease-id-empty'],
    description: 'The answer to a write that returns data and creates no lease has no lease_id at all (instead of "").',
    rewrite: dropping('lease_id', (w, body) => isWrite(w) && !w.leased && !isLogin(body)),
  }),
  fault('core.lease-duration-missing-on-lists', {
    breaks: 'core.envelope.lease-duration-zero',
    statements: ['doc.core.envelope.lease-duration-zero'],
    description: 'The answer to a LIST has no lease_duration at all (instead of 0).',
    rewrite: dropping('lease_duration', (w) => w.method === 'LIST'),
  }),
  // --- success statuses and help ---
  fault('core.write-with-body-201', {
    breaks: 'core.success.200-or-204',
    statements: ['doc.core.conventions.success-statuses', 'doc.core.errors.status-200'],
    description: 'A write whose answer carries a body (a version 2 kv write, a login) answers 201 Created, not 200.',
    rewrite: (w) =>
      w.kind === 'envelope' && w.status === 200 && w.body !== undefined && isWrite(w) ? { ...w, status: 201 } : w,
  }),
  fault('core.help-text-missing', {
    breaks: 'core.help.help-and-openapi',
    statements: ['doc.core.conventions.help-fields'],
    description: 'A help answer (?help=1) carries the openapi document but no help text.',
    rewrite: (w) => {
      if (w.kind !== 'help' || !w.body || typeof w.body !== 'object') return w;
      const { help: _dropped, ...rest } = w.body as Record<string, unknown>;
      return { ...w, body: rest };
    },
  }),
  // --- bodies and headers of refusals ---
  fault('core.empty-list-errors-message', {
    breaks: 'core.list.empty-404',
    statements: ['doc.core.conventions.list-empty-body'],
    description:
      'A LIST with no results answers 404 with a message in errors ({errors: ["no entries found"]}), not {errors: []}.',
    rewrite: (w) => (w.kind === 'list-empty' ? { ...w, body: { errors: ['no entries found'] } } : w),
  }),
  fault('core.content-type-missing-on-errors', {
    breaks: 'core.content-type.set-on-responses',
    statements: ['doc.core.conventions.content-type-set'],
    description: 'Error answers (status >= 400, their JSON errors body included) carry an empty Content-Type.',
    rewrite: (w) =>
      (w.kind === 'error' || w.kind === 'list-empty') && w.body !== undefined
        ? { ...w, headers: { ...w.headers, 'Content-Type': '' } }
        : w,
  }),
  fault('core.not-found-without-body', {
    breaks: 'core.errors.body-errors-array',
    statements: ['doc.core.errors.body', 'doc.core.errors.body-status'],
    description:
      'A 404 without a message (a read of a key holding nothing) answers with an empty body, no errors array.',
    rewrite: (w) => {
      const errors = errorsOf(w);
      return w.kind === 'error' && w.status === 404 && Array.isArray(errors) && errors.length === 0
        ? { ...w, body: undefined }
        : w;
    },
  }),
  fault('core.errors-as-objects-on-400', {
    breaks: 'core.errors.body-errors-array',
    statements: ['doc.core.errors.body'],
    description: 'A 400 answers errors as objects ({errors: [{message: "..."}]}) instead of strings.',
    rewrite: (w) => {
      const errors = errorsOf(w);
      return w.kind === 'error' && w.status === 400 && Array.isArray(errors)
        ? { ...w, body: { errors: errors.map((message) => ({ message })) } }
        : w;
    },
  }),
];
