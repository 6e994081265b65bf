/** Small HTTP helpers of the secrets service: JSON, text and empty answers (the body reader: ../http-body.ts). */
import type { ServerResponse } from 'node:http';

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

/** A body that is not JSON (a switch of the response layer writes one), with its own Content-Type. */
export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
