/** Kills per statement: a statement is killed when every fault of the run that declares it was. */
import { describe, expect, it } from 'vitest';
import { statementKills } from '../../harness/cli/mutation-statements.js';
import type { Statement } from '../../harness/spec/statements.js';

const st = (id: string, untestable = false): Statement => ({
  id,
  section: 's',
  kind: 'rule',
  quote: 'q',
  document: 'secrets-service-core.md',
  file: 'f',
  ...(untestable ? { untestable: { class: 'cluster', reason: 'needs several nodes' } } : {}),
});

describe('statementKills', () => {
  const statements = [st('doc.core.a'), st('doc.core.b'), st('doc.core.c'), st('doc.core.d'), st('doc.core.x', true)];
  const faults = [
    { name: 'f1', statements: ['doc.core.a'] },
    { name: 'f2', statements: ['doc.core.b'] },
    { name: 'f3', statements: ['doc.core.b'] },
    { name: 'f4', statements: ['doc.core.c'] },
    { name: 'f5' },
  ];

  it('counts a statement killed only when every fault of the run that declares it was killed', () => {
    const k = statementKills(statements, faults, [
      { fault: 'f1', verdict: 'killed', byTarget: true },
      { fault: 'f2', verdict: 'killed', byTarget: true },
      { fault: 'f3', verdict: 'survived', byTarget: false },
      { fault: 'f4', verdict: 'killed', byTarget: false },
    ]);
    expect(k.testable).toBe(4);
    expect(k.withFault).toBe(3);
    expect(k.measured).toBe(3);
    expect(k.killed).toBe(2);
    expect(k.killedOnOwnRequirement).toBe(1);
    expect(k.survivors).toEqual([{ statement: 'doc.core.b', faults: ['f3'] }]);
    expect(k.withoutFault).toEqual(['doc.core.d']);
  });

  it('measures only the statements whose faults ran', () => {
    const k = statementKills(statements, faults, [{ fault: 'f4', verdict: 'killed', byTarget: true }]);
    expect(k.measured).toBe(1);
    expect(k.killed).toBe(1);
  });
});
