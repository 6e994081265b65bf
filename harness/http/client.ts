/**
 * The HTTP layer, on pactum: base URL, token and namespace headers from the dialect, LIST as verb
 * or as `?list=true`, a timeout on every request, TLS with a CA file or skip-verify. Every
 * exchange is recorded for the report and checked against the spec.
 */
import { readFileSync } from 'node:fs';
import pactum from 'pactum';
import type { TargetConfig } from '../config/types.js';
import type { NameTranslator } from '../dialect/names.js';
import { RAW_KEPT, type Exchange } from './exchange.js';

const { spec, settings } = pactum;
// pactum prints failed requests with their headers; our reports carry redacted transcripts instead.
settings.setLogLevel('SILENT');

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (malformed JSON, oversize bodies, raw payloads). */
  rawBody?: string | Buffer;
  contentType?: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** `null` sends no token; a string replaces the configured one. */
  token?: string | null;
  /** Send the token as `Authorization: Bearer` instead of the token header. */
  bearer?: boolean;
  /** `null` sends no namespace header; a string replaces the configured namespace. */
  namespace?: string | null;
  /** How a LIST is sent: the LIST verb (default) or GET with `list=true`. */
  listVia?: 'verb' | 'query';
  /** Leave out the request header that `require_request_header` listeners demand. */
  omitRequestHeader?: boolean;
  /** Skip the automatic spec check (deliberately malformed requests). */
  validate?: boolean;
  timeoutMs?: number;
}

