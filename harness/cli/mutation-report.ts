/**
 * What a mutation run measured (mutation.ts): its figures on the terminal, mutation.json, and the
 * incremental proof's verdict.
 */
import type { SwitchCatalogue } from '../../contract/switches.js';
import { loadStatements } from '../spec/statements.js';
import { statementKillLines, statementKills } from './mutation-statements.js';
import type { ChangedChoice } from './mutation-changed.js';
import type { loadProof } from './mutation-proof.js';
import type { Outcome, VariantOutcome } from './mutation-verdicts.js';

/** What the run measured, for mutation.json and the published proof (mutation-proof.ts). */
export interface MutationReport {
  faults: { killed: number; total: number; rate: number; outcomes: Outcome[] };
  variants: {
    passed: number;
    total: number;
    falseFailures: number;
    undeclaredAssumptionDifferences: string[];
    outcomes: VariantOutcome[];
    together: (Omit<VariantOutcome, 'variant' | 'allows' | 'suites'> & { variants: string[]; suites: string[] }) | null;
  };
  blastRadius: {
    scope: 'suites' | 'files';
    contained: number;
    measured: number;
    faults: { fault: string; breaks: string; beyond: string[]; count: number; scope: string }[];
  };
  statements: ReturnType<typeof statementKills>;
  run: {
    wallMs: number;
    /** CPU time of the run's processes and threads (see cpuSeconds). */
    cpuSeconds: number;
    rounds: number;
    lanes: number;
    testsRun: number;
    cleanTests: number;
    workers: number;
  };
}

export interface Measured {
  outcomes: Outcome[];
  variantOutcomes: VariantOutcome[];
  together: MutationReport['variants']['together'];
  rounds: number;
  lanes: number;
  testsRun: number;
}

export /** The run's figures on the terminal, and the report (mutation.json). */
function summarize(
  m: Measured,
  switches: SwitchCatalogue,
  radius: 'suites' | 'files',
  run: Omit<MutationReport['run'], 'rounds' | 'lanes' | 'testsRun'>,
): MutationReport {
  const { outcomes, variantOutcomes, together } = m;
  const killed = outcomes.filter((o) => o.verdict === 'killed').length;
  const rate = outcomes.length ? (killed / outcomes.length) * 100 : 100;
  const variantsPassed = variantOutcomes.filter((o) => o.verdict === 'passed').length;
  const falseFailures =
    variantOutcomes.reduce((n, o) => n + o.failedTests.length, 0) + (together?.failedTests.length ?? 0);
  const undeclared = [...new Set([...variantOutcomes.flatMap((o) => o.undeclared), ...(together?.undeclared ?? [])])];
  const radii = outcomes
    .filter((o) => o.verdict === 'killed')
    .map((o) => ({ fault: o.fault, breaks: o.breaks, beyond: o.beyond, count: o.beyond.length, scope: o.radiusScope }));
  const contained = radii.filter((r) => r.count === 0).length;
  console.log('');
  if (outcomes.length) {
    console.log(`faults killed: ${killed}/${outcomes.length} (${rate.toFixed(1)}%)`);
    const untargeted = outcomes.filter((o) => o.verdict === 'killed' && !o.byTarget);
    if (untargeted.length)
      console.log(`killed, but not by a test of the broken requirement: ${untargeted.map((o) => o.fault).join(', ')}`);
    const survived = outcomes.filter((o) => o.verdict !== 'killed');
    if (survived.length) console.log(`survived: ${survived.map((o) => o.fault).join(', ')}`);
    const wide = [...radii].sort((a, b) => b.count - a.count).filter((r) => r.count > 0);
    console.log(
      `blast radius: ${contained}/${radii.length} fault(s) fail only their own requirement (over ${radius === 'files' ? 'the files naming it' : 'their suites'})${
        wide.length
          ? `; widest: ${wide
              .slice(0, 5)
              .map((r) => `${r.fault} (+${r.count})`)
              .join(', ')}`
          : ''
      }`,
    );
  }
  // Sensitivity against the documents: kills per statement (faults declare the statements they break).
  const perStatement = statementKills(loadStatements(), switches.faults, outcomes);
  if (outcomes.length) for (const line of statementKillLines(perStatement)) console.log(line);
  if (variantOutcomes.length) {
    console.log(
      `variants passed: ${variantsPassed}/${variantOutcomes.length} alone${together ? `, all together ${together.verdict}` : ''}; false failures: ${falseFailures}; undeclared assumption differences: ${undeclared.length ? undeclared.join(', ') : 0}`,
    );
  }
  console.log(
    `tests run: ${m.testsRun} in ${m.lanes} lane(s), ${m.rounds} round(s), besides the clean run's ${run.cleanTests}; ${(run.wallMs / 1000).toFixed(0)} s, ${run.cpuSeconds} s of CPU`,
  );
  return {
    faults: { killed, total: outcomes.length, rate, outcomes },
    variants: {
      passed: variantsPassed,
      total: variantOutcomes.length,
      falseFailures,
      undeclaredAssumptionDifferences: undeclared,
      outcomes: variantOutcomes,
      together,
    },
    blastRadius: { scope: radius, contained, measured: radii.length, faults: radii },
    statements: perStatement,
    run: { ...run, rounds: m.rounds, lanes: m.lanes, testsRun: m.testsRun },
  };
}

/**
 * The incremental proof fails when a touched fault survives, or a sampled one survives that the
 * published proof had killed (a sampled fault the proof lists as surviving is already known).
 */
export function changedVerdict(
  choice: ChangedChoice,
  report: MutationReport,
  published: ReturnType<typeof loadProof>,
): boolean {
  const alive = report.faults.outcomes.filter((o) => o.verdict !== 'killed');
  const failing = alive.filter(
    (o) => choice.touched.has(o.fault) || published?.faults.byName[o.fault]?.verdict === 'killed',
  );
  const known = alive.filter((o) => !failing.includes(o));
  if (failing.length)
    console.log(
      `incremental proof FAILED: ${failing.map((o) => `${o.fault} (${choice.touched.has(o.fault) ? 'touched' : 'killed in the published proof'})`).join(', ')} survived`,
    );
  if (known.length)
    console.log(`sampled faults that survive in the published proof too: ${known.map((o) => o.fault).join(', ')}`);
  return failing.length === 0;
}
