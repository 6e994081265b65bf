/**
 * A failure's exchange as a curl command a reader can paste into a POSIX shell: the method (`-X`,
 * the LIST verb as it is), the URL, the request headers and the JSON body (`--data`). The token
 * header reads the token from the environment ("$SVC_TOKEN" or "$SCHED_TOKEN", by the API the
 * exchange went to); every other secret stays redacted as the transcript has it. Every piece the
 * harness did not write itself is single-quoted, so nothing in it is expanded by the shell.
 */
import type { TranscriptEntry } from '../http/transcript.js';
import type { Reproduction } from './model.js';

/** POSIX single quoting: the one character single quotes cannot hold is closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const TOKEN_VARIABLE = { svc: 'SVC_TOKEN', sched: 'SCHED_TOKEN' } as const;

/** Headers curl would send by itself or that describe the body curl sends. */
const LEAVE_OUT = new Set(['content-length', 'host', 'connection']);

/** The transcript clips long bodies and stands raw bodies in with their size (context.ts). */
const CLIPPED = /… \(\d+ characters\)$/;
const RAW = /^<\d+ raw bytes>$/;

export function reproduce(entry: TranscriptEntry): Reproduction {
  const notes: string[] = [];
  const args: string[] = ['curl', '-sS'];
  const method = entry.method ?? 'GET';
  if (method !== 'GET') args.push('-X', shellQuote(method));
  const variable = TOKEN_VARIABLE[entry.api ?? 'svc'];
  for (const [name, value] of Object.entries(entry.requestHeaders ?? {})) {
    if (LEAVE_OUT.has(name.toLowerCase())) continue;
    if (entry.auth && name.toLowerCase() === entry.auth.header.toLowerCase()) {
      // The name single-quoted, the variable double-quoted: the shell expands only "$SVC_TOKEN".
      args.push('-H', `${shellQuote(`${name}: ${entry.auth.bearer ? 'Bearer ' : ''}`)}"$${variable}"`);
      if (!entry.auth.configured)
        notes.push(
          `the exchange used a token the test created (redacted); $${variable} stands in for it, so the answer may differ`,
        );
      continue;
    }
    args.push('-H', shellQuote(`${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`));
  }
  const body = entry.requestBody;
  if (entry.requestRaw !== undefined) args.push('--data-binary', shellQuote(entry.requestRaw));
  else if (body !== undefined) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body === 'string' && RAW.test(body)) notes.push(`the request body was ${body}, not kept in the report`);
    else {
      if (typeof body === 'string' && CLIPPED.test(body))
        notes.push('the request body was clipped in the report; the command sends the clipped text');
      args.push('--data', shellQuote(text));
    }
  }
  // Without a type of its own a body would go out as curl's default (form data): send none, as the test did.
  const typed = Object.keys(entry.requestHeaders ?? {}).some((h) => h.toLowerCase() === 'content-type');
  if (!typed && args.some((a) => a === '--data' || a === '--data-binary')) args.push('-H', shellQuote('Content-Type:'));
  if (entry.renamed?.length)
    notes.push(`the body is in the documents' names; the target's names were: ${entry.renamed.join(', ')}`);
  args.push(shellQuote(entry.url ?? ''));
  if (args.join(' ').includes('[REDACTED]')) notes.push('values shown as [REDACTED] are secrets: fill them in');
  return { curl: args.join(' '), exchange: entry, ...(notes.length ? { notes } : {}) };
}
