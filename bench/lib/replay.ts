/**
 * The raw replay: the recorded requests, in recorded order, one after another, with the client
 * library the harness uses (pactum) and nothing else: no spec check, no transcript, no report.
 *
 * A fresh target hands out other tokens, accessors, ciphertexts and ids than the recorded one.
 * Values the recorded responses returned are mapped to the values the replayed responses return
 * at the same JSON position, and substituted in later requests, so the replay does the same work
 * (a request with a stale token would be refused early and flatter the target).
 */
import pactum from 'pactum';
import type { Recorded } from './proxy.js';

const { spec, settings } = pactum;
settings.setLogLevel('SILENT');

function leaves(value: unknown, path: string, out: Map<string, string>): void {
  if (typeof value === 'string') {
    // Tokens, accessors, ciphertexts, ids; not timestamps, which no request sends back.
    if (value.length >= 8 && !/^\d{4}-\d\d-\d\dT/.test(value)) out.set(path, value);
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) leaves(v, `${path}/${i}`, out);
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, `${path}/${k}`, out);
}

function parse(buf: Buffer): unknown {
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch {
    return undefined;
  }
}

export interface ReplayResult {
  requests: number;
  seconds: number;
  /** Time spent in the client library waiting for the target, summed over requests. */
  requestSeconds: number;
  /** Replayed answers whose status differs from the recorded one (how faithful the replay was). */
  statusDiffers: number;
}

export async function replay(
  records: Recorded[],
  addrs: { svc: string; sched?: string },
  initial: Map<string, string>,
  timeoutMs = 30_000,
): Promise<ReplayResult> {
  const mapping = new Map(initial);
  const substitute = (text: string): string => {
    let out = text;
    for (const [from, to] of mapping) if (out.includes(from)) out = out.split(from).join(to);
    return out;
  };
  let statusDiffers = 0;
  let inRequests = 0;
  const started = performance.now();
  for (const r of records) {
    const base = r.api === 'svc' ? addrs.svc : addrs.sched;
    if (!base) continue;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers))
      if (k !== 'host' && k !== 'content-length') headers[k] = substitute(v);
    let req = spec()
      .withMethod(r.method as 'GET')
      .withPath(`${base}${substitute(r.url)}`)
      .withHeaders(headers)
      .withRequestTimeout(timeoutMs);
    if (r.body.length) req = req.withBody(mapping.size ? substitute(r.body.toString('utf8')) : r.body.toString('utf8'));
    let res: { statusCode: number; body: unknown; text?: string };
    const sent = performance.now();
    try {
      res = (await req.toss()) as unknown as typeof res;
    } catch {
      statusDiffers++;
      continue;
    } finally {
      inRequests += performance.now() - sent;
    }
    if (res.statusCode !== r.status) statusDiffers++;
    const recorded = parse(r.responseBody);
    if (recorded === undefined) continue;
    const now = typeof res.body === 'string' ? parse(Buffer.from(res.body)) : res.body;
    const before = new Map<string, string>();
    const after = new Map<string, string>();
    leaves(recorded, '', before);
    leaves(now, '', after);
    for (const [path, value] of before) {
      const replayed = after.get(path);
      if (replayed !== undefined && replayed !== value && !mapping.has(value)) mapping.set(value, replayed);
    }
  }
  return {
    requests: records.length,
    seconds: (performance.now() - started) / 1000,
    requestSeconds: inRequests / 1000,
    statusDiffers,
  };
}
