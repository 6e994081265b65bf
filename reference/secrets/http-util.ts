/** Small HTTP helpers of the reference: body reading with a size cap, JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLarge extends Error {}

/** Reads the body, failing fast (and draining nothing more) once `limit` bytes are exceeded. */
export function readBody(req: IncomingMessage, limit: number, timeoutMs = 30_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const timer = setTimeout(() => reject(new Error('request body timeout')), timeoutMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        clearTimeout(timer);
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
    ...extraHeaders,
  });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status = 204): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Cache-Control': 'no-store' });
  res.end();
}