export class TransportError extends Error {
  constructor(
    message: string,
    readonly request: { method: string; url: string },
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export type ExchangeHook = (ex: Exchange, validate: boolean) => void;
/** Runs before a request is sent; throwing stops it (the domain-lock guard on global endpoints). */
export type SendHook = (method: string, path: string) => void;

export class ApiClient {
  private readonly core: Record<string, unknown>;

  constructor(
    readonly api: 'svc' | 'sched',
    private readonly config: TargetConfig,
    private readonly hook: ExchangeHook,
    /** The dialect's names (harness/dialect/names.ts): requests renamed to the target's, responses back. */
    private readonly names?: NameTranslator,
    private readonly beforeSend?: SendHook,
  ) {
    const tls: Record<string, unknown> = {};
    if (api === 'svc' && config.svc.cacert) tls.ca = readFileSync(config.svc.cacert);
    if (api === 'svc' && config.svc.skipVerify) tls.rejectUnauthorized = false;
    this.core = tls;
  }

  get baseUrl(): string {
    const addr = this.api === 'svc' ? this.config.svc.addr : this.config.sched.addr;
    return `${addr.replace(/\/+$/, '')}/v1`;
  }

  get(path: string, opts: RequestOptions = {}) {
    return this.request('GET', path, opts);
  }
  post(path: string, opts: RequestOptions = {}) {
    return this.request('POST', path, opts);
  }
  put(path: string, opts: RequestOptions = {}) {
    return this.request('PUT', path, opts);
  }
  delete(path: string, opts: RequestOptions = {}) {
    return this.request('DELETE', path, opts);
  }
  list(path: string, opts: RequestOptions = {}) {
    if (opts.listVia === 'query') return this.request('GET', path, { ...opts, query: { ...opts.query, list: 'true' } });
    return this.request('LIST', path, opts);
  }

  private headersFor(opts: RequestOptions): Record<string, string> {
    const h: Record<string, string> = {};
    const d = this.config.dialect;
    const token =
      opts.token === undefined ? (this.api === 'svc' ? this.config.svc.token : this.config.sched.token) : opts.token;
    if (token) {
      if (opts.bearer) h.Authorization = `Bearer ${token}`;
      else h[this.api === 'svc' ? d.tokenHeader : d.schedTokenHeader] = token;
    }
    if (this.api === 'svc') {
      const ns = opts.namespace === undefined ? this.config.svc.namespace : opts.namespace;
      if (ns) h[d.namespaceHeader] = ns;
      if (!opts.omitRequestHeader) h[d.requestHeader] = 'true';
    }
    return { ...h, ...opts.headers };
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Exchange> {
    const rel = path.replace(/^\/+/, '');
    const relPath = `/${rel}`.split('?')[0]!;
    this.beforeSend?.(method, relPath);
    // Suites speak the documents' names; the target may speak others (dialect.names). Raw bodies
    // are deliberately malformed or opaque and go out as they are.
    const outgoing =
      this.names && opts.rawBody === undefined
        ? this.names.request(relPath, { body: opts.body, query: opts.query })
        : undefined;
    const renamed = outgoing?.renamed.map((r) => `sent ${r}`) ?? [];
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(outgoing?.query ?? opts.query ?? {}))
      if (v !== undefined) query.set(k, String(v));
    const qs = query.toString();
    const url = `${this.baseUrl}/${rel}${qs ? `?${qs}` : ''}`;
    const headers = this.headersFor(opts);
    let body: string | Buffer | undefined;
    if (opts.rawBody !== undefined) {
      body = opts.rawBody;
      if (opts.contentType) headers['Content-Type'] = opts.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(outgoing ? outgoing.body : opts.body);
      headers['Content-Type'] = opts.contentType ?? 'application/json';
    }
    const timeout = opts.timeoutMs ?? this.config.timeouts.requestMs;
    let req = spec()
      .withMethod(method as 'GET')
      .withPath(url)
      .withHeaders(headers)
      .withRequestTimeout(timeout)
      .withCore(this.core);
    if (body !== undefined) req = req.withBody(body);
    const started = performance.now();
    let res: { statusCode: number; headers: Record<string, string | string[]>; body: unknown; text?: string };
    try {
      res = (await req.toss()) as unknown as typeof res;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const target = this.api === 'svc' ? 'SVC_ADDR' : 'SCHED_ADDR';
      const reason = /timeout/i.test(`${e.code} ${e.message}`)
        ? `no response within ${timeout} ms (setting timeouts.requestMs)`
        : `${e.code ?? 'error'}: ${e.message}`;
      throw new TransportError(`${method} ${this.baseUrl}/${rel} failed: ${reason} (target from ${target})`, {
        method,
        url,
      });
    }
    const durationMs = performance.now() - started;
    const respHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers ?? {}))
      respHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    const text =
      typeof res.text === 'string'
        ? res.text
        : typeof res.body === 'string'
          ? res.body
          : JSON.stringify(res.body ?? '');
    let parsed: unknown = res.body;
    const contentType = respHeaders['content-type'] ?? '';
    if (typeof parsed === 'string' && /json/i.test(contentType) && parsed.length) {
      try {
        parsed = JSON.parse(parsed);
      } catch {
        /* left as text: the spec check reports it */
      }
    }
    if (
      parsed === undefined ||
      (typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 0 && text === '')
    )
      parsed = text === '' ? '' : parsed;
    if (this.names && parsed !== null && typeof parsed === 'object') {
      // Back to the documents' names before any check, redaction or spec match reads the body.
      const back = this.names.response(relPath, parsed);
      parsed = back.body;
      renamed.push(...back.renamed.map((r) => `received ${r}`));
    }
    const ex: Exchange = {
      api: this.api,
      request: {
        method,
        url,
        path: relPath,
        headers,
        body: opts.rawBody !== undefined ? `<${Buffer.byteLength(opts.rawBody)} raw bytes>` : opts.body,
        ...(typeof opts.rawBody === 'string' && opts.rawBody.length <= RAW_KEPT ? { raw: opts.rawBody } : {}),
      },
      response: { status: res.statusCode, headers: respHeaders, body: parsed, text, contentType },
      durationMs,
      ...(renamed.length ? { renamed } : {}),
    };
    this.hook(ex, opts.validate !== false);
    return ex;
  }
}
