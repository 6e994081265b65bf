/**
 * Listeners a directory test starts beside the run's directory, on the loopback interface:
 * - a silent one, which accepts connections and never answers (a directory that hangs: for an
 *   ldap:// URL the request waits, for an ldaps:// URL the TLS handshake never completes);
 * - one that demands a TLS client certificate of the run's CA and forwards to the directory;
 * - one that accepts the UPN `name@domain` as a bind name, as Active Directory does, and forwards
 *   to the directory with the entry's DN instead (OpenLDAP takes only DNs).
 * Each closes every connection it holds when closed.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

export interface Listener {
  /** host:port of the listener. */
  address: string;
  close(): Promise<void>;
}

function listening(server: Server, sockets: Set<Socket>): Promise<Listener> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      resolve({
        address: `127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

function tracked(sockets: Set<Socket>, socket: Socket): Socket {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => socket.destroy());
  return socket;
}

export interface SilentListener extends Listener {
  /** Resolves once a client has sent its first bytes (a request, or a TLS ClientHello). */
  contacted: Promise<void>;
}

/** Accepts connections and never sends a byte. */
export async function silentListener(): Promise<SilentListener> {
  const sockets = new Set<Socket>();
  let heard!: () => void;
  const contacted = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const server = createServer((socket) => {
    tracked(sockets, socket).once('data', () => heard());
  });
  return { ...(await listening(server, sockets)), contacted };
}

/** Pipes a client connection to the directory at `target` (host:port), both ends closing together. */
function forward(client: Socket, target: string, sockets: Set<Socket>, rewrite?: (chunk: Buffer) => Buffer): void {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const upstream = tracked(sockets, tcpConnect(port, host));
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  upstream.pipe(client);
  if (!rewrite) client.pipe(upstream);
  else client.on('data', (chunk: Buffer) => upstream.write(rewrite(chunk)));
}

/** TLS demanding a client certificate signed by `ca`; the connection then goes to `target` as is. */
export async function clientCertListener(
  target: string,
  tls: { ca: string; serverCert: string; serverKey: string },
): Promise<Listener> {
  const sockets = new Set<Socket>();
  const server = createTlsServer(
    { ca: [tls.ca], cert: tls.serverCert, key: tls.serverKey, requestCert: true, rejectUnauthorized: true },
    (client) => forward(tracked(sockets, client), target, sockets),
  );
  server.on('tlsClientError', () => {});
  return listening(server as unknown as Server, sockets);
}

// --- BER, just enough for LDAP messages and the name of a bind request -----------------------

/** The length field at `at`: its value and how many bytes it took; undefined when incomplete. */
function readLength(buf: Buffer, at: number): { len: number; size: number } | undefined {
  if (at >= buf.length) return undefined;
  const first = buf[at]!;
  if (first < 0x80) return { len: first, size: 1 };
  const n = first & 0x7f;
  if (at + 1 + n > buf.length) return undefined;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + buf[at + 1 + i]!;
  return { len, size: 1 + n };
}

function lengthBytes(len: number): Buffer {
  if (len < 0x80) return Buffer.from([len]);
  const bytes: number[] = [];
  for (let v = len; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, value: Buffer) => Buffer.concat([Buffer.from([tag]), lengthBytes(value.length), value]);

/** An element at `at`: its tag, where its value starts and ends. */
function element(buf: Buffer, at: number): { tag: number; start: number; end: number } {
  const l = readLength(buf, at + 1)!;
  const start = at + 1 + l.size;
  return { tag: buf[at]!, start, end: start + l.len };
}

/** The message with its bind request's name mapped, or the message as it was. */
export function rewriteBindName(message: Buffer, map: (name: string) => string | undefined): Buffer {
  const outer = element(message, 0);
  const id = element(message, outer.start);
  const op = element(message, id.end);
  if (op.tag !== 0x60) return message; // not a BindRequest
  const version = element(message, op.start);
  const name = element(message, version.end);
  const mapped = map(message.subarray(name.start, name.end).toString('utf8'));
  if (mapped === undefined) return message;
  const bind = tlv(
    0x60,
    Buffer.concat([
      message.subarray(op.start, version.end),
      tlv(0x04, Buffer.from(mapped, 'utf8')),
      message.subarray(name.end, op.end),
    ]),
  );
  return tlv(0x30, Buffer.concat([message.subarray(outer.start, id.end), bind, message.subarray(op.end, outer.end)]));
}

/**
 * Splits a client's stream into LDAP messages and maps the names of its binds: `name@domain` of
 * an entry `cn=name` under `userDn` becomes that entry's DN; any other name reaches the directory
 * as sent (a plain name that is not a DN is refused there).
 */
export async function upnListener(target: string, domain: string, userDn: string): Promise<Listener> {
  const sockets = new Set<Socket>();
  const suffix = `@${domain}`.toLowerCase();
  const map = (name: string) =>
    name.toLowerCase().endsWith(suffix) && !/[=,]/.test(name.slice(0, -suffix.length))
      ? `cn=${name.slice(0, -suffix.length)},${userDn}`
      : undefined;
  const server = createServer((client) => {
    tracked(sockets, client);
    let pending = Buffer.alloc(0);
    forward(client, target, sockets, (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      const out: Buffer[] = [];
      for (;;) {
        const l = readLength(pending, 1);
        if (!l || pending.length < 1 + l.size + l.len) break;
        const size = 1 + l.size + l.len;
        out.push(rewriteBindName(pending.subarray(0, size), map));
        pending = pending.subarray(size);
      }
      return Buffer.concat(out);
    });
  });
  return listening(server, sockets);
}
