/**
 * The secrets core's legal variants (core-variants.ts), applied where answers are written and
 * requests are read: each one is a transformation at the edge, so the model in server.ts and
 * sys.ts stays the documents' plainest reading.
 */
import { randomUUID } from 'node:crypto';
import type { Variants } from '../variants.js';
import { PermissionDenied, type SvcError } from './errors.js';

/** The envelope as the enabled variants shape it (extra fields, nulls left out, warnings []). */
export function shapeEnvelope(body: Record<string, unknown>, variants: Variants): Record<string, unknown> {
  const out = { ...body };
  if (variants.has('core.warnings-empty-array') && out.warnings === null) out.warnings = [];
  if (variants.has('core.envelope-nulls-omitted')) {
    for (const key of ['wrap_info', 'warnings', 'auth']) if (out[key] === null) delete out[key];
  }
  if (variants.has('core.envelope-extra-fields')) {
    out.mount_type ??= '';
    out.mount_running_plugin_version = '';
    out.headers = null;
  }
  return out;
}

/** The answer to an operation without a payload: 204, or 200 with a warning (the documents allow it). */
export function noContentBody(variants: Variants): Record<string, unknown> | undefined {
  if (!variants.has('core.no-content-as-200-with-warnings')) return undefined;
  return shapeEnvelope(
    {
      request_id: randomUUID(),
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      data: null,
      wrap_info: null,
      warnings: ['the operation succeeded; this reference variant answers 200 with a warning where 204 is documented'],
      auth: null,
    },
    variants,
  );
}

/** The status an error is written with: an ACL refusal may answer 404 to hide the path. */
export function errorStatus(err: SvcError, variants: Variants): number {
  return err instanceof PermissionDenied && variants.has('core.forbidden-as-404') ? 404 : err.status;
}

/** Error messages in the wording the variants choose (the documents give none). */
export function errorMessages(messages: string[], variants: Variants): string[] {
  if (!variants.has('core.error-texts-wrapped')) return messages;
  return messages.map((m) => `1 error occurred:\n\t* ${m}\n\n`);
}

/** Headers of every JSON answer. */
export function jsonHeaders(variants: Variants): Record<string, string> {
  return variants.has('core.content-type-charset') ? { 'Content-Type': 'application/json; charset=utf-8' } : {};
}

/** Whether a `list` query value asks for LIST: `true`, or every boolean spelling with the variant. */
export function listRequested(value: string | null, variants: Variants): boolean {
  if (value === 'true') return true;
  return variants.has('core.list-query-lenient') && value !== null && ['1', 't', 'T', 'TRUE', 'True'].includes(value);
}

/** The keys of a LIST answer: sorted (the reference's habit), or in another order with the variant. */
export function listKeys(keys: unknown[], variants: Variants): unknown[] {
  return variants.has('core.list-keys-unordered') ? [...keys].reverse() : keys;
}
