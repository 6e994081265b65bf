/**
 * The transcript of a test: its exchanges and notes, redacted and clipped, as results.json and
 * the HTML report show them.
 */
import type { Exchange } from './exchange.js';
import { redactor } from '../redaction/redact.js';

export interface TranscriptEntry {
  kind: 'exchange' | 'note';
  method?: string;
  url?: string;
  status?: number;
  durationMs?: number;
  operation?: string;
  requestHeaders?: Record<string, unknown>;
  requestBody?: unknown;
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

export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  dropped = 0;

  exchange(ex: Exchange): void {
    const entry: TranscriptEntry = {
      kind: 'exchange',
      method: ex.request.method,
      url: redactor.text(ex.request.url),
      status: ex.response.status,
      durationMs: Math.round(ex.durationMs * 10) / 10,
      operation: ex.operation,
      requestHeaders: redactor.headers(ex.request.headers),
      requestBody: clip(redactor.value(ex.request.body)),
      responseHeaders: redactor.headers(
        pick(ex.response.headers, ['content-type', 'x-sched-nexttoken', 'x-nomad-nexttoken', 'location']),
      ),
      responseBody: clip(redactor.value(ex.response.body)),
      ...(ex.renamed ? { renamed: ex.renamed.map((r) => redactor.text(r)) } : {}),
    };
    this.push(entry);
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
