/**
 * The transcript of a test: its exchanges and notes, redacted and clipped, as results.json and
 * the HTML report show them.
 */
import type { Exchange } from './exchange.js';
import { redactor } from '../redaction/redact.js';

export interface TranscriptEntry {
  kind: 'exchange' | 'note';
  /** Which API the exchange went to (the reproduction names its token variable after it). */
  api?: 'svc' | 'sched';
  /**
   * The header that carried a token (its value is redacted above), whether with the Bearer
   * scheme, and whether it was the configured token (svc.token / sched.token) or another one.
   */
  auth?: { header: string; bearer?: boolean; configured: boolean };
  method?: string;
  url?: string;
  status?: number;
  durationMs?: number;
  operation?: string;
  requestHeaders?: Record<string, unknown>;
  requestBody?: unknown;
  /** A body sent as is (malformed JSON, another content type), redacted, when short text. */
  requestRaw?: string;
  responseHeaders?: Record<string, unknown>;
  responseBody?: unknown;
  /** Names the dialect translated on the wire (bodies above are in the documents' names). */
  renamed?: string[];
  note?: string;
}

const MAX_ENTRIES = 40;
const MAX_BODY_CHARS = 4000;

function clip(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= MAX_BODY_CHARS) return value;
  return `${text.slice(0, MAX_BODY_CHARS)}… (${text.length} characters)`;
}

/** The token header of each API and the configured token it carries (the dialect names the headers). */
export interface TokenHeaders {
  svc: { header: string; token: string };
  sched: { header: string; token: string };
}

export function tokenHeadersOf(cfg: {
  dialect: { tokenHeader: string; schedTokenHeader: string };
  svc: { token: string };
  sched: { token: string };
}): TokenHeaders {
  return {
    svc: { header: cfg.dialect.tokenHeader, token: cfg.svc.token },
    sched: { header: cfg.dialect.schedTokenHeader, token: cfg.sched.token },
  };
}

const DOCUMENT_TOKEN_HEADERS: TokenHeaders = {
  svc: { header: 'X-Svc-Token', token: '' },
  sched: { header: 'X-Sched-Token', token: '' },
};

/** Which request header carried a token, if any, and whether it was the configured one. */
function authOf(ex: Exchange, tokens: TokenHeaders): TranscriptEntry['auth'] {
  const { header: tokenHeader, token: configured } = tokens[ex.api];
  for (const [name, value] of Object.entries(ex.request.headers)) {
    const lower = name.toLowerCase();
    if (lower === tokenHeader.toLowerCase()) return { header: name, configured: !!configured && value === configured };
    if (lower === 'authorization' && /^bearer\s/i.test(value)) {
      const token = value.replace(/^bearer\s+/i, '');
      return { header: name, bearer: true, configured: !!configured && token === configured };
    }
  }
  return undefined;
}

export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  dropped = 0;

  /** `tokens`: the run's token headers (tokenHeadersOf(config)); the documents' names by default. */
  constructor(private readonly tokens: TokenHeaders = DOCUMENT_TOKEN_HEADERS) {}
  /** The entry made of each exchange: a failure's reproduction is the entry of the exchange it is about. */
  private readonly byExchange = new WeakMap<Exchange, TranscriptEntry>();

  /** The entry of `ex`: the one recorded, or one made now (an exchange dropped or made outside this transcript). */
  entryOf(ex: Exchange): TranscriptEntry {
    return this.byExchange.get(ex) ?? this.entry(ex);
  }

  /** The last exchange recorded, if any. */
  lastExchange(): TranscriptEntry | undefined {
    return [...this.entries].reverse().find((e) => e.kind === 'exchange');
  }

  exchange(ex: Exchange): void {
    const entry = this.entry(ex);
    this.byExchange.set(ex, entry);
    this.push(entry);
  }

  private entry(ex: Exchange): TranscriptEntry {
    const auth = authOf(ex, this.tokens);
    return {
      kind: 'exchange',
      api: ex.api,
      ...(auth ? { auth } : {}),
      method: ex.request.method,
      url: redactor.text(ex.request.url),
      status: ex.response.status,
      durationMs: Math.round(ex.durationMs * 10) / 10,
      operation: ex.operation,
      requestHeaders: redactor.headers(ex.request.headers),
      requestBody: clip(redactor.value(ex.request.body)),
      ...(ex.request.raw !== undefined ? { requestRaw: redactor.text(ex.request.raw) } : {}),
      responseHeaders: redactor.headers(
        pick(ex.response.headers, ['content-type', 'x-sched-nexttoken', 'x-nomad-nexttoken', 'location']),
      ),
      responseBody: clip(redactor.value(ex.response.body)),
      ...(ex.renamed ? { renamed: ex.renamed.map((r) => redactor.text(r)) } : {}),
    };
  }

  note(text: string): void {
    this.push({ kind: 'note', note: redactor.text(text) });
  }

  private push(entry: TranscriptEntry): void {
    if (this.entries.length >= MAX_ENTRIES) {
      this.dropped++;
      this.entries.splice(1, 1);
    }
    this.entries.push(entry);
  }
}

function pick(h: Record<string, string>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (h[n] !== undefined) out[n] = h[n]!;
  return out;
}
