/**
 * The request body reader of the reference's services (the secrets service, the scheduler, the
 * cloud directory): a size cap and a deadline, so no request can hold a service with a body too
 * large or too slow. Each service answers the two failures its own way (413, 408, its error body).
 */
import type { IncomingMessage } from 'node:http';

/** The body is larger than the service takes (announced by Content-Length, or found so). */
export class BodyTooLarge extends Error {
  constructor() {
    super('request body too large');
  }
}

/** The body did not arrive within the deadline. */
export class BodyTimeout extends Error {
  constructor() {
    super('request body timeout');
  }
}

/**
 * Reads the body of `req`: at most `limit` bytes, within `timeoutMs`. Past either, it stops
 * collecting, lets the rest of the body flow away unread (so the answer can still be written)
 * and fails with BodyTooLarge or BodyTimeout.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (err: Error) => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.resume();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) stop(new BodyTooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(() => stop(new BodyTimeout()), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
