/**
 * The secrets server's one response layer: every answer is built as a `Wire` value, passed through
 * the rewriters of the active wire-level switches (core-wire-switches.ts: envelope fields, status codes,
 * content type, error body, headers) and only then written. Handlers never write to the socket.
 */
import type { ServerResponse } from 'node:http';
import type { SvcError } from './errors.js';
import { sendEmpty, sendJson, sendText } from './http-util.js';

/**
 * What an answer is, so a rewriter can pick the answers its rule is about:
 * - `envelope`: the response envelope the core builds around an operation's result (no body: 204);
 * - `raw`: a body an operation returns as is (health, lease renewal, ...), written like an envelope;
 * - `help`: the `?help=1` answer;
 * - `list-empty`: the 404 of a LIST without keys;
 * - `error`: an error the service answers (`error` holds it);
 * - `too-large`: a body over the request size limit;
 * - `internal`: an unexpected failure;
 * - `empty`: a bare status without body.
 */
export type WireKind = 'envelope' | 'raw' | 'help' | 'list-empty' | 'error' | 'too-large' | 'internal' | 'empty';

export interface Wire {
  kind: WireKind;
  status: number;
  /** JSON body; `undefined` for an answer without body. */
  body?: unknown;
  /** A body written as is instead of JSON (its Content-Type in `headers`). */
  text?: string;
  /** For `envelope`: the request's method (the answer to a write or a read). */
  method?: string;
  headers: Record<string, string>;
  /** For `envelope`: whether the answer created a lease (lease_id, renewable, lease_duration are the lease's). */
  leased?: boolean;
  /** For `error`: the error answered. */
  error?: SvcError;
}

export type Rewrite = (response: Wire) => Wire;

/** Writes a response once the rewriters had it. */
export function send(res: ServerResponse, w: Wire): void {
  if (w.text !== undefined) sendText(res, w.status, w.text, w.headers);
  else if (w.body === undefined) sendEmpty(res, w.status);
  else sendJson(res, w.status, w.body, w.headers);
}

/** The error body's messages. */
export const errorsOf = (w: Wire): unknown => (w.body as { errors?: unknown } | undefined)?.errors;
