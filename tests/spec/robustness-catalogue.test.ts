/**
 * The generated robustness catalogue stays in sync with the spec: an operation added, removed or
 * given an x-observed-by link changes the entries, and `npm run robustness:catalogue` rewrites them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_CATALOGUE_DIR } from '../../harness/spec/paths.js';
import { specRegistry } from '../../harness/spec/registry.js';
import { renderCatalogues } from '../../harness/robustness/catalogue.js';
import { planOperation } from '../../harness/robustness/plan.js';

describe('robustness catalogue', async () => {
  const registry = await specRegistry();
  const files = renderCatalogues(registry);
  for (const [file, text] of Object.entries(files)) {
    it(`generated/catalogue/${file} is what the spec generates (npm run robustness:catalogue)`, () => {
      expect(
        readFileSync(join(GENERATED_CATALOGUE_DIR, file), 'utf8'),
        `generated/catalogue/${file} is stale: run \`npm run robustness:catalogue\` and commit it`,
      ).toBe(text);
    });
  }
  it('every x-observed-by names a GET operation of the same API', () => {
    const byId = new Map(registry.operations.map((o) => [o.operationId, o]));
    for (const op of registry.operations) {
      const plan = planOperation(op);
      if (!plan.observer) continue;
      const observer = byId.get(plan.observer.operationId);
      expect(observer, `${plan.operationId}: x-observed-by ${plan.observer.operationId} exists`).toBeDefined();
      expect(observer!.method, `${plan.operationId}: the observer is a read`).toBe('GET');
      expect(observer!.api).toBe(op.api);
    }
  });

  it('every x-observed-by entry names a path parameter or a body property of the write', () => {
    const withEntries = registry.operations.map(planOperation).filter((p) => p.observer?.entries);
    // sys/auth and sys/mounts list every mount of the target: other files' mounts must not count.
    expect(withEntries.map((p) => p.operationId).sort()).toEqual(
      expect.arrayContaining(['enableAuthMethod', 'remountSecretsEngine']),
    );
    for (const plan of withEntries) {
      const properties = Object.keys((plan.jsonBody as { properties?: object } | undefined)?.properties ?? {});
      for (const tpl of plan.observer!.entries!)
        for (const [, name] of tpl.matchAll(/\{([^}]+)\}/g))
          expect([...plan.pathParams, ...properties], `${plan.operationId}: ${tpl}`).toContain(name);
    }
  });
});
