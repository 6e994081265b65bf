/**
 * Talking to the directory over ldapts: one bound session per operation batch, URLs tried in
 * order (failover), connection and request timeouts, StartTLS and TLS options from the config.
 */
import type { ConnectionOptions } from 'node:tls';
import { Attribute, Change, Client, InvalidCredentialsError, NoSuchObjectError, type Entry } from 'ldapts';
import type { DirectoryConfig } from './config.js';
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

export interface SessionOptions {
  /** The URLs to try, in order (default: every URL of the config). */
  urls?: string[];
}

function tlsOptions(cfg: DirectoryConfig, host: string): ConnectionOptions {
  const opts: ConnectionOptions = { servername: host, rejectUnauthorized: !cfg.insecureTls };
  if (cfg.certificate) opts.ca = [cfg.certificate];
  if (cfg.clientTlsCert && cfg.clientTlsKey) {
    opts.cert = cfg.clientTlsCert;
    opts.key = cfg.clientTlsKey;
  }
  return opts;
}

/** RFC 4515 escaping of an assertion value. */
function escapeValue(v: string): string {
  return v.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const errName = (err: unknown) => (err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err));

/** Binds as the configured bind entry on the first URL that answers. */
export async function openSession(cfg: DirectoryConfig, opts: SessionOptions = {}): Promise<Session> {
  const urls = opts.urls ?? cfg.urls;
  // The smaller of the two timeouts applies to connecting; request_timeout bounds each operation.
  const connectMs = Math.max(1, Math.min(cfg.connectionTimeout, cfg.requestTimeout)) * 1000;
  const opMs = Math.max(1, cfg.requestTimeout) * 1000;
  const failures: string[] = [];
  for (const url of urls) {
    const host = new URL(url).hostname;
    // ldapts treats any tlsOptions as a request for TLS from the first byte: only ldaps:// gets them.
    const secure = url.toLowerCase().startsWith('ldaps://');
    const client = new Client({
      url,
      connectTimeout: connectMs,
      timeout: opMs,
      strictDN: false,
      ...(secure ? { tlsOptions: tlsOptions(cfg, host) } : {}),
    });
    try {
      if (cfg.starttls && url.toLowerCase().startsWith('ldap://')) await client.startTLS(tlsOptions(cfg, host));
      const who = cfg.upndomain ? `${cfg.binddn}@${cfg.upndomain}` : cfg.binddn;
      await client.bind(who, cfg.bindpass);
      return new Session(client, cfg);
    } catch (err) {
      await client.unbind().catch(() => {});
      if (err instanceof InvalidCredentialsError)
        throw new DirectoryError('bind failed: invalid credentials for the configured binddn', true);
      failures.push(`${url}: ${errName(err)}`);
    }
  }
  throw new DirectoryError(`no directory URL answered (${failures.join('; ')})`);
}

export class Session {
  constructor(
    private readonly client: Client,
    private readonly cfg: DirectoryConfig,
  ) {}

  async close(): Promise<void> {
    await this.client.unbind().catch(() => {});
  }

  /** The DN of an entry: `dn` by base search when given, else `(attr=username)` under userdn. */
  async findAccount(username: string, dn: string | undefined, attr: string): Promise<string | undefined> {
    try {
      if (dn) {
        const r = await this.client.search(dn, { scope: 'base', attributes: ['1.1'] });
        return r.searchEntries[0]?.dn;
      }
      const base = this.cfg.userdn;
      const r = await this.client.search(base, {
        scope: 'sub',
        filter: `(${attr}=${escapeValue(username)})`,
        attributes: ['1.1'],
        sizeLimit: 2,
      });
      return r.searchEntries.length === 1 ? r.searchEntries[0]!.dn : undefined;
    } catch (err) {
      if (err instanceof NoSuchObjectError) return undefined;
      throw new DirectoryError(`search failed: ${errName(err)}`);
    }
  }

  /** Sets an entry's password the way its schema stores it. */
  async setPassword(dn: string, password: string): Promise<void> {
    const change =
      this.cfg.schema === 'ad'
        ? new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'unicodePwd', values: [Buffer.from(`"${password}"`, 'utf16le')] }),
          })
        : this.cfg.schema === 'racf'
          ? new Change({
              operation: 'replace',
              modification: new Attribute({ type: 'racfPassword', values: [password] }),
            })
          : new Change({
              operation: 'replace',
              modification: new Attribute({ type: 'userPassword', values: [password] }),
            });
    try {
      await this.client.modify(dn, change);
    } catch (err) {
      throw new DirectoryError(
        `password change of ${dn} failed: ${err instanceof Error ? err.constructor.name : 'error'}`,
      );
    }
  }

  async apply(rec: LdifRecord): Promise<void> {
    if (rec.changetype === 'add') {
      await this.client.add(
        rec.dn,
        rec.attributes.map((a) => new Attribute({ type: a.type, values: a.values })),
      );
    } else if (rec.changetype === 'delete') {
      await this.client.del(rec.dn);
    } else {
      await this.client.modify(
        rec.dn,
        rec.changes.map(
          (c) =>
            new Change({ operation: c.operation, modification: new Attribute({ type: c.type, values: c.values }) }),
        ),
      );
    }
  }

  async search(base: string, filter: string): Promise<Entry[]> {
    const r = await this.client.search(base, { scope: 'sub', filter });
    return r.searchEntries;
  }
}

/** Opens a session, runs `fn`, always closes. */
export async function withSession<T>(
  cfg: DirectoryConfig,
  opts: SessionOptions,
  fn: (s: Session) => Promise<T>,
): Promise<T> {
  const s = await openSession(cfg, opts);
  try {
    return await fn(s);
  } finally {
    await s.close();
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
