/** Unit tests of the reference key-value engine: listing, versions, soft delete and time-based deletion. */
import { afterEach, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../../../../reference/clock.js';
import { Variants } from '../../../../../reference/variants.js';
import { Faults } from '../../../../../reference/faults.js';
import type { Engine, EngineContext, EngineRequest } from '../../../../../reference/secrets/engine.js';
import { factory, listUnder } from '../../../../../reference/secrets/engines/kv/index.js';

const clocks: ControllableClock[] = [];
afterEach(() => {
  for (const c of clocks.splice(0)) c.close();
});

async function engine(version: '1' | '2', faults: string[] = []): Promise<{ kv: Engine; clock: ControllableClock }> {
  const clock = new ControllableClock();
  clocks.push(clock);
  const ctx = {
    clock,
    faults: new Faults(faults),
    variants: new Variants(),
    options: { version },
    mountPath: 'kv/',
    log: () => {},
  } as unknown as EngineContext;
  return { kv: await factory(ctx), clock };
}

function req(
  method: EngineRequest['method'],
  path: string,
  body: Record<string, unknown> = {},
  query = '',
): EngineRequest {
  const operation = method === 'GET' ? 'read' : method === 'LIST' ? 'list' : method === 'DELETE' ? 'delete' : 'update';
  return {
    operation,
    method,
    path,
    body,
    rawBody: Buffer.from(JSON.stringify(body)),
    query: new URLSearchParams(query),
    headers: {},
    token: { id: '', accessor: '', entityId: '', displayName: '', policies: [], root: true },
    can: () => true,
  };
}

describe('listUnder', () => {
  const keys = ['a', 'd/x', 'd/y/z', 'd/y/w', 'other'];
  it('lists direct children, folders once with a trailing slash', () => {
    expect(listUnder(keys, 'd/')).toEqual(['x', 'y/']);
  });
  it('lists the top level for the empty prefix', () => {
    expect(listUnder(keys, '')).toEqual(['a', 'd/', 'other']);
  });
  it('finds nothing under a leaf', () => {
    expect(listUnder(keys, 'a/')).toEqual([]);
  });
});

describe('kv version 2', () => {
  it('numbers versions from 1 and reads old ones', async () => {
    const { kv } = await engine('2');
    await kv.handle(req('POST', 'data/k', { data: { n: 1 } }));
    const second = await kv.handle(req('POST', 'data/k', { data: { n: 2 } }));
    expect((second.data as { version: number }).version).toBe(2);
    const old = await kv.handle(req('GET', 'data/k', {}, 'version=1'));
    expect((old.data as { data: { n: number } }).data.n).toBe(1);
  });

  it('answers a soft-deleted version with 404 and restores it on undelete', async () => {
    const { kv } = await engine('2');
    await kv.handle(req('POST', 'data/k', { data: { n: 1 } }));
    await kv.handle(req('POST', 'delete/k', { versions: [1] }));
    expect((await kv.handle(req('GET', 'data/k'))).status).toBe(404);
    await kv.handle(req('POST', 'undelete/k', { versions: [1] }));
    expect((await kv.handle(req('GET', 'data/k'))).status ?? 200).toBe(200);
  });

  it('deletes a version once delete_version_after has passed on the clock', async () => {
    const { kv, clock } = await engine('2');
    await kv.handle(req('POST', 'metadata/k', { delete_version_after: '10s' }));
    const written = await kv.handle(req('POST', 'data/k', { data: { n: 1 } }));
    expect((written.data as { deletion_time: string }).deletion_time).not.toBe('');
    expect((await kv.handle(req('GET', 'data/k'))).status ?? 200).toBe(200);
    await clock.advance(11_000);
    expect((await kv.handle(req('GET', 'data/k'))).status).toBe(404);
  });

  it('refuses a stale check-and-set write', async () => {
    const { kv } = await engine('2');
    await kv.handle(req('POST', 'data/k', { data: { n: 1 } }));
    await expect(kv.handle(req('POST', 'data/k', { data: { n: 2 }, options: { cas: 0 } }))).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('kv version 1', () => {
  it('replaces the fields on a second write', async () => {
    const { kv } = await engine('1');
    await kv.handle(req('POST', 'a/b', { x: '1', y: '2' }));
    await kv.handle(req('POST', 'a/b', { z: '3' }));
    expect((await kv.handle(req('GET', 'a/b'))).data).toEqual({ z: '3' });
  });

  it('rejects an empty write', async () => {
    const { kv } = await engine('1');
    await expect(kv.handle(req('POST', 'a', {}))).rejects.toMatchObject({ status: 400 });
  });
});
