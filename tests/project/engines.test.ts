/**
 * `engines` accepts every maintained Node line (20, 22, 24 and later) and no version a dependency
 * refuses: the lowest version of each line of the range must satisfy the `engines.node` of every
 * package in package-lock.json (docs/DEPENDENCIES.md, "Node versions").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};
const range = pkg.engines.node;

/** The lowest version of each alternative of the range (`^20.19.0 || ^22.13.0 || >=24` -> 20.19.0, 22.13.0, 24.0.0). */
function floors(r: string): string[] {
  return new semver.Range(r).set.map((comparators) => {
    const low = comparators.find((c) => c.operator === '>=' || c.operator === '');
    return low!.semver.version;
  });
}

describe('engines', () => {
  it('accepts every maintained Node line', () => {
    for (const line of ['20', '22', '24', '26'])
      expect(
        semver.intersects(range, `${line}.x`),
        `engines ${range} accepts some Node ${line} (docs/DEPENDENCIES.md)`,
      ).toBe(true);
    expect(floors(range).map((v) => semver.major(v))).toEqual([20, 22, 24]);
  });

  it('asks for no Node a locked dependency refuses', () => {
    const refused: string[] = [];
    for (const floor of floors(range))
      for (const [where, p] of Object.entries(lock.packages)) {
        const wanted = Array.isArray(p.engines) ? undefined : p.engines?.node;
        if (!where || !wanted) continue;
        if (!semver.satisfies(floor, wanted))
          refused.push(`${where.replace(/^.*node_modules\//, '')} wants node ${wanted}, engines allows ${floor}`);
      }
    expect(refused).toEqual([]);
  });

  it('is the same in package.json and package-lock.json', () => {
    expect((lock.packages[''] as { engines?: { node?: string } }).engines?.node).toBe(range);
  });
});
