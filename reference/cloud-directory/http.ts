/**
 * The simulated cloud's HTTP helpers: request bodies as real clients send them (JSON or form
 * fields, gzip-compressed or not), answers with the headers real clients read (the `Date` of the
 * simulation's clock, a request id), and the error bodies of each API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { gunzipSync, inflateSync } from 'node:zlib';
import { BodyTimeout, BodyTooLarge, readBody } from '../http-body.js';
import { DirectoryError } from './store.js';

const MAX_BODY = 1024 * 1024;
const BODY_TIMEOUT_MS = 30_000;

/** A refusal of the directory's HTTP layer: its status, code and message. */
export class HttpError extends DirectoryError {}

/** The request body as bytes, decompressed as its Content-Encoding says. */
export async function bodyBytes(req: IncomingMessage): Promise<Buffer> {
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_BODY, BODY_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof BodyTooLarge)
      throw new HttpError(413, 'Request_EntityTooLarge', 'The request body is too large.');
    if (err instanceof BodyTimeout) throw new HttpError(408, 'Request_Timeout', 'The request body timed out.');
    throw err;
  }
  const encoding = String(req.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (!encoding || encoding === 'identity' || raw.length === 0) return raw;
  try {
    if (encoding === 'gzip') return gunzipSync(raw, { maxOutputLength: MAX_BODY });
    if (encoding === 'deflate') return inflateSync(raw, { maxOutputLength: MAX_BODY });
  } catch {
    throw new HttpError(400, 'BadRequest', `The request body is not valid ${encoding} data.`);
  }
  throw new HttpError(415, 'UnsupportedMediaType', `Content-Encoding '${encoding}' is not supported.`);
}

/** A JSON object body ({} when empty); anything else is a 400 with `code`. */
export async function readJson(req: IncomingMessage, code = 'BadRequest'): Promise<Record<string, unknown>> {
  const text = (await bodyBytes(req)).toString('utf8');
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, code, 'The request body is not valid JSON.');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, code, 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}

/** Form fields of an `application/x-www-form-urlencoded` body; undefined for any other type. */
export async function readForm(req: IncomingMessage): Promise<Record<string, string> | undefined> {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const text = (await bodyBytes(req)).toString('utf8');
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  return Object.fromEntries(new URLSearchParams(text));
}

/** How an answer is dated: the simulation's clock. */
export type Now = () => number;

/** A JSON answer (or an empty one) with the headers every API of the cloud sends. */
export function send(
  res: ServerResponse,
  now: Now,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const common = {
    Date: new Date(now()).toUTCString(),
    'request-id': randomUUID(),
    'Cache-Control': 'no-cache',
    ...headers,
  };
  if (body === undefined) {
    res.writeHead(status, common);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...common,
  });
  res.end(text);
}

/** The error body of Graph and the resource manager: `{error: {code, message}}`. */
export function apiError(res: ServerResponse, now: Now, err: DirectoryError): void {
  send(res, now, err.status, {
    error: {
      code: err.code,
      message: err.message,
      innerError: { date: new Date(now()).toISOString(), 'request-id': randomUUID() },
    },
  });
}

/** The error body of the token endpoint: `{error, error_description, error_codes, ...}`. */
export function tokenError(res: ServerResponse, now: Now, err: DirectoryError): void {
  const code = /AADSTS(\d+)/.exec(err.message)?.[1];
  send(res, now, err.status, {
    error: err.code,
    error_description: err.message,
    error_codes: code ? [Number(code)] : [],
    timestamp: new Date(now()).toISOString().replace('T', ' ').replace('Z', 'Z'),
    trace_id: randomUUID(),
    correlation_id: randomUUID(),
  });
}

export function requireString(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || !v)
    throw new HttpError(400, 'Request_BadRequest', `Property '${key}' is required and must be a string.`);
  return v;
}
