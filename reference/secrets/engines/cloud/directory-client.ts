/**
 * The cloud engine's client of the cloud: a client-credentials token per resource from the token
 * endpoint (form-encoded), then the directory API (Graph v1.0) and the resource manager (with its
 * `api-version`), over HTTPS trusting the cloud's CA. Every call has a timeout; errors carry the
 * cloud's status and code but never the request body (it may hold a client secret).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { SvcError } from '../../errors.js';

export interface CloudEndpoints {
  login: string;
  graph: string;
  management: string;
}

export interface DirectoryCredentials {
  endpoints: CloudEndpoints;
  /** The CA (PEM) the endpoints' certificates are signed by, besides the system's. */
  ca?: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
}

export class DirectoryCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;
/** The resource manager's version of the authorization API (the one the upstream product calls). */
export const ARM_API_VERSION = '2022-04-01';
const SCOPES = {
  graph: 'https://graph.microsoft.com/.default',
  management: 'https://management.azure.com/.default',
};

/** An OData string literal: the value in single quotes, a quote inside doubled. */
export const odata = (v: string) => `'${v.replace(/'/g, "''")}'`;

function call(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  ca: string | undefined,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const send = u.protocol === 'http:' ? httpRequest : httpsRequest;
    const req = send(
      u,
      {
        method,
        headers: {
          accept: 'application/json',
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
        ...(ca && u.protocol === 'https:' ? { ca } : {}),
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) =>
      reject(
        new DirectoryCallError(
          0,
          'unreachable',
          `cloud unreachable: ${err.name}: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
        ),
      ),
    );
    req.end(body);
  });
}

function errorOf(status: number, body: unknown): DirectoryCallError {
  const b = (body ?? {}) as { error?: unknown; error_description?: unknown };
  if (b.error && typeof b.error === 'object') {
    const e = b.error as { code?: unknown; message?: unknown };
    return new DirectoryCallError(status, String(e.code ?? 'error'), String(e.message ?? `status ${status}`));
  }
  return new DirectoryCallError(status, String(b.error ?? 'error'), String(b.error_description ?? `status ${status}`));
}

export class DirectoryClient {
  private managementToken: string | undefined;

  private constructor(
    private readonly creds: DirectoryCredentials,
    private readonly graphToken: string,
  ) {}

  private static async token(creds: DirectoryCredentials, resource: keyof typeof SCOPES): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
      scope: SCOPES[resource],
    }).toString();
    const url = `${creds.endpoints.login.replace(/\/+$/, '')}/${encodeURIComponent(creds.tenantId)}/oauth2/v2.0/token`;
    const { status, body } = await call(
      url,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded' },
      form,
      creds.ca,
    );
    if (status !== 200) throw errorOf(status, body);
    const token = (body as { access_token?: unknown }).access_token;
    if (typeof token !== 'string')
      throw new DirectoryCallError(502, 'bad_response', 'token response without access_token');
    return token;
  }

  /** Logs in for the directory (a 401 for a wrong secret); the resource manager's token follows on first use. */
  static async login(creds: DirectoryCredentials): Promise<DirectoryClient> {
    return new DirectoryClient(creds, await DirectoryClient.token(creds, 'graph'));
  }

  private async send<T>(url: string, token: string, method: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const { status, body: out } = await call(
      url,
      method,
      headers,
      body === undefined ? undefined : JSON.stringify(body),
      this.creds.ca,
    );
    if (status >= 400) throw errorOf(status, out);
    return (out ?? {}) as T;
  }

  /** A Graph v1.0 call: `path` under `/v1.0` (`/applications/{id}`). */
  graph<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    return this.send<T>(`${this.creds.endpoints.graph.replace(/\/+$/, '')}/v1.0${path}`, this.graphToken, method, body);
  }

  /** Every item of a Graph list, following `@odata.nextLink`. */
  async graphList<T>(path: string): Promise<T[]> {
    const out: T[] = [];
    let page = await this.graph<{ value?: T[]; '@odata.nextLink'?: string }>('GET', path);
    for (;;) {
      out.push(...(page.value ?? []));
      const next = page['@odata.nextLink'];
      if (!next) return out;
      page = await this.send(next, this.graphToken, 'GET');
    }
  }

  /** A resource manager call on `path` (a resource id or scope path), with the api-version added. */
  async arm<T = Record<string, unknown>>(method: string, path: string, body?: unknown, query = ''): Promise<T> {
    this.managementToken ??= await DirectoryClient.token(this.creds, 'management');
    const url = `${this.creds.endpoints.management.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}?${query ? `${query}&` : ''}api-version=${ARM_API_VERSION}`;
    return this.send<T>(url, this.managementToken, method, body);
  }

  async armList<T>(path: string, filter?: string): Promise<T[]> {
    const query = filter ? `$filter=${encodeURIComponent(filter)}` : '';
    return (await this.arm<{ value?: T[] }>('GET', path, undefined, query)).value ?? [];
  }
}

/** Runs `fn` and turns a 404 (and the resource manager's 204 for nothing to delete) into undefined. */
export async function orMissing<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DirectoryCallError && err.status === 404) return undefined;
    throw err;
  }
}

/** A failed call to the cloud as the engine answers it (502, naming the cloud's error). */
export function remote(err: unknown): never {
  if (err instanceof DirectoryCallError) throw new SvcError(502, [`cloud directory: ${err.code}: ${err.message}`]);
  throw err;
}

/** A GET of `url` without a token (discovery), trusting `ca`; the JSON body, or undefined. */
export async function getJson(url: string, ca?: string): Promise<unknown> {
  return (await call(url, 'GET', {}, undefined, ca)).body;
}
