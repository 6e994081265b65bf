/**
 * Talking to the directory over ldapts: one bound session per operation batch, URLs tried in
 * order (failover), connection and request timeouts on the service's clock, StartTLS and TLS
 * options, the bind name (binddn or UPN) as the engine's rules resolve them.
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { Attribute, Change, Client, InvalidCredentialsError, NoSuchObjectError } from 'ldapts';
import type { Schema } from './config.js';
import type { LdifRecord } from './ldif.js';

/** Failures talking to the directory; the message names the operation, never a credential. */
export class DirectoryError extends Error {
  constructor(
    message: string,
    readonly invalidCredentials = false,
  ) {
    super(message);
  }
}

/** How to reach and bind to the directory, as the engine's rules resolve the configuration. */
export interface SessionSettings {
  /** The URLs to try, in order. */
  urls: string[];
  /** Issue StartTLS on ldap:// URLs. */
  starttls: boolean;
  /** CA certificate (PEM) to trust; the system's CAs otherwise. */
  ca?: string;
  /** Verify the server's certificate (false: insecure_tls). */
  verifyServer: boolean;
  clientCert?: string;
  clientKey?: string;
  /** The name the engine binds with (the binddn, or the UPN `binddn@upndomain`). */
  bindName: string;
  /** Seconds to wait for a connection (TCP, and TLS for ldaps://) before trying the next URL. */
  connectTimeout: number;
  /** Seconds each request (StartTLS, bind, search, change) may take. */
  requestTimeout: number;
}

/**
 * Runs `fn` once `seconds` have passed on the service's clock; returns the cancel. The engine's
 * timeouts run on that clock, so a test can move time past them instead of waiting.
 */
export type After = (seconds: number, fn: () => void) => () => void;

class TimeoutError extends Error {}

/** `p`, or a TimeoutError once `seconds` have passed on the clock (then `onTimeout` runs). */
function within<T>(p: Promise<T>, seconds: number, after: After, what: string, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancel = after(seconds, () => {
      onTimeout();
      reject(new TimeoutError(`${what} timed out after ${seconds}s`));
    });
    p.then(
      (v) => {
        cancel();
        resolve(v);
      },
      (err: unknown) => {
        cancel();
        reject(err);
      },
    );
  });
}

function tlsOptions(s: SessionSettings, host: string): ConnectionOptions {
  const opts: ConnectionOptions = { servername: net.isIP(host) ? undefined : host, rejectUnauthorized: s.verifyServer };
  if (!s.verifyServer) opts.checkServerIdentity = () => undefined;
  if (s.ca) opts.ca = [s.ca];
  if (s.clientCert && s.clientKey) {
    opts.cert = s.clientCert;
    opts.key = s.clientKey;
  }
  return opts;
}

/** RFC 4515 escaping of an assertion value. */
function escapeValue(v: string): string {
  return v.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const errName = (err: unknown) => (err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err));

/** A client whose connection (TCP, or TLS for ldaps://) reports when it is up. */
function connectingClient(
  url: string,
  s: SessionSettings,
): { client: Client; connected: Promise<void>; isUp: () => boolean } {
  let isUp = false;
  let resolveUp!: () => void;
  const connected = new Promise<void>((resolve) => {
    resolveUp = resolve;
  });
  const up = () => {
    isUp = true;
    resolveUp();
  };
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const secure = url.toLowerCase().startsWith('ldaps://');
  const client = new Client({
    url,
    // Timeouts run on the service's clock (within), not on ldapts' own timers.
    connectTimeout: 0,
    timeout: 0,
    strictDN: false,
    createConnection: ((...args: Parameters<typeof net.connect>) => {
      const socket = net.connect(...args);
      socket.once('connect', up);
      return socket;
    }) as typeof net.connect,
    createSecureConnection: ((...args: Parameters<typeof tls.connect>) => {
      const socket = tls.connect(...args);
      socket.once('secureConnect', up);
      return socket;
    }) as typeof tls.connect,
    // ldapts treats any tlsOptions as a request for TLS from the first byte: only ldaps:// gets them.
    ...(secure ? { tlsOptions: tlsOptions(s, host) } : {}),
  });
  return { client, connected, isUp: () => isUp };
}

/**
 * Binds on the first URL that answers: a URL whose connection (or StartTLS) fails or takes longer
 * than connectTimeout is given up for the next one; the bind itself is not retried elsewhere.
 */
