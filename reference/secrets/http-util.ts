/** Small HTTP helpers of the secrets service: JSON and empty answers (the body reader: ../http-body.ts). */
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
