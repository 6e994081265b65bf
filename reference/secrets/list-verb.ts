/**
 * Node's HTTP parser only knows the methods in `http.METHODS`, which lack LIST, and answers such
 * a request line with 400 before any handler runs. The reference therefore sits a plain TCP
 * server in front: each connection is wrapped in a Duplex that rewrites a request line
 * `LIST /path HTTP/1.1` into `GET /path HTTP/1.1` plus a marker header the router reads back.
 * Request lines are recognised at the start of a chunk or right after the blank line ending a
 * previous request head (pipelining); clients write a request head in one piece, so it is not split.
 */
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';

export const LIST_MARKER_HEADER = 'x-reference-original-method';
const LIST_LINE = /(^|\r\n\r\n)LIST (\S+) HTTP\/(1\.[01])\r\n/g;

export function rewriteListVerb(chunk: Buffer): Buffer {
  const text = chunk.toString('latin1');
  if (!text.includes('LIST ')) return chunk;
  const rewritten = text.replace(
    LIST_LINE,
    (_m, lead: string, target: string, version: string) =>
      `${lead}GET ${target} HTTP/${version}\r\n${LIST_MARKER_HEADER}: LIST\r\n`,
  );
  return rewritten === text ? chunk : Buffer.from(rewritten, 'latin1');
}

/** A Duplex over `socket` whose readable side has LIST request lines rewritten. */
export class ListVerbSocket extends Duplex {
  constructor(private readonly socket: Socket) {
    super();
    socket.on('data', (chunk: Buffer) => {
      if (!this.push(rewriteListVerb(chunk))) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
  }
  override _read(): void {
    this.socket.resume();
  }
  override _write(chunk: Buffer, encoding: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.socket.write(chunk, encoding, cb);
  }
  override _final(cb: (err?: Error | null) => void): void {
    this.socket.end(cb);
  }
  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.socket.destroy();
    cb(err);
  }
  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }
  setTimeout(ms: number, cb?: () => void): this {
    this.socket.setTimeout(ms, cb);
    return this;
  }
  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }
}
