/**
 * The incremental fault proof's selection (harness/cli/mutation-changed.ts): which faults a change
 * touched, the seeded sample of the others, and when the run fails (harness/cli/mutation.ts): a
 * touched fault that survives fails it, as does a sampled one the published proof had killed.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  changedEntries,
  daySeed,
  isRequirementsFile,
  isStatementsPath,
  isSwitchTable,
  movedSince,
  referenceArea,
  sample,
  switchTables,
  touchedBy,
  type TouchContext,
} from '../../harness/cli/mutation-changed.js';
import { changedVerdict, type MutationReport } from '../../harness/cli/mutation.js';
import type { Outcome } from '../../harness/cli/mutation-verdicts.js';
import type { FaultProof } from '../../harness/cli/mutation-proof.js';
import { allFaults } from '../../reference/switch-registry.js';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';

const fault = (name: string, breaks: string, statements: string[] = []) => ({
  name,
  breaks,
  suites: [name.split('.')[0]!],
  description: '',
  statements,
});

const context = (over: Partial<TouchContext> = {}): TouchContext => ({
  testIds: new Map([
    ['suites/kv/v1.test.ts', new Set(['kv.v1.write-read'])],
    ['suites/kv/v2.test.ts', new Set(['kv.v2.read', 'kv.v2.cas'])],
    ['suites/core/errors.test.ts', new Set(['core.errors.body'])],
  ]),
  caseIds: new Map([['suites/kv/wrong-types.cases.yaml', new Set(['kv.v2.cas'])]]),
  changedEntries: (file) => (file === 'spec/kv/requirements.yaml' ? ['kv.v2.read'] : ['doc.core.errors.body']),
  faults: [
    fault('kv.v1-broken', 'kv.v1.write-read'),
    fault('kv.v2-read-broken', 'kv.v2.read'),
    fault('kv.cas-ignored', 'kv.v2.cas'),
    fault('core.errors-broken', 'core.errors.body', ['doc.core.errors.body']),
    fault('transit.other', 'transit.x'),
  ],
  tableOf: new Map([
    ['kv.v1-broken', 'reference/secrets/engines/kv/switches.ts'],
    ['kv.v2-read-broken', 'reference/secrets/engines/kv/switches.ts'],
    ['kv.cas-ignored', 'reference/secrets/engines/kv/switches.ts'],
    ['core.errors-broken', 'reference/secrets/core-switches.ts'],
    ['transit.other', 'reference/secrets/engines/transit/switches/data.ts'],
  ]),
  statementsOf: new Map([['core.errors.body', ['doc.core.errors.body']]]),
  ...over,
});

const names = (changed: string[], over?: Partial<TouchContext>) =>
  [...touchedBy(changed, context(over)).faults.keys()].sort();

describe('touchedBy', () => {
  it('maps a test file to the requirements its tests name, and those to their faults', () => {
    expect(names(['suites/kv/v2.test.ts'])).toEqual(['kv.cas-ignored', 'kv.v2-read-broken']);
  });

  it("maps a case table through the index, and a suite's other files to the whole suite", () => {
    expect(names(['suites/kv/wrong-types.cases.yaml'])).toEqual(['kv.cas-ignored']);
    expect(names(['suites/kv/helpers.ts'])).toEqual(['kv.cas-ignored', 'kv.v1-broken', 'kv.v2-read-broken']);
  });

  it('maps a catalogue file to the entries that changed, a statement file to the requirements and faults naming them', () => {
    expect(names(['spec/kv/requirements.yaml'])).toEqual(['kv.v2-read-broken']);
    expect(names(['spec/core/statements.yaml'])).toEqual(['core.errors-broken']);
    expect(names(['spec/jobs/statements-rules.yaml'])).toEqual(['core.errors-broken']);
    // An area's OpenAPI document and the shared schemas name no requirement: left to the sample.
    expect(names(['spec/kv/openapi.yaml', 'spec/shared/components.yaml', 'spec/shared/unquoted.yaml'])).toEqual([]);
  });

  it('knows the requirements and statements files of every area', () => {
    expect(isRequirementsFile('spec/ldap/requirements.yaml')).toBe(true);
    expect(isRequirementsFile('generated/catalogue/robustness.yaml')).toBe(true);
    expect(isRequirementsFile('spec/ldap/openapi.yaml')).toBe(false);
    expect(isStatementsPath('spec/transit/statements-keys.yaml')).toBe(true);
    expect(isStatementsPath('spec/kv/statements.yaml')).toBe(true);
    expect(isStatementsPath('spec/shared/statements.schema.json')).toBe(false);
  });

  // The commit that moved the spec into one folder per area (absent from a shallow clone).
  const moveCommit = (() => {
    try {
      return execFileSync('git', ['log', '--format=%H', '-1', '--diff-filter=A', '--', 'spec/kv/requirements.yaml'], {
        cwd: PACKAGE_ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return '';
    }
  })();
  it.skipIf(!moveCommit)('compares a moved file with its own past, not as all new', () => {
    const before = `${moveCommit}~1`;
    const moved = movedSince(before);
    expect(moved.get('spec/kv/requirements.yaml')).toBe('spec/catalogue/kv.yaml');
    expect(moved.get('spec/core/statements.yaml')).toBe('spec/statements/core-conventions.yaml');
    // Read at its old path, the moved file differs from its past only where it was edited since
    // (nothing, at the move); read as new, every entry would count as changed.
    const asNew = changedEntries(before, 'spec/kv/requirements.yaml');
    const asMoved = changedEntries(before, 'spec/kv/requirements.yaml', moved.get('spec/kv/requirements.yaml'));
    expect(asNew.length).toBeGreaterThan(asMoved.length);
  });

  it("maps a switch table to the faults it declares, another file of a reference area to the area's faults", () => {
    expect(names(['reference/secrets/core-switches.ts'])).toEqual(['core.errors-broken']);
    expect(names(['reference/secrets/engines/kv/rules.ts'])).toEqual([
      'kv.cas-ignored',
      'kv.v1-broken',
      'kv.v2-read-broken',
    ]);
    // The core's area is reference/secrets/ without the engines.
    expect(names(['reference/secrets/core.ts'])).toEqual(['core.errors-broken']);
  });

  it('leaves the harness, suites/lib and the documents to the sample, and takes a fault the proof does not list', () => {
    expect(names(['harness/checks/index.ts', 'suites/lib/together.ts', 'docs/AUTHORING.md'])).toEqual([]);
    expect(
      names([], { published: new Set(['kv.v1-broken', 'kv.v2-read-broken', 'kv.cas-ignored', 'core.errors-broken']) }),
    ).toEqual(['transit.other']);
  });

  it('knows switch tables and areas as switch-sites.test.ts does', () => {
    expect(isSwitchTable('reference/secrets/engines/transit/switches/data.ts')).toBe(true);
    expect(isSwitchTable('reference/secrets/core-wire-switches.ts')).toBe(true);
    expect(isSwitchTable('reference/secrets/engines/kv/rules.ts')).toBe(false);
    expect(referenceArea('reference/scheduler/jobs.ts')).toBe('reference/scheduler/');
    expect(referenceArea('reference/start.ts')).toBeUndefined();
  });

  it('finds the table of every declared fault', () => {
    const tables = switchTables(allFaults);
    expect(allFaults.filter((f) => !tables.has(f.name)).map((f) => f.name)).toEqual([]);
  });
});

describe('sample', () => {
  const pool = Array.from({ length: 50 }, (_, i) => `f${i}`);
  it('draws the same names for the same seed, others for another, n of them', () => {
    expect(sample(pool, 5, 42)).toEqual(sample([...pool].reverse(), 5, 42));
    expect(sample(pool, 5, 42)).not.toEqual(sample(pool, 5, 43));
    expect(sample(pool, 5, 1)).toHaveLength(5);
    expect(sample(pool, 0, 1)).toEqual([]);
    expect(daySeed(new Date('2026-11-28T10:00:00Z'))).toBe(20261128);
  });
});

describe('changedVerdict', () => {
  const outcome = (name: string, verdict: Outcome['verdict']): Outcome => ({
    fault: name,
    breaks: 'x',
    suites: ['kv'],
    verdict,
    byTarget: verdict === 'killed',
    failedTests: [],
    charged: [],
    beyond: [],
    radiusScope: 'files',
    testsRun: 1,
  });
  const report = (...o: Outcome[]) => ({ faults: { outcomes: o } }) as unknown as MutationReport;
  const published = {
    faults: { byName: { 'kv.was-killed': { verdict: 'killed' }, 'kv.known-gap': { verdict: 'survived' } } },
  } as unknown as FaultProof;
  const choice = (touched: string[], sampled: string[]) => ({
    since: 'x',
    changed: [],
    touched: new Map(touched.map((t) => [t, 'why'])),
    sampled,
    faults: [],
  });

  it('fails on a touched fault that survives (a fault planted in a touched requirement that no test kills)', () => {
    expect(changedVerdict(choice(['kv.planted'], []), report(outcome('kv.planted', 'survived')), published)).toBe(
      false,
    );
    expect(changedVerdict(choice(['kv.planted'], []), report(outcome('kv.planted', 'killed')), published)).toBe(true);
  });

  it('fails on a sampled fault the published proof had killed, not on one it lists as surviving', () => {
    expect(changedVerdict(choice([], ['kv.was-killed']), report(outcome('kv.was-killed', 'survived')), published)).toBe(
      false,
    );
    expect(changedVerdict(choice([], ['kv.known-gap']), report(outcome('kv.known-gap', 'survived')), published)).toBe(
      true,
    );
  });
});