export async function openSession(s: SessionSettings, bindpass: string, after: After): Promise<Client> {
  const failures: string[] = [];
  for (const url of s.urls) {
    const { client, connected, isUp } = connectingClient(url, s);
    const drop = () => void client.unbind().catch(() => {});
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const starttls = s.starttls && url.toLowerCase().startsWith('ldap://');
    // The first request opens the connection: StartTLS when asked, the bind otherwise.
    const first = starttls ? client.startTLS(tlsOptions(s, host)) : client.bind(s.bindName, bindpass);
    first.catch(() => {});
    try {
      await within(Promise.race([connected, first.then(() => {})]), s.connectTimeout, after, 'connecting', drop);
      await within(first, s.requestTimeout, after, starttls ? 'StartTLS' : 'bind', drop);
    } catch (err) {
      drop();
      if (!starttls && err instanceof InvalidCredentialsError)
        throw new DirectoryError('bind failed: invalid credentials for the configured binddn', true);
      // A bind that failed or timed out on an open connection is not a connection failure.
      if (!starttls && isUp()) throw new DirectoryError(`bind on ${url} failed: ${errName(err)}`);
      failures.push(`${url}: ${errName(err)}`);
      continue;
    }
    if (starttls) {
      try {
        await within(client.bind(s.bindName, bindpass), s.requestTimeout, after, 'bind', drop);
      } catch (err) {
        drop();
        if (err instanceof InvalidCredentialsError)
          throw new DirectoryError('bind failed: invalid credentials for the configured binddn', true);
        throw new DirectoryError(`bind on ${url} failed: ${errName(err)}`);
      }
    }
    return client;
  }
  throw new DirectoryError(`no directory URL answered (${failures.join('; ')})`);
}

/** Where a session looks for accounts and how it stores their passwords. */
export interface SessionScope {
  /** Base DN of the account search (userdn). */
  searchBase: string;
  schema: Schema;
}

export class Session {
  constructor(
    private readonly client: Client,
    private readonly s: SessionSettings,
    private readonly scope: SessionScope,
    private readonly after: After,
  ) {}

  /** `p` within request_timeout; a request that takes longer ends the connection. */
  private timed<T>(p: Promise<T>, what: string): Promise<T> {
    return within(p, this.s.requestTimeout, this.after, what, () => void this.client.unbind().catch(() => {}));
  }

  async close(): Promise<void> {
    await this.client.unbind().catch(() => {});
  }

  /** The DN of an entry: `dn` by base search when given, else `(attr=username)` under `base` (default: the search base). */
  async findAccount(
    username: string,
    dn: string | undefined,
    attr: string,
    base = this.scope.searchBase,
  ): Promise<string | undefined> {
    try {
      if (dn) {
        const r = await this.timed(this.client.search(dn, { scope: 'base', attributes: ['1.1'] }), 'search');
        return r.searchEntries[0]?.dn;
      }
      const r = await this.timed(
        this.client.search(base, {
          scope: 'sub',
          filter: `(${attr}=${escapeValue(username)})`,
          attributes: ['1.1'],
          sizeLimit: 2,
        }),
        'search',
      );
      return r.searchEntries.length === 1 ? r.searchEntries[0]!.dn : undefined;
    } catch (err) {
      if (err instanceof NoSuchObjectError) return undefined;
      throw new DirectoryError(`search failed: ${errName(err)}`);
    }
  }

  /** Sets an entry's password the way its schema stores it. */
  async setPassword(dn: string, password: string): Promise<void> {
    const schema = this.scope.schema;
    const change =
      schema === 'ad'
        ? new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'unicodePwd', values: [Buffer.from(`"${password}"`, 'utf16le')] }),
          })
        : schema === 'racf'
          ? new Change({
              operation: 'replace',
              modification: new Attribute({ type: 'racfPassword', values: [password] }),
            })
          : new Change({
              operation: 'replace',
              modification: new Attribute({ type: 'userPassword', values: [password] }),
            });
    try {
      await this.timed(this.client.modify(dn, change), 'password change');
    } catch (err) {
      throw new DirectoryError(
        `password change of ${dn} failed: ${err instanceof Error ? err.constructor.name : 'error'}`,
      );
    }
  }

  async apply(rec: LdifRecord): Promise<void> {
    if (rec.changetype === 'add') {
      await this.timed(
        this.client.add(
          rec.dn,
          rec.attributes.map((a) => new Attribute({ type: a.type, values: a.values })),
        ),
        'add',
      );
    } else if (rec.changetype === 'delete') {
      await this.timed(this.client.del(rec.dn), 'delete');
    } else {
      await this.timed(
        this.client.modify(
          rec.dn,
          rec.changes.map(
            (c) =>
              new Change({ operation: c.operation, modification: new Attribute({ type: c.type, values: c.values }) }),
          ),
        ),
        'modify',
      );
    }
  }
}

/** Opens a session, runs `fn`, always closes. */
export async function withSession<T>(
  settings: SessionSettings,
  bindpass: string,
  scope: SessionScope,
  after: After,
  fn: (s: Session) => Promise<T>,
): Promise<T> {
  const client = await openSession(settings, bindpass, after);
  const session = new Session(client, settings, scope, after);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

/**
 * Runs LDIF records in order. With `stopOnError` the first failure ends the run (creation);
 * otherwise every record is tried (deletion, rollback). Returns the DNs applied and the errors.
 */
export async function runLdif(
  session: Session,
  recs: LdifRecord[],
  stopOnError: boolean,
): Promise<{ applied: string[]; errors: string[] }> {
  const applied: string[] = [];
  const errors: string[] = [];
  for (const rec of recs) {
    try {
      await session.apply(rec);
      applied.push(rec.dn);
    } catch (err) {
      errors.push(`${rec.changetype} ${rec.dn}: ${err instanceof Error ? err.constructor.name : 'error'}`);
      if (stopOnError) break;
    }
  }
  return { applied, errors };
}
