/** The simulated cloud directory's HTTP helpers: its error, its body reader, its answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTimeout, BodyTooLarge, readBody } from '../http-body.js';
import { DirectoryError } from './store.js';

const MAX_BODY = 1024 * 1024;
const BODY_TIMEOUT_MS = 30_000;

/** A refusal of the directory's HTTP layer: `{error: {code, message}}` with its status. */
export class HttpError extends DirectoryError {}

/** The request's body: a JSON object, or form fields (the token endpoint takes both); {} when empty. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = (await readBody(req, MAX_BODY, BODY_TIMEOUT_MS)).toString('utf8');
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new HttpError(413, 'Request_EntityTooLarge', 'request body too large');
    if (err instanceof BodyTimeout) throw new HttpError(408, 'Request_Timeout', 'request body timed out');
    throw err;
  }
  if (!text.trim()) return {};
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request_BadRequest', 'body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'Request_BadRequest', 'body must be a JSON object');
  return value as Record<string, unknown>;
}

/** A JSON answer, or an empty one. */
export function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function requireString(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || !v)
    throw new HttpError(400, 'Request_BadRequest', `"${key}" is required and must be a string`);
  return v;
}
