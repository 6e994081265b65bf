/**
 * The reproduction of a failure: a curl command built from a transcript entry. Proved by letting a
 * real POSIX shell parse the command (curl replaced by a function that prints its arguments), so
 * quotes, dollars, backticks, backslashes and newlines in a URL, a header or a body arrive as
 * they were, and only "$SVC_TOKEN"/"$SCHED_TOKEN" are expanded.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../harness/http/transcript.js';
import { reproduce, shellQuote } from '../../harness/report/curl.js';

const NASTY = [
  "it's",
  '$(touch /tmp/pwned-by-curl-test)',
  '`id`',
  '$HOME ${PATH} $SVC_TOKEN',
  'back\\slash \\n and "double" quotes',
  "'';!!;&& || > /dev/null # not a comment",
  'line\nbreak\ttab',
  'ünïcødé ✓ 𝄞',
  '',
];

/** The words a POSIX shell makes of `command` when curl prints its arguments, NUL-separated. */
function parsed(command: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}\n`;
  const out = execFileSync('/bin/sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env } }).toString();
  return out.split('\0').slice(0, -1);
}

function entry(over: Partial<TranscriptEntry> = {}): TranscriptEntry {
  return {
    kind: 'exchange',
    api: 'svc',
    method: 'POST',
    url: 'http://127.0.0.1:8200/v1/secret/data/app',
    status: 400,
    requestHeaders: { 'X-Svc-Token': '[REDACTED]', 'X-Svc-Request': 'true', 'Content-Type': 'application/json' },
    auth: { header: 'X-Svc-Token', configured: true },
    requestBody: { data: { a: '1' } },
    ...over,
  };
}

describe('shellQuote', () => {
  it.each(NASTY)('a shell reads %j back unchanged', (value) => {
    expect(parsed(`curl ${shellQuote(value)}`)).toEqual([value]);
  });
});

describe('reproduce', () => {
  it('method, headers, JSON body and URL; the configured token read from $SVC_TOKEN', () => {
    const r = reproduce(entry());
    expect(r.curl).toBe(
      `curl -sS -X 'POST' -H 'X-Svc-Token: '"$SVC_TOKEN" -H 'X-Svc-Request: true' -H 'Content-Type: application/json' --data '{"data":{"a":"1"}}' 'http://127.0.0.1:8200/v1/secret/data/app'`,
    );
    expect(parsed(r.curl, { SVC_TOKEN: 'tok en $x' })).toEqual([
      '-sS',
      '-X',
      'POST',
      '-H',
      'X-Svc-Token: tok en $x',
      '-H',
      'X-Svc-Request: true',
      '-H',
      'Content-Type: application/json',
      '--data',
      '{"data":{"a":"1"}}',
      'http://127.0.0.1:8200/v1/secret/data/app',
    ]);
    expect(r.notes).toBeUndefined();
  });

  it('the scheduler token as "$SCHED_TOKEN", a Bearer token keeps its scheme, LIST stays a verb, GET has no -X', () => {
    const sched = reproduce(
      entry({
        api: 'sched',
        method: 'GET',
        url: 'http://127.0.0.1:4646/v1/jobs?prefix=x',
        requestHeaders: { 'X-Sched-Token': '[REDACTED]' },
        auth: { header: 'X-Sched-Token', configured: true },
        requestBody: undefined,
      }),
    );
    expect(sched.curl).toBe(`curl -sS -H 'X-Sched-Token: '"$SCHED_TOKEN" 'http://127.0.0.1:4646/v1/jobs?prefix=x'`);
    const bearer = reproduce(
      entry({
        method: 'LIST',
        requestHeaders: { Authorization: 'Bearer [REDACTED]' },
        auth: { header: 'Authorization', bearer: true, configured: true },
        requestBody: undefined,
      }),
    );
    expect(parsed(bearer.curl, { SVC_TOKEN: 'abc' })).toEqual([
      '-sS',
      '-X',
      'LIST',
      '-H',
      'Authorization: Bearer abc',
      'http://127.0.0.1:8200/v1/secret/data/app',
    ]);
  });

  it('nasty values in the URL, a header and the body reach curl unchanged; nothing else is expanded', () => {
    const body = { data: Object.fromEntries(NASTY.map((v, i) => [`k${i}`, v])) };
    const header = NASTY.filter((v) => !v.includes('\n')).join(' ');
    const url = `http://127.0.0.1:8200/v1/secret/data/${encodeURIComponent("it's $(x)")}?q='$HOME'`;
    const r = reproduce(entry({ url, requestHeaders: { 'X-Odd': header }, auth: undefined, requestBody: body }));
    const args = parsed(r.curl, { HOME: '/should-not-appear' });
    expect(args).toEqual([
      '-sS',
      '-X',
      'POST',
      '-H',
      `X-Odd: ${header}`,
      '--data',
      JSON.stringify(body),
      '-H',
      'Content-Type:',
      url,
    ]);
    expect(JSON.parse(args[6]!)).toEqual(body);
  });

  it('a raw body the transcript kept goes out byte for byte; without a Content-Type curl sends none either', () => {
    const raw = '{"a": 1,,}\n$(x) \'q\'';
    const typed = reproduce(entry({ requestBody: '<19 raw bytes>', requestRaw: raw }));
    const args = parsed(typed.curl, { SVC_TOKEN: 't' });
    expect(args.slice(args.indexOf('--data-binary'), args.indexOf('--data-binary') + 2)).toEqual([
      '--data-binary',
      raw,
    ]);
    expect(typed.notes).toBeUndefined();
    const untyped = reproduce(
      entry({ requestHeaders: { 'X-Svc-Token': '[REDACTED]' }, requestBody: '<19 raw bytes>', requestRaw: raw }),
    );
    expect(parsed(untyped.curl, { SVC_TOKEN: 't' })).toContain('Content-Type:');
  });

  it('says what it cannot repeat: a token the test created, redacted values, raw and clipped bodies, renamed fields', () => {
    const created = reproduce(entry({ auth: { header: 'X-Svc-Token', configured: false } }));
    expect(created.curl).toContain(`'X-Svc-Token: '"$SVC_TOKEN"`);
    expect(created.notes?.join(' ')).toMatch(/token the test created/);
    const secret = reproduce(entry({ requestBody: { password: '[REDACTED]' } }));
    expect(secret.curl).toContain('[REDACTED]');
    expect(secret.notes?.join(' ')).toMatch(/\[REDACTED\] are secrets/);
    const raw = reproduce(entry({ requestBody: '<20 raw bytes>' }));
    expect(raw.curl).not.toContain('--data');
    expect(raw.notes?.join(' ')).toMatch(/<20 raw bytes>/);
    const clipped = reproduce(entry({ requestBody: `${'x'.repeat(40)}… (9000 characters)` }));
    expect(clipped.notes?.join(' ')).toMatch(/clipped/);
    const renamed = reproduce(entry({ renamed: ['sent cloud_roles→azure_roles'] }));
    expect(renamed.notes?.join(' ')).toMatch(/cloud_roles→azure_roles/);
  });
});
