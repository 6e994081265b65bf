/**
 * Every wire-level switch of the secrets core, declared once where it takes effect: each rewrites
 * the answer in the server's one response layer (wire.ts): envelope fields, status codes, content
 * type, error body, headers (see reference/switches.ts). Legal variants first, then faults.
 */
import { randomUUID } from 'node:crypto';
import type { Faults } from '../faults.js';
import { rewritesWith, switchesOf } from '../switches.js';
import type { Variants } from '../variants.js';
import { coreAnswerSwitches } from './core-answer-switches.js';
import { PermissionDenied } from './errors.js';
import { type Rewrite, type Wire, errorsOf } from './wire.js';

const { fault, variant } = switchesOf<never, Wire>(['core']);
const CORE = 'secrets-service-core.md';

/** The envelope of an answer, when the answer is one the core built. */
const envelopeOf = (w: Wire): Record<string, unknown> | undefined =>
  w.kind === 'envelope' && w.body !== undefined ? (w.body as Record<string, unknown>) : undefined;
const withEnvelope =
  (change: (body: Record<string, unknown>, w: Wire) => void): Rewrite =>
  (w) => {
    const body = envelopeOf(w);
    if (!body) return w;
    const out = { ...body };
    change(out, w);
    return { ...w, body: out };
  };
const unleased = (change: (body: Record<string, unknown>) => void) =>
  withEnvelope((body, w) => {
    if (!w.leased) change(body);
  });
const leased = (change: (body: Record<string, unknown>) => void) =>
  withEnvelope((body, w) => {
    if (w.leased) change(body);
  });
/** The one request_id of a fault that never renews it. */
const STUCK_REQUEST_ID = randomUUID();
const errorStatus =
  (from: number, to: number): Rewrite =>
  (w) =>
    w.kind === 'error' && w.status === from ? { ...w, status: to } : w;
/** Operations' answers (envelopes and raw bodies) that carry a body. */
const answered = (w: Wire) => (w.kind === 'envelope' || w.kind === 'raw') && w.body !== undefined;

