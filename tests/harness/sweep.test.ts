/** The final sweep finds what a run left behind on the target, reports it and removes it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/start.js';
import { loadConfig } from '../../harness/config/load.js';
import { ApiClient } from '../../harness/http/client.js';
import { sweepLeftovers } from '../../harness/setup/sweep.js';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ rootToken: 'sweep-root-token', quiet: true });
}, 30_000);
afterAll(() => ref?.stop());

describe('sweepLeftovers', () => {
  it('reports and removes a mount, a policy and a namespace (with its child) carrying the run prefix, and nothing else', async () => {
    const cfg = loadConfig({ env: { SVC_ADDR: ref.svcAddr, SVC_TOKEN: 'sweep-root-token' }, cli: { suite: ['kv'] } });
    const svc = new ApiClient('svc', cfg, () => {});
    expect((await svc.post(`sys/mounts/${cfg.prefix}-forgotten`, { body: { type: 'kv' } })).response.status).toBe(204);
    expect(
      (
        await svc.put(`sys/policies/acl/${cfg.prefix}-pol`, {
          body: { policy: 'path "x/*" { capabilities = ["read"] }' },
        })
      ).response.status,
    ).toBe(204);
    expect((await svc.post('sys/mounts/not-ours', { body: { type: 'kv' } })).response.status).toBe(204);
    // A namespace holding a child namespace: the child is deleted first.
    const ns = `${cfg.prefix}-ns`;
    expect((await svc.post(`sys/namespaces/${ns}`, { body: {} })).response.status).toBeLessThan(300);
    expect((await svc.post('sys/namespaces/inner', { body: {}, namespace: ns })).response.status).toBeLessThan(300);
    expect((await svc.post('sys/namespaces/not-ours-ns', { body: {} })).response.status).toBeLessThan(300);
    const swept = await sweepLeftovers(cfg);
    expect(swept.map((s) => s.label).sort()).toEqual([
      `mount ${cfg.prefix}-forgotten/`,
      `namespace ${ns}`,
      `policy ${cfg.prefix}-pol`,
    ]);
    expect(swept.every((s) => s.error === 'left behind by the run; removed by the final sweep')).toBe(true);
    const left = (await svc.list('sys/namespaces')).response.body as { data?: { keys?: string[] } };
    expect(left.data?.keys).toEqual(['not-ours-ns/']);
    const mounts = Object.keys(((await svc.get('sys/mounts')).response.body as { data: object }).data);
    expect(mounts).toContain('not-ours/');
    expect(mounts).not.toContain(`${cfg.prefix}-forgotten/`);
  });
});
