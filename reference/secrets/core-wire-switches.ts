/**
 * Every wire-level switch of the secrets core, declared once where it takes effect: each rewrites
 * the answer in the server's one response layer (wire.ts): envelope fields, status codes, content
 * type, error body, headers (see reference/switches.ts). Legal variants first, then faults.
 */
import { randomUUID } from 'node:crypto';
import type { Faults } from '../faults.js';
import { rewritesWith, switchesOf } from '../switches.js';
import type { Variants } from '../variants.js';
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
  variant('core.content-type-charset', {
    allows: `${CORE}, Endpoints > Conventions 3: "The service sets Content-Type on responses" (parameters not excluded)`,
    description: 'JSON answers are labelled application/json; charset=utf-8.',
    rewrite: (w) =>
      w.body === undefined ? w : { ...w, headers: { ...w.headers, 'Content-Type': 'application/json; charset=utf-8' } },
  }),
  // --- faults ---
  fault('core.envelope-not-object', {
    breaks: 'core.envelope.json',
    description: 'Successful JSON answers are wrapped in an array.',
    rewrite: (w) => (answered(w) ? { ...w, body: [w.body] } : w),
  }),
  fault('core.request-id-not-uuid', {
    breaks: 'core.envelope.request-id-uuid',
    description: 'request_id is not a UUID.',
    rewrite: withEnvelope((body) => {
      body.request_id = `req-${Date.now()}`;
    }),
  }),
  fault('core.lease-id-null', {
    breaks: 'core.envelope.lease-id-empty',
    description: 'lease_id is null instead of "" without a lease.',
    rewrite: unleased((body) => {
      body.lease_id = null;
    }),
  }),
  fault('core.lease-duration-nonzero', {
    breaks: 'core.envelope.lease-duration-zero',
    description: 'lease_duration is 3600 without a lease.',
    rewrite: unleased((body) => {
      body.lease_duration = 3600;
    }),
  }),
  fault('core.renewable-string', {
    breaks: 'core.envelope.renewable-boolean',
    description: 'renewable is the string "false".',
    rewrite: unleased((body) => {
      body.renewable = 'false';
    }),
  }),
  fault('core.warnings-empty-string', {
    breaks: 'core.envelope.field-types',
    description: 'warnings is "" instead of null or an array.',
    rewrite: withEnvelope((body) => {
      if (body.warnings === null) body.warnings = '';
    }),
  }),
  fault('core.content-type-not-json', {
    breaks: 'core.content-type.set-on-responses',
    description: 'JSON responses are labelled text/plain.',
    rewrite: (w) => (answered(w) ? { ...w, headers: { 'Content-Type': 'text/plain' } } : w),
  }),
  fault('core.success-200-empty', {
    breaks: 'core.success.200-or-204',
    description: 'Operations without a body answer 200 with an empty body instead of 204.',
    rewrite: (w) => (w.kind === 'envelope' && w.status === 204 && w.body === undefined ? { ...w, status: 200 } : w),
  }),
  fault('core.errors-not-array', {
    breaks: 'core.errors.body-errors-array',
    description: 'Error bodies carry errors as one string instead of an array.',
    rewrite: (w) => {
      const errors = errorsOf(w);
      return w.kind === 'error' && Array.isArray(errors) ? { ...w, body: { errors: errors.join('; ') } } : w;
    },
  }),
  fault('core.bad-request-as-500', {
    breaks: 'core.errors.status-400',
    description: 'Invalid requests answer 500 instead of 400.',
    rewrite: errorStatus(400, 500),
  }),
  fault('core.forbidden-as-401', {
    breaks: 'core.errors.status-403',
    description: 'Permission failures answer 401 instead of 403.',
    rewrite: errorStatus(403, 401),
  }),
  fault('core.method-405-as-404', {
    breaks: 'core.method.unsupported-405',
    description: 'An unsupported method answers 404 instead of 405.',
    rewrite: errorStatus(405, 404),
  }),
];

/** The core's one response rewriter: legal variants first, then faults. */
export function coreWire(faults: Faults, variants: Variants): Rewrite {
  return rewritesWith({ faults, variants }, coreWireSwitches);
}
