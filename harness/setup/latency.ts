/**
 * The round trip to an external target, measured by the command line before the run starts, to
 * size how many tests of a file are in flight at once (harness/cli/projects.ts): the farther the
 * target, the longer each test waits on it, and the more tests overlap their waits. A few plain
 * HTTP requests without a token over one kept-alive connection (any answer is a round trip); the
 * fastest after the first, which pays the connection and TLS set-up. Bounded: a target that does
 * not answer in time leaves the latency unknown, and the default applies.
 */
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { TargetConfig } from '../config/types.js';

const REQUESTS = 4;
const TIMEOUT_MS = 2000;

function roundTrip(url: URL, agent: HttpAgent, ca?: Buffer, insecure?: boolean): Promise<number> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'GET',
        agent,
        timeout: TIMEOUT_MS,
        ...(ca ? { ca } : {}),
        ...(insecure ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Milliseconds of one round trip to the target's secrets service (or its scheduler), or undefined. */
export async function measureLatency(cfg: TargetConfig): Promise<number | undefined> {
  const svc = cfg.svc.addr;
  const base = svc || cfg.sched.addr;
  if (!base) return undefined;
  const url = new URL(svc ? `${svc.replace(/\/+$/, '')}/v1/sys/health` : `${base.replace(/\/+$/, '')}/v1/jobs`);
  const https = url.protocol === 'https:';
  const agent = https
    ? new HttpsAgent({ keepAlive: true, maxSockets: 1 })
    : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  try {
    const ca = svc && cfg.svc.cacert ? readFileSync(cfg.svc.cacert) : undefined;
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) times.push(await roundTrip(url, agent, ca, !!(svc && cfg.svc.skipVerify)));
    return Math.min(...times.slice(1));
  } catch {
    return undefined;
  } finally {
    agent.destroy();
  }
}
