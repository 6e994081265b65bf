import { describe, expect, it } from 'vitest';
import { specRegistry } from '../../harness/spec/registry.js';
import { specPath, checkAgainstSpec } from '../../harness/checks/schema.js';
import type { Exchange } from '../../harness/http/exchange.js';

const ex = (method: string, path: string, status: number, body: unknown): Exchange => ({
  api: 'svc',
  request: { method, url: `http://x/v1${path}`, path, headers: {} },
  response: {
    status,
    headers: { 'content-type': 'application/json' },
    body,
    text: JSON.stringify(body),
    contentType: 'application/json',
  },
  durationMs: 1,
});

describe('spec registry and the spec check', () => {
  it("maps run-unique mounts and namespaces back to the documents' default mounts", () => {
    const aliases = new Map([['cf-ab-secret-1', 'secret']]);
    expect(specPath('/cf-ab-secret-1/data/x/y', { mountAliases: aliases, namespace: '' })).toBe('/secret/data/x/y');
    expect(specPath('/team/cf-ab-secret-1/data/x', { mountAliases: aliases, namespace: 'team' })).toBe(
      '/secret/data/x',
    );
  });

  it('finds operations whose parameters span slashes', async () => {
    const reg = await specRegistry();
    const op = reg.find('svc', 'GET', '/secret/data/a/b/c');
    expect(op?.template).toBe('/secret/data/{path}');
  });

  it('a response that breaks its schema fails with the pointer, expected and actual', async () => {
    const reg = await specRegistry();
    const bad = ex('GET', '/secret/data/x', 200, { data: { data: 'not-an-object', metadata: {} } });
    expect(() => checkAgainstSpec(bad, reg, { mountAliases: new Map(), namespace: '' })).toThrowError(/\/data\/data/);
  });

  it('an error status without the errors array fails', async () => {
    const reg = await specRegistry();
    const bad = ex('GET', '/secret/data/x', 403, { message: 'nope' });
    expect(() => checkAgainstSpec(bad, reg, { mountAliases: new Map(), namespace: '' })).toThrowError(/errors|schema/);
  });

  it("a 404 without the errors array or the real product's envelope variants fails", async () => {
    const reg = await specRegistry();
    const bad = ex('GET', '/secret/data/x', 404, { message: 'nope' });
    expect(() => checkAgainstSpec(bad, reg, { mountAliases: new Map(), namespace: '' })).toThrowError(
      /violates the schema/,
    );
    const deleted = ex('GET', '/secret/data/x', 404, {
      data: { data: null, metadata: { version: 2, destroyed: false } },
    });
    expect(checkAgainstSpec(deleted, reg, { mountAliases: new Map(), namespace: '' })).toContain('/secret/data/{path}');
  });

  it('a documented success passes', async () => {
    const reg = await specRegistry();
    const good = ex('GET', '/secret/data/x', 200, {
      request_id: '5f0c3e9a-1f0a-4d5e-9a1b-2c3d4e5f6a7b',
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      data: {
        data: { a: '1' },
        metadata: { version: 1, created_time: '2026-01-01T00:00:00Z', deletion_time: '', destroyed: false },
      },
      wrap_info: null,
      warnings: null,
      auth: null,
    });
    expect(checkAgainstSpec(good, reg, { mountAliases: new Map(), namespace: '' })).toContain('/secret/data/{path}');
  });
});

describe('generic answers', () => {
  const helpEx = (body: unknown): Exchange => ({
    api: 'svc',
    request: { method: 'GET', url: 'http://x/v1/secret/data/x?help=1', path: '/secret/data/x', headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body,
      text: JSON.stringify(body),
      contentType: 'application/json',
    },
    durationMs: 1,
  });
  it('a help answer is checked against the generic help schema', async () => {
    const reg = await specRegistry();
    expect(
      checkAgainstSpec(helpEx({ help: '# x', openapi: { openapi: '3.0.2', paths: {} } }), reg, {
        mountAliases: new Map(),
        namespace: '',
      }),
    ).toBe('generic help');
    expect(() =>
      checkAgainstSpec(helpEx({ help: '# x' }), reg, { mountAliases: new Map(), namespace: '' }),
    ).toThrowError(/help schema/);
  });
});