export const coreWireSwitches = [
  // --- legal variants ---
  variant('core.forbidden-as-404', {
    allows: `${CORE}, Errors: 404 "Invalid path, or no permission to see a path (used to avoid leaking state)"`,
    description:
      "A path the token's policies do not grant answers 404 (not 403), so the path's existence does not leak.",
    suites: ['core', 'kv', 'auth'],
    rewrite: (w) => (w.kind === 'error' && w.error instanceof PermissionDenied ? { ...w, status: 404 } : w),
  }),
  // Before the envelope variants, so the warning envelope is shaped like every other.
  variant('core.no-content-as-200-with-warnings', {
    allows: `${CORE}, Endpoints > Conventions 9: "an operation documented as 204 can return 200 when warnings arise"`,
    description: 'Operations without a payload answer 200 with an envelope carrying a warning instead of 204.',
    suites: ['core', 'kv', 'auth'],
    rewrite: (w) =>
      w.kind === 'envelope' && w.status === 204 && w.body === undefined
        ? {
            ...w,
            status: 200,
            body: {
              request_id: randomUUID(),
              lease_id: '',
              renewable: false,
              lease_duration: 0,
              data: null,
              wrap_info: null,
              warnings: [
                'the operation succeeded; this reference variant answers 200 with a warning where 204 is documented',
              ],
              auth: null,
            },
          }
        : w,
  }),
  variant('core.envelope-extra-fields', {
    allows: `${CORE}, Response envelope: "Top-level fields that appear" (the list does not close the object)`,
    description:
      'The envelope carries top-level fields the documents do not list (mount_type, mount_running_plugin_version, headers).',
    suites: ['core', 'kv', 'auth'],
    rewrite: withEnvelope((body) => {
      body.mount_type ??= '';
      body.mount_running_plugin_version = '';
      body.headers = null;
    }),
  }),
  variant('core.warnings-empty-array', {
    allows: `${CORE}, Response envelope: warnings "array or null"`,
    description: 'An answer without warnings carries warnings: [] instead of null.',
    suites: ['core', 'kv'],
    rewrite: withEnvelope((body) => {
      if (body.warnings === null) body.warnings = [];
    }),
  }),
  variant('core.envelope-nulls-omitted', {
    allows: `${CORE}, Response envelope: fields "that appear" (wrap_info, warnings, auth are "object or null"; none is promised on every answer)`,
    description: 'wrap_info, warnings and auth are left out of the envelope when they would be null.',
    suites: ['core', 'kv', 'auth'],
    rewrite: withEnvelope((body) => {
      for (const key of ['wrap_info', 'warnings', 'auth']) if (body[key] === null) delete body[key];
    }),
  }),
  variant('core.error-texts-wrapped', {
    allows: `${CORE}, Errors: "{errors: [<message>, ...]}" (the messages' wording is not given)`,
    description:
      'Error messages use other wording: each is wrapped the way the upstream product joins errors ("1 error occurred:\\n\\t* ...").',
    suites: ['core', 'kv', 'auth'],
    rewrite: (w) => {
      const errors = errorsOf(w);
      if ((w.kind !== 'error' && w.kind !== 'too-large') || !Array.isArray(errors)) return w;
      return { ...w, body: { errors: errors.map((m) => `1 error occurred:\n\t* ${m}\n\n`) } };
    },
  }),
  variant('core.request-ids-uppercase', {
    allows: `${CORE}, Response envelope: request_id "string (UUID)" (a UUID's hexadecimal digits may be written in either case)`,
    description: 'request_id is a UUID written in upper case.',
    statements: ['doc.core.envelope.request-id'],
    suites: ['core', 'kv', 'auth'],
    rewrite: withEnvelope((body) => {
      if (typeof body.request_id === 'string') body.request_id = body.request_id.toUpperCase();
    }),
  }),
  variant('core.content-type-charset', {
    allows: `${CORE}, Endpoints > Conventions 3: "The service sets Content-Type on responses" (parameters not excluded)`,
    description: 'JSON answers are labelled application/json; charset=utf-8.',
    rewrite: (w) =>
      w.body === undefined ? w : { ...w, headers: { ...w.headers, 'Content-Type': 'application/json; charset=utf-8' } },
  }),
  // --- faults ---
  fault('core.envelope-not-object', {
    breaks: 'core.envelope.json',
    statements: ['doc.core.envelope.json'],
    description: 'Successful JSON answers are wrapped in an array.',
    rewrite: (w) => (answered(w) ? { ...w, body: [w.body] } : w),
  }),
  fault('core.request-id-not-uuid', {
    breaks: 'core.envelope.request-id-uuid',
    statements: ['doc.core.envelope.request-id'],
    description: 'request_id is not a UUID.',
    rewrite: withEnvelope((body) => {
      body.request_id = `req-${Date.now()}`;
    }),
  }),
  fault('core.lease-id-null', {
    breaks: 'core.envelope.lease-id-empty',
    statements: ['doc.core.envelope.lease-id'],
    description: 'lease_id is null instead of "" without a lease.',
    rewrite: unleased((body) => {
      body.lease_id = null;
    }),
  }),
  fault('core.lease-duration-nonzero', {
    breaks: 'core.envelope.lease-duration-zero',
    statements: ['doc.core.envelope.lease-duration'],
    description: 'lease_duration is 3600 without a lease.',
    rewrite: unleased((body) => {
      body.lease_duration = 3600;
    }),
  }),
  fault('core.renewable-string', {
    breaks: 'core.envelope.renewable-boolean',
    statements: ['doc.core.envelope.renewable'],
    description: 'renewable is the string "false".',
    rewrite: unleased((body) => {
      body.renewable = 'false';
    }),
  }),
  fault('core.warnings-empty-string', {
    breaks: 'core.envelope.field-types',
    statements: ['doc.core.envelope.warnings'],
    description: 'warnings is "" instead of null or an array.',
    rewrite: withEnvelope((body) => {
      if (body.warnings === null) body.warnings = '';
    }),
  }),
  fault('core.content-type-not-json', {
    breaks: 'core.content-type.set-on-responses',
    statements: ['doc.core.conventions.content-type-set'],
    description: 'JSON responses are labelled text/plain.',
    rewrite: (w) => (answered(w) ? { ...w, headers: { 'Content-Type': 'text/plain' } } : w),
  }),
  fault('core.success-200-empty', {
    breaks: 'core.success.200-or-204',
    statements: ['doc.core.conventions.success-204', 'doc.core.errors.status-204'],
    description: 'Operations without a body answer 200 with an empty body instead of 204.',
    rewrite: (w) => (w.kind === 'envelope' && w.status === 204 && w.body === undefined ? { ...w, status: 200 } : w),
  }),
  fault('core.errors-not-array', {
    breaks: 'core.errors.body-errors-array',
    statements: ['doc.core.errors.body', 'doc.core.errors.body-status'],
    description: 'Error bodies carry errors as one string instead of an array.',
    rewrite: (w) => {
      const errors = errorsOf(w);
      return w.kind === 'error' && Array.isArray(errors) ? { ...w, body: { errors: errors.join('; ') } } : w;
    },
  }),
  fault('core.bad-request-as-500', {
    breaks: 'core.errors.status-400',
    statements: ['doc.core.errors.status-400'],
    description: 'Invalid requests answer 500 instead of 400.',
    rewrite: errorStatus(400, 500),
  }),
  fault('core.forbidden-as-401', {
    breaks: 'core.errors.status-403',
    statements: ['doc.core.errors.status-403-no-access'],
    description: 'A valid token refused by its policies gets 401 instead of 403.',
    rewrite: (w) => (w.kind === 'error' && w.error instanceof PermissionDenied ? { ...w, status: 401 } : w),
  }),
  fault('core.bad-token-as-401', {
    breaks: 'core.errors.status-403',
    statements: ['doc.core.errors.status-403-credentials'],
    description: 'A request with an unknown client token (bad credentials) gets 401 instead of 403.',
    rewrite: (w) =>
      w.kind === 'error' && w.status === 403 && w.error?.messages.includes('invalid token') ? { ...w, status: 401 } : w,
  }),
  fault('core.forbidden-leaks-existence', {
    breaks: 'core.errors.status-404-hides-forbidden',
    statements: ['doc.core.errors.status-404-hidden'],
    description:
      'A refused path answers 404 only when it does not exist and 403 when it does, so the refusal tells whether the path exists.',
    rewrite: (w) =>
      w.kind === 'error' && w.error instanceof PermissionDenied && w.error.pathExists === false
        ? { ...w, status: 404 }
        : w,
  }),
  fault('core.bad-gateway-as-500', {
    breaks: 'core.errors.status-502',
    statements: ['doc.core.errors.status-502'],
    description:
      'An error answered by a third party the service called (the cloud directory) becomes 500 instead of 502.',
    rewrite: errorStatus(502, 500),
  }),
  fault('core.created-as-201', {
    breaks: 'core.success.200-or-204',
    statements: ['doc.core.errors.status-200'],
    description: 'A write whose answer carries data answers 201 Created instead of 200.',
    rewrite: (w) =>
      w.kind === 'envelope' && w.status === 200 && w.body !== undefined && (w.method === 'POST' || w.method === 'PUT')
        ? { ...w, status: 201 }
        : w,
  }),
  fault('core.request-id-stuck', {
    breaks: 'core.envelope.request-id-per-request',
    statements: ['doc.core.envelope.request-id-identifies'],
    description: 'Every answer carries the same request_id (generated once at start-up).',
    rewrite: withEnvelope((body) => {
      if (typeof body.request_id === 'string') body.request_id = STUCK_REQUEST_ID;
    }),
  }),
  fault('core.lease-id-dropped', {
    breaks: 'core.envelope.lease-id-names-lease',
    statements: ['doc.core.envelope.lease-id'],
    description: 'An answer that creates a lease carries lease_id "" (the lease exists but is not named).',
    rewrite: leased((body) => {
      body.lease_id = '';
    }),
  }),
  fault('core.renewable-stuck-false', {
    breaks: 'core.envelope.renewable-of-lease',
    statements: ['doc.core.envelope.renewable'],
    description: 'renewable is false on every answer, also for a lease that can be renewed.',
    rewrite: leased((body) => {
      body.renewable = false;
    }),
  }),
  fault('core.lease-duration-milliseconds', {
    breaks: 'core.envelope.lease-duration-of-lease',
    statements: ['doc.core.envelope.lease-duration'],
    description: 'lease_duration of a leased answer counts milliseconds instead of seconds.',
    rewrite: leased((body) => {
      if (typeof body.lease_duration === 'number') body.lease_duration *= 1000;
    }),
  }),
  fault('core.data-as-string', {
    breaks: 'core.envelope.field-types',
    statements: ['doc.core.envelope.data'],
    description: 'data holds the payload as a JSON-encoded string instead of an object.',
    rewrite: withEnvelope((body) => {
      if (body.data !== null && typeof body.data === 'object') body.data = JSON.stringify(body.data);
    }),
  }),
  fault('core.wrap-info-empty-string', {
    breaks: 'core.envelope.field-types',
    statements: ['doc.core.envelope.wrap-info'],
    description: 'wrap_info is "" instead of null when the answer is not wrapped.',
    rewrite: withEnvelope((body) => {
      if (body.wrap_info === null) body.wrap_info = '';
    }),
  }),
  fault('core.auth-empty-string', {
    breaks: 'core.envelope.field-types',
    statements: ['doc.core.envelope.auth'],
    description: 'auth is "" instead of null on answers that carry no authentication information.',
    rewrite: withEnvelope((body) => {
      if (body.auth === null) body.auth = '';
    }),
  }),
  fault('core.help-as-text', {
    breaks: 'core.content-type.set-on-responses',
    statements: ['doc.core.conventions.json-responses'],
    description: 'A help answer (?help=1) is the Markdown text itself (text/markdown), not a JSON body.',
    rewrite: (w) => {
      const help = (w.body as { help?: unknown } | undefined)?.help;
      return w.kind === 'help' && typeof help === 'string'
        ? { ...w, body: undefined, text: help, headers: { ...w.headers, 'Content-Type': 'text/markdown' } }
        : w;
    },
  }),
  fault('core.help-openapi-missing', {
    breaks: 'core.help.help-and-openapi',
    statements: ['doc.core.conventions.help-openapi'],
    description: 'A help answer carries the Markdown help but no openapi document.',
    rewrite: (w) => {
      if (w.kind !== 'help' || !w.body || typeof w.body !== 'object') return w;
      const { openapi: _dropped, ...rest } = w.body as Record<string, unknown>;
      return { ...w, body: rest };
    },
  }),
  fault('core.method-405-as-404', {
    breaks: 'core.method.unsupported-405',
    statements: ['doc.core.errors.status-405'],
    description: 'An unsupported method answers 404 instead of 405.',
    rewrite: errorStatus(405, 404),
  }),
];

/** The core's one response rewriter: legal variants first, then faults (this table's, then core-answer-switches.ts). */
export function coreWire(faults: Faults, variants: Variants): Rewrite {
  return rewritesWith({ faults, variants }, [...coreWireSwitches, ...coreAnswerSwitches]);
}
