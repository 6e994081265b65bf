/**
 * Request and response helpers of the reference scheduler: the request context, query and body
 * parsing (every malformed request is a 400), the body reader, blocking queries and the one
 * response function every answer goes through.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { BodyTimeout, BodyTooLarge, readBody as readRequestBody } from '../http-body.js';
import type { AclToken } from './acl.js';
import { badRequest, SchedError } from './errors.js';
import { clone, isObj, type Job } from './job.js';
import type { Store, WriteResult } from './store.js';

const MAX_BODY = 4 * 1024 * 1024;
const BODY_TIMEOUT_MS = 10_000;
const MAX_BLOCK_MS = 10_000;

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  namespace: string;
  token: AclToken | null;
  rawBody: Buffer;
}

export type Reply = { status?: number; body: unknown; headers?: Record<string, string> };

/** An answer as it goes on the wire; `refusal` is set for errors (SchedError). */
export interface Wire {
  status: number;
  body: string;
  contentType: string;
  headers: Record<string, string>;
  refusal?: { documented: boolean };
}

// ---- query parameters ----------------------------------------------------------------------------

export function parseBoolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw badRequest(`Failed to parse value of "${name}" (${v}) as a bool`);
}

export function parseIntParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?[0-9]+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw badRequest(`Failed to parse value of "${name}" (${v}) as an integer`);
  return Number(v);
}

// ---- bodies ------------------------------------------------------------------------------------------

export function jsonBody(ctx: Ctx, { optional = false } = {}): Job {
  if (ctx.rawBody.length === 0) {
    if (optional) return {};
    throw badRequest('Request body is empty');
  }
  let v: unknown;
  try {
    v = JSON.parse(ctx.rawBody.toString('utf8'));
  } catch (err) {
    throw badRequest(`failed to decode request body: ${(err as Error).message}`);
  }
  if (!isObj(v)) throw badRequest('Request body must be a JSON object');
  return v;
}

export const optBool = (b: Job, k: string): boolean => {
  const v = b[k];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw badRequest(`${k} must be a boolean`);
  return v;
};
export const optInt = (b: Job, k: string): number | undefined => {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest(`${k} must be an integer`);
  return v;
};
/** Indexes and versions are unsigned in the real scheduler: a negative one does not decode (400). */
export const optUint = (b: Job, k: string): number | undefined => {
  const v = optInt(b, k);
  if (v !== undefined && v < 0) throw badRequest(`${k} must not be negative`);
  return v;
};
export const optString = (b: Job, k: string): string | undefined => {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${k} must be a string`);
  return v;
};
export const stringMap = (v: unknown, what: string): Record<string, string> | null => {
  if (v === undefined || v === null) return null;
  if (!isObj(v) || Object.values(v).some((x) => typeof x !== 'string'))
    throw badRequest(`${what} must be an object of strings`);
  return v as Record<string, string>;
};

export function evalPriorityOk(p: number | undefined): number {
  if (p === undefined || p === 0) return 0;
  if (p < 1 || p > 100) throw badRequest('eval priority must be between 1 and 100 inclusively');
  return p;
}

// ---- answers -------------------------------------------------------------------------------------------

export function writeResponse(r: WriteResult | Job): Job {
  const out: Job = { ...r, Warnings: r.Warnings ?? '', LastContact: 0, KnownLeader: true };
  if (!out.EvalID) {
    delete out.EvalID;
    delete out.EvalCreateIndex;
  }
  return out;
}

export const stripEval = (ev: Job): Job => {
  const o = clone(ev);
  delete o.jobKey;
  delete o.JobCreateIndex;
  return o;
};

/** The request's URL and its decoded path; a path that does not decode is a 400. */
export function requestTarget(req: IncomingMessage): { url: URL; path: string } {
  const url = new URL(req.url ?? '/', 'http://scheduler');
  try {
    return { url, path: decodeURIComponent(url.pathname) };
  } catch {
    throw badRequest('malformed URL path');
  }
}

/** The request's body, refused with 413 past MAX_BODY and 408 past BODY_TIMEOUT_MS. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  try {
    return await readRequestBody(req, MAX_BODY, BODY_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new SchedError(413, 'request body too large');
    if (err instanceof BodyTimeout) throw new SchedError(408, 'request body timed out');
    throw err;
  }
}

/** Blocking query: with ?index=N wait (at most `wait`, capped) until the state index passes N. */
export async function block(store: Store, query: URLSearchParams): Promise<void> {
  const raw = query.get('index');
  if (!raw || !/^[0-9]+$/.test(raw)) return;
  const target = Number(raw);
  if (store.index > target) return;
  const waitText = query.get('wait');
  let waitMs = 5000;
  if (waitText) {
    const m = /^([0-9]+)(ms|s|m)?$/.exec(waitText);
    if (!m) throw badRequest(`Invalid wait time ${JSON.stringify(waitText)}`);
    waitMs = Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60000 : 1000);
  }
  waitMs = Math.min(waitMs, MAX_BLOCK_MS);
  await new Promise<void>((resolve) => {
    const done = () => {
      if (store.index > target) finish();
    };
    const finish = () => {
      clearTimeout(timer);
      store.events.off('change', done);
      resolve();
    };
    const timer = setTimeout(finish, waitMs);
    store.events.on('change', done);
  });
}

/** The wire form of a route's reply. */
export const replyWire = (reply: Reply): Wire => ({
  status: reply.status ?? 200,
  body: JSON.stringify(reply.body ?? null),
  contentType: 'application/json',
  headers: reply.headers ?? {},
});

/** The wire form of a refusal (plain text, as the real scheduler writes its errors). */
export const refusalWire = (err: SchedError): Wire => ({
  status: err.status,
  body: err.message,
  contentType: 'text/plain; charset=utf-8',
  headers: {},
  refusal: { documented: err.documented },
});

/**
 * The one response function: every answer passes the wire-level rewriting (`rewrite`) and gets the
 * scheduler's index headers.
 */
export function responder(store: Store, rewrite: (w: Wire) => Wire) {
  return (res: ServerResponse, answer: Wire) => {
    if (res.headersSent) return;
    const w = rewrite(answer);
    res.writeHead(w.status, {
      'Content-Type': w.contentType,
      'Content-Length': Buffer.byteLength(w.body),
      'X-Sched-Index': String(store.index),
      'X-Sched-KnownLeader': 'true',
      'X-Sched-LastContact': '0',
      ...w.headers,
    });
    res.end(w.body);
  };
}

/** Refuses a WebSocket upgrade with a plain HTTP answer. */
export const rejectUpgrade = (socket: Duplex, status: number, message: string) => {
  const reason =
    ({ 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed' } as Record<number, string>)[
      status
    ] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`,
  );
};

/** Answers an upgrade request with a plain HTTP 200 (a scheduler that does not upgrade: rules.actionUpgrades). */
export const answerWithoutUpgrade = (socket: Duplex, text: string) => {
  const body = JSON.stringify({ stdout: Buffer.from(text).toString('base64') });
  socket.end(
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
};
