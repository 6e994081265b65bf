/** Mutation targeting reads the clean run's results (ids and files), never source text. */
import { describe, expect, it } from 'vitest';
import { filesTesting } from '../../harness/cli/mutation-targets.js';
import type { TestResult } from '../../harness/report/model.js';

const result = (file: string, ids: string[], extra: Partial<TestResult> = {}): TestResult => ({
  key: `${file} > t`,
  title: 't',
  file,
  area: file.split('/')[1] ?? 'x',
  ids,
  level: 'MUST',
  status: 'passed',
  durationMs: 1,
  ...extra,
});

describe('filesTesting', () => {
  const clean = {
    tests: [
      // a case from a table: its id is data, the file is the test file that runs the table
      result('suites/transit/validation.test.ts', ['transit.create.key-size-range']),
      result('suites/transit/keys.test.ts', ['transit.create.type', 'transit.create.key-size-range']),
      result('suites/transit/keys.test.ts', ['transit.create.key-size-range']),
      result('suites/core/errors.test.ts', ['transit.create.key-size-range']),
      result('spec/transit/openapi.yaml', ['transit.create.key-size-range'], { kind: 'schema' }),
      result('suites/transit/sign.test.ts', ['transit.sign.x']),
    ],
  };

  it('finds every test file of the fault suites whose results name the id, once, sorted', () => {
    expect(filesTesting(clean, ['transit'], 'transit.create.key-size-range')).toEqual([
      'suites/transit/keys.test.ts',
      'suites/transit/validation.test.ts',
    ]);
  });

  it('counts an id named in `also` (any of the result ids)', () => {
    expect(filesTesting(clean, ['transit'], 'transit.create.type')).toEqual(['suites/transit/keys.test.ts']);
  });

  it('stays inside the given suites and leaves schema results out', () => {
    expect(filesTesting(clean, ['core'], 'transit.create.key-size-range')).toEqual(['suites/core/errors.test.ts']);
    expect(filesTesting(clean, ['cloud'], 'transit.create.key-size-range')).toEqual([]);
  });

  it('finds nothing for an id no test names (the run then falls back to the whole suites)', () => {
    expect(filesTesting(clean, ['transit'], 'transit.nothing')).toEqual([]);
  });
});
