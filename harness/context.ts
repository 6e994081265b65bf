/**
 * Per-process test state: the target config (injected by vitest), the spec registry, mount
 * aliases for spec matching, and the transcript of the test that is running.
 */
import { inject } from 'vitest';
import type { TargetConfig } from './config/types.js';
import type { Exchange } from './http/exchange.js';
import { redactor } from './redact.js';

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetConfig;
  }
}

let config: TargetConfig | undefined;
export function targetConfig(): TargetConfig {
  if (!config) {
    config = inject('target');
    if (!config)
      throw new Error(
        'no target config was provided: run the suites through `npm run conformance` or `npm test` (vitest globalSetup compose/global-setup.ts)',
      );
    redactor.add(config.svc.token);
    redactor.add(config.sched.token);
    for (const listed of config.sched.tokens ?? []) redactor.add(listed.secret);
    if (config.ldap) redactor.add(config.ldap.bindPass);
    if (config.cloud?.rootClientSecret) redactor.add(config.cloud.rootClientSecret);
  }
  return config;
}

/** Run-unique mount paths mapped to the spec's default mounts. */
export const mountAliases = new Map<string, string>();

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
