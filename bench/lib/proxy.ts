/**
 * A loopback HTTP proxy in front of one API of the target: optionally records every exchange in
 * arrival order (for the raw replay) and optionally delays every request (a target across a
 * network). WebSocket upgrades are piped through untouched (the scheduler's action stream).
 * Listens on 127.0.0.1 only; the delay is bounded.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
// Node's HTTP parser refuses the LIST verb: the same rewrite the reference uses (marker header).
import { ListVerbSocket, LIST_MARKER_HEADER } from '../../reference/secrets/list-verb.js';

export const MAX_DELAY_MS = 1000;

export interface Recorded {
  seq: number;
  api: 'svc' | 'sched';
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  status: number;
  responseBody: Buffer;
}

export interface Proxy {
  addr: string;
  close(): Promise<void>;
}

let seq = 0;

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

export async function startProxy(opts: {
  api: 'svc' | 'sched';
  target: string;
  delayMs?: number;
  record?: Recorded[];
}): Promise<Proxy> {
  const target = new URL(opts.target);
  const delay = Math.min(Math.max(0, opts.delayMs ?? 0), MAX_DELAY_MS);
  const server: Server = createServer(async (req, res) => {
    const order = seq++;
    try {
      const body = await readAll(req);
      if (delay) await new Promise((r) => setTimeout(r, delay));
      const method = req.headers[LIST_MARKER_HEADER] === 'LIST' ? 'LIST' : (req.method ?? 'GET');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined && !HOP.has(k) && k !== LIST_MARKER_HEADER)
          headers[k] = Array.isArray(v) ? v.join(', ') : v;
      headers.host = target.host;
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method, path: req.url, headers, timeout: 60_000 },
        async (up) => {
          const responseBody = await readAll(up);
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
          out['content-length'] = String(responseBody.length);
          res.writeHead(up.statusCode ?? 502, out);
          res.end(responseBody);
          opts.record?.push({
            seq: order,
            api: opts.api,
            method,
            url: req.url ?? '/',
            headers,
            body,
            status: up.statusCode ?? 0,
            responseBody,
          });
        },
      );
      upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
      upstream.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [`bench proxy: ${err.message}`] }));
      });
      upstream.end(body);
    } catch (_err) {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    }
  });
  server.on('upgrade', (req, socket, head) => {
    const up = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      socket.pipe(up).pipe(socket);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  server.keepAliveTimeout = 5000;
  const sockets = new Set<Socket>();
  // Small writes must leave at once: with Nagle's algorithm on a proxied socket each exchange waits
  // for the peer's delayed ACK (~40 ms), which would be measured as harness time.
  const front = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    server.emit('connection', new ListVerbSocket(socket));
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', () => r()));
  const { port } = front.address() as AddressInfo;
  return {
    addr: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close();
        front.close(() => r());
      }),
  };
}
