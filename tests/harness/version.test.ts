/**
 * Where the target's version comes from: the config or environment, a version probe the dialect
 * profile defines, or nowhere (unknown: version-gated tests are not applicable), never the
 * reference's default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, readConfigFile } from '../../harness/config/load.js';
import { resolveVersion } from '../../harness/setup/version.js';

let server: Server;
let addr = '';
let answer: { status: number; body: unknown } = { status: 200, body: { version: '2.6.2', initialized: true } };

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(req.url === '/v1/sys/health' ? answer.status : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.url === '/v1/sys/health' ? answer.body : { errors: [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  addr = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const quiet = () => {};
const external = (env: Record<string, string> = {}, file?: string) =>
  loadConfig({ file, env: { SVC_ADDR: addr, SVC_TOKEN: 'a-long-enough-token', ...env } });

describe('target version', () => {
  it('has no default on an external target: unknown, naming the settings', async () => {
    const cfg = external();
    expect(cfg.svc.version).toBe('');
    await resolveVersion(cfg, quiet);
    expect(cfg.svc.version).toBe('');
    expect(cfg.svc.versionSource).toMatch(/unknown.*svc\.version \(SVC_VERSION\).*dialect\.versionProbe/);
  });

  it('comes from SVC_VERSION, and the report says so', async () => {
    const cfg = external({ SVC_VERSION: '1.14.2' });
    await resolveVersion(cfg, quiet);
    expect(cfg.svc.version).toBe('1.14.2');
    expect(cfg.svc.versionSource).toBe('environment (SVC_VERSION)');
  });

  it("comes from the profile's version probe (the upstream products answer sys/health with version)", async () => {
    const profile = readConfigFile('fixtures/profiles/upstream-names.yaml') as { dialect: { versionProbe?: unknown } };
    expect(profile.dialect.versionProbe).toEqual({ path: 'sys/health', pointer: '/version' });
    const cfg = external({}, 'fixtures/profiles/upstream-names.yaml');
    await resolveVersion(cfg, quiet);
    expect(cfg.svc.version).toBe('2.6.2');
    expect(cfg.svc.versionSource).toMatch(/probe GET \/v1\/sys\/health \/version/);
  });

  it('the config wins over the probe', async () => {
    const cfg = external({ SVC_VERSION: '1.13.9' }, 'fixtures/profiles/upstream-names.yaml');
    await resolveVersion(cfg, quiet);
    expect(cfg.svc.version).toBe('1.13.9');
  });

  it('a probe that finds no version leaves it unknown with the reason', async () => {
    answer = { status: 200, body: { initialized: true } };
    try {
      const cfg = external({}, 'fixtures/profiles/upstream-names.yaml');
      await resolveVersion(cfg, quiet);
      expect(cfg.svc.version).toBe('');
      expect(cfg.svc.versionSource).toMatch(/unknown.*without a version/);
    } finally {
      answer = { status: 200, body: { version: '2.6.2' } };
    }
  });

  it('the embedded reference reports its own version', async () => {
    const cfg = loadConfig({ env: {} });
    cfg.embedded = true;
    await resolveVersion(cfg, quiet);
    expect(cfg.svc.version).toBe(cfg.reference.version);
    expect(cfg.svc.versionSource).toMatch(/embedded reference/);
  });
});
