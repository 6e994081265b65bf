/** The one request body reader of the reference's services (reference/http-body.ts). */
import type { IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyTimeout, BodyTooLarge, readBody } from '../../reference/http-body.js';

/** A request whose body the test writes. */
function request(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('readBody', () => {
  it('returns the whole body within the limit', async () => {
    const req = request();
    const body = readBody(req, 11, 1000);
    req.write('hello ');
    req.end('world');
    await expect(body).resolves.toEqual(Buffer.from('hello world'));
  });

  it('refuses a body announced larger than the limit without reading it', async () => {
    const req = request({ 'content-length': '11' });
    await expect(readBody(req, 10, 1000)).rejects.toBeInstanceOf(BodyTooLarge);
  });

  it('refuses a body found larger than the limit, and lets the rest flow away unread', async () => {
    const req = request();
    const body = readBody(req, 10, 1000);
    req.write('0123456789');
    req.write('x');
    await expect(body).rejects.toBeInstanceOf(BodyTooLarge);
    const ended = once(req, 'end');
    req.end('more that nobody reads');
    await ended;
  });

  it('gives up on a body that does not arrive in time', async () => {
    vi.useFakeTimers();
    const req = request();
    const body = readBody(req, 10, 1000);
    req.write('slow');
    const failed = expect(body).rejects.toBeInstanceOf(BodyTimeout);
    await vi.advanceTimersByTimeAsync(1000);
    await failed;
  });
});
