/**
 * A run with only SCHED_ADDR set and the upstream profile: the external scheduler gets the
 * profile's scheduler header and never a secrets-service header; the embedded secrets service
 * keeps the documents' header names (the profile describes the external product only) and never
 * gets the scheduler's; moving scheduler time goes to the scheduler, not the secrets service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../harness/config/load.js';
import { prepareTarget, type PreparedTarget } from '../../harness/setup/target.js';
import { embeddedReference } from '../../compose/reference.js';
import { ApiClient } from '../../harness/http/client.js';
import { moveTime } from '../../harness/author/time.js';

const seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
const fake = http.createServer((req, res) => {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  req.resume();
  res.setHeader('Content-Type', 'application/json');
  // Answers like a scheduler with the reference's clock control and no ACLs.
  res.end(req.url?.startsWith('/v1/reference/clock') ? '{"now":0}' : '[]');
});
let prepared: PreparedTarget;

beforeAll(async () => {
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const schedAddr = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  const cfg = loadConfig({
    file: 'fixtures/profiles/upstream-names.yaml',
    env: { SCHED_ADDR: schedAddr, SCHED_TOKEN: 'sched-secret-9d2a' },
    cli: { suite: ['jobs'] },
  });
  prepared = await prepareTarget(cfg, embeddedReference, () => {});
}, 60_000);
afterAll(async () => {
  await prepared?.stop();
  await new Promise((r) => fake.close(r));
});

describe('headers per API', () => {
  it("the scheduler gets its own header only; the embedded secrets service the documents' names", async () => {
    const cfg = prepared.config;
    expect(cfg.dialect.schedTokenHeader).toBe('X-Nomad-Token');
    expect(cfg.dialect.tokenHeader, "the profile's secrets-service names are not applied to the embedded one").toBe(
      'X-Svc-Token',
    );
    const svc = new ApiClient('svc', cfg, () => {});
    const sched = new ApiClient('sched', cfg, () => {});
    const svcEx = await svc.get('sys/mounts');
    expect(svcEx.response.status, "the embedded secrets service accepts the documents' header").toBe(200);
    expect(Object.keys(svcEx.request.headers).map((h) => h.toLowerCase())).not.toContain('x-nomad-token');
    await sched.get('jobs');
    expect(cfg.capabilities.schedControl, 'probed on the fake scheduler').toBe(true);
    const skip = (reason: string): never => {
      throw new Error(reason);
    };
    const before = seen.length;
    await moveTime(cfg, 'sched', { svc, sched }, 3, skip);
    expect(
      seen.slice(before).map((s) => s.url),
      'scheduler time moves through the scheduler',
    ).toEqual(['/v1/reference/clock']);
    for (const s of seen) {
      const names = Object.keys(s.headers);
      expect(
        names.filter((h) => /^x-(svc|vault)-/.test(h)),
        `${s.method} ${s.url}`,
      ).toEqual([]);
    }
    expect(seen.some((s) => s.headers['x-nomad-token'] === 'sched-secret-9d2a')).toBe(true);
  });
});
