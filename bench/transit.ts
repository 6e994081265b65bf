/**
 * Transit benchmark: the wall time of the transit conformance suite against the embedded
 * reference, then the reference's median (and p95) latency per operation over HTTP: encrypt,
 * decrypt, sign, verify and a batch of 100 encryptions. Speed is measured here, never asserted
 * in the suites.
 *
 *   npx tsx bench/transit.ts [--iterations 200] [--skip-suite]
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { runCli } from '../harness/cli/process.js';
import { startReference } from '../reference/start.js';

const args = process.argv.slice(2);
const iterations = Number(args[args.indexOf('--iterations') + 1]) || 200;
const skipSuite = args.includes('--skip-suite');

async function suiteWallTime(): Promise<{ seconds: number; code: number; summary: string }> {
  const started = performance.now();
  // node directly in its own process group: a timeout or Ctrl-C ends the run and all it started.
  const run = await runCli(['run', '--suite', 'transit', '--quiet', '--report-dir', 'reports/bench-transit'], {
    timeoutMs: 20 * 60_000,
  });
  const out = run.stdout + run.stderr;
  const summary = /conformance: [^\n]*/.exec(out)?.[0] ?? 'no summary (see reports/bench-transit)';
  return { seconds: (performance.now() - started) / 1000, code: run.code ?? 1, summary };
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

async function main(): Promise<void> {
  if (!skipSuite) {
    console.log('running the transit suite against the embedded reference...');
    const suite = await suiteWallTime();
    console.log(`transit suite wall time: ${suite.seconds.toFixed(1)} s (exit ${suite.code}; ${suite.summary})\n`);
  }

  const token = `bench-${randomBytes(8).toString('hex')}`;
  const ref = await startReference({ rootToken: token, quiet: true });
  try {
    const base = `${ref.svcAddr}/v1`;
    // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are open-ended (the documents' "other fields: not shown")
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
      const res = await fetch(`${base}/${path}`, {
        method,
        headers: { 'X-Svc-Token': token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    };
    const must = async (method: string, path: string, body?: unknown) => {
      const r = await call(method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.json?.errors)}`);
      return r.json;
    };

    await must('POST', 'sys/mounts/bench-transit', { type: 'transit' });
    for (const [name, type] of [
      ['aes', 'aes256-gcm96'],
      ['ec', 'ecdsa-p256'],
      ['ed', 'ed25519'],
      ['rsa', 'rsa-2048'],
    ]) {
      await must('POST', `bench-transit/keys/${name}`, { type });
    }
    const plaintext = b64(randomBytes(64));
    const ciphertext = (await must('POST', 'bench-transit/encrypt/aes', { plaintext })).data.ciphertext as string;
    const input = b64('benchmark message');
    const sigs: Record<string, string> = {};
    for (const k of ['ec', 'ed', 'rsa'])
      sigs[k] = (await must('POST', `bench-transit/sign/${k}`, { input })).data.signature;
    const batch = Array.from({ length: 100 }, () => ({ plaintext: b64(randomBytes(32)) }));

    const ops: [string, number, () => Promise<unknown>][] = [
      ['encrypt (aes256-gcm96)', iterations, () => must('POST', 'bench-transit/encrypt/aes', { plaintext })],
      ['decrypt (aes256-gcm96)', iterations, () => must('POST', 'bench-transit/decrypt/aes', { ciphertext })],
      ['sign (ecdsa-p256)', iterations, () => must('POST', 'bench-transit/sign/ec', { input })],
      ['verify (ecdsa-p256)', iterations, () => must('POST', 'bench-transit/verify/ec', { input, signature: sigs.ec })],
      ['sign (ed25519)', iterations, () => must('POST', 'bench-transit/sign/ed', { input })],
      ['verify (ed25519)', iterations, () => must('POST', 'bench-transit/verify/ed', { input, signature: sigs.ed })],
      [
        'sign (rsa-2048, pss)',
        Math.max(20, Math.floor(iterations / 4)),
        () => must('POST', 'bench-transit/sign/rsa', { input }),
      ],
      [
        'verify (rsa-2048, pss)',
        iterations,
        () => must('POST', 'bench-transit/verify/rsa', { input, signature: sigs.rsa }),
      ],
      [
        'encrypt batch of 100',
        Math.max(10, Math.floor(iterations / 10)),
        () => must('POST', 'bench-transit/encrypt/aes', { batch_input: batch }),
      ],
    ];

    console.log(`reference latency over HTTP (loopback), median and p95 in ms:`);
    console.log(`${'operation'.padEnd(26)} ${'n'.padStart(5)} ${'median'.padStart(9)} ${'p95'.padStart(9)}`);
    for (const [label, n, fn] of ops) {
      for (let i = 0; i < Math.min(10, n); i++) await fn();
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await fn();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${label.padEnd(26)} ${String(n).padStart(5)} ${percentile(times, 0.5).toFixed(2).padStart(9)} ${percentile(times, 0.95).toFixed(2).padStart(9)}`,
      );
    }
  } finally {
    await ref.stop();
  }
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exitCode = 1;
});
