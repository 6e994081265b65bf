/**
 * Sensitivity measured against the documents, not against the tests: a mutation run's kills per
 * statement of the inventory (spec/<area>/statements*.yaml). A statement is killed when every fault of this
 * run that declares it (`statements:` in the reference's switch tables) was killed; killed on its
 * own requirement when each of them was also failed by a test of the requirement it breaks.
 * Testable statements no fault declares are listed: a statement nobody broke on purpose is not
 * proved to be checked.
 */
import type { Statement } from '../spec/statements.js';

export interface FaultOfStatement {
  name: string;
  statements?: readonly string[];
}

export interface FaultVerdict {
  fault: string;
  verdict: 'killed' | 'survived' | 'error';
  byTarget: boolean;
}

export interface StatementKills {
  /** Statements the inventory does not mark untestable. */
  testable: number;
  /** Testable statements that at least one fault of the reference declares. */
  withFault: number;
  /** Testable statements that at least one fault of this run declares. */
  measured: number;
  /** Of those, every fault of this run that declares it was killed. */
  killed: number;
  /** Of those, every such fault was killed by a test of the requirement it breaks. */
  killedOnOwnRequirement: number;
  /** measured statements with a fault that survived (or could not run), and those faults. */
  survivors: { statement: string; faults: string[] }[];
  /** Testable statements no fault of the reference declares. */
  withoutFault: string[];
}

export function statementKills(
  statements: readonly Statement[],
  faults: readonly FaultOfStatement[],
  outcomes: readonly FaultVerdict[],
): StatementKills {
  const testable = statements.filter((s) => !s.untestable);
  const declaring = new Map<string, string[]>();
  for (const f of faults)
    for (const id of f.statements ?? []) declaring.set(id, [...(declaring.get(id) ?? []), f.name]);
  const byFault = new Map(outcomes.map((o) => [o.fault, o]));
  let measured = 0;
  let killed = 0;
  let own = 0;
  const survivors: StatementKills['survivors'] = [];
  for (const s of testable) {
    const ran = (declaring.get(s.id) ?? []).filter((name) => byFault.has(name)).map((name) => byFault.get(name)!);
    if (!ran.length) continue;
    measured++;
    const alive = ran.filter((o) => o.verdict !== 'killed');
    if (alive.length) {
      survivors.push({ statement: s.id, faults: alive.map((o) => o.fault) });
      continue;
    }
    killed++;
    if (ran.every((o) => o.byTarget)) own++;
  }
  return {
    testable: testable.length,
    withFault: testable.filter((s) => declaring.has(s.id)).length,
    measured,
    killed,
    killedOnOwnRequirement: own,
    survivors,
    withoutFault: testable.filter((s) => !declaring.has(s.id)).map((s) => s.id),
  };
}

/** The terminal lines of the per-statement figures. */
export function statementKillLines(k: StatementKills): string[] {
  const pct = (n: number, of: number) => (of ? ((100 * n) / of).toFixed(1) : '0.0');
  return [
    `statements killed: ${k.killed}/${k.testable} testable (${pct(k.killed, k.testable)}%), ${k.killedOnOwnRequirement} on their own requirement; this run measured ${k.measured}`,
    `statements with a fault: ${k.withFault}/${k.testable}; without one: ${k.withoutFault.length}${k.withoutFault.length ? ` (e.g. ${k.withoutFault.slice(0, 5).join(', ')})` : ''}`,
    ...(k.survivors.length
      ? [
          `statements whose fault survived: ${k.survivors
            .slice(0, 8)
            .map((s) => `${s.statement} (${s.faults.join(', ')})`)
            .join('; ')}${k.survivors.length > 8 ? '; ...' : ''}`,
        ]
      : []),
  ];
}
