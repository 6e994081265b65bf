/**
 * The cloud engine's client of the cloud directory: client-credentials login, then the JSON API
 * of `reference/cloud-directory`. Every call has a timeout; errors carry the directory's status
 * and code but never the request body (it may hold a client secret).
 */
import { SvcError } from '../../errors.js';

export interface DirectoryCredentials {
  addr: string;
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

async function call(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new DirectoryCallError(0, 'unreachable', `cloud directory unreachable: ${(err as Error).name}`);
  }
  const text = await res.text();
  let body: unknown;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status: res.status, body };
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
  private constructor(
    private readonly addr: string,
    private readonly accessToken: string,
  ) {}

  /** Logs in with client credentials; throws DirectoryCallError (401 for a wrong secret). */
  static async login(creds: DirectoryCredentials): Promise<DirectoryClient> {
    const { status, body } = await call(`${creds.addr}/${encodeURIComponent(creds.tenantId)}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: creds.clientId,
        client_secret: creds.clientSecret,
      }),
    });
    if (status !== 200) throw errorOf(status, body);
    const token = (body as { access_token?: unknown }).access_token;
    if (typeof token !== 'string')
      throw new DirectoryCallError(502, 'bad_response', 'token response without access_token');
    return new DirectoryClient(creds.addr, token);
  }

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const { status, body: out } = await call(`${this.addr}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (status >= 400) throw errorOf(status, out);
    return (out ?? {}) as T;
  }

  list<T>(path: string): Promise<T[]> {
    return this.request<{ value?: T[] }>('GET', path).then((r) => r.value ?? []);
  }
}

/** Runs `fn` and turns a 404 into undefined (lookups of things that may not exist). */
export async function orMissing<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DirectoryCallError && err.status === 404) return undefined;
    throw err;
  }
}

/** A failed call to the directory as the engine answers it (502, naming the directory's error). */
export function remote(err: unknown): never {
  if (err instanceof DirectoryCallError) throw new SvcError(502, [`cloud directory: ${err.code}: ${err.message}`]);
  throw err;
}
