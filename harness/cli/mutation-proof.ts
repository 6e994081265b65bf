/**
 * The published fault proof: the last full `npm run mutation` (every fault and every variant),
 * written by that run to generated/fault-proof.json, with a short generated/fault-proof.md made
 * from it. Never edited by hand: the figures quoted anywhere else point here.
 *
 * Per fault: killed or survived, the requirements its failing tests are charged to, whether one of
 * them is the requirement it breaks, and its blast radius; per legal variant: passed or failed (and
 * all together); per statement of the documents that some fault declares (`statements` of the
 * switch tables): those faults and which of them a test of its own requirement killed, the bound
 * `npm run coverage:docs` puts on "asserted". Plus the commit measured (the incremental proof,
 * `--changed`, runs what changed since), the wall time and the machine's load.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { SwitchCatalogue } from '../../contract/switches.js';
import { PACKAGE_ROOT } from '../spec/paths.js';
import type { Statement } from '../spec/statements.js';
import type { MutationReport } from './mutation.js';

export const PROOF_JSON = 'generated/fault-proof.json';
export const PROOF_MD = 'generated/fault-proof.md';

export interface FaultEntry {
  breaks: string;
  verdict: 'killed' | 'survived' | 'error';
  /** A failing test is charged to `breaks`. */
  byOwnRequirement: boolean;
  /** The requirements the failing tests are charged to. */
  chargedTo: string[];
  /** Requirements failed beyond `breaks`, over the tests of `scope`. */
  blastRadius: string[];
  scope: 'files' | 'suites';
}

export interface FaultProof {
  /** What wrote it. */
  generatedBy: 'npm run mutation';
  /** The commit measured (HEAD of the checkout), and whether the checkout had other changes. */
  commit: string;
  dirty: boolean;
  measuredAt: string;
  wallSeconds: number;
  /** CPU time of the run's processes and threads: the wall time on idle cores is about this / cores. */
  cpuSeconds: number;
  machine: { cores: number; loadAtStart: number[] };
  radius: 'files' | 'suites';
  faults: {
    total: number;
    killed: number;
    killedByOwnRequirement: number;
    /** Killed faults that fail only their own requirement. */
    contained: number;
    byName: Record<string, FaultEntry>;
  };
  variants: {
    total: number;
    passed: number;
    together: 'passed' | 'failed' | 'error' | null;
    byName: Record<string, { verdict: 'passed' | 'failed' | 'error'; testsRun: number }>;
  };
  statements: {
    testable: number;
    declared: number;
    /** Statements some fault killed by a test of its own requirement proves. */
    proved: number;
    /** Per statement id some fault declares: those faults, and those that prove it. */
    byId: Record<string, { faults: string[]; provedBy: string[] }>;
  };
}

const sortedRecord = <T>(entries: [string, T][]): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** The checkout's commit, and whether it has changes besides the proof itself. */
export function checkoutState(): { commit: string; dirty: boolean } {
  const commit = git(['rev-parse', 'HEAD']) ?? '';
  const status = git(['status', '--porcelain']) ?? '';
  const dirty = status
    .split('\n')
    .filter(Boolean)
    .some((line) => !line.slice(3).startsWith('generated/fault-proof'));
  return { commit, dirty };
}

export function buildProof(
  report: MutationReport,
  switches: SwitchCatalogue,
  statements: readonly Statement[],
  at: { commit: string; dirty: boolean; measuredAt: Date; loadAtStart: number[] },
): FaultProof {
  const faults = report.faults.outcomes;
  const proving = new Set(faults.filter((o) => o.verdict === 'killed' && o.byTarget).map((o) => o.fault));
  const declaring = new Map<string, string[]>();
  for (const f of switches.faults)
    for (const id of f.statements ?? []) declaring.set(id, [...(declaring.get(id) ?? []), f.name]);
  const testable = statements.filter((s) => !s.untestable);
  const byId = sortedRecord(
    [...declaring].map(([id, names]) => [
      id,
      { faults: [...names].sort(), provedBy: names.filter((n) => proving.has(n)).sort() },
    ]),
  );
  return {
    generatedBy: 'npm run mutation',
    commit: at.commit,
    dirty: at.dirty,
    measuredAt: at.measuredAt.toISOString(),
    wallSeconds: Math.round(report.run.wallMs / 1000),
    cpuSeconds: report.run.cpuSeconds,
    machine: { cores: availableParallelism(), loadAtStart: at.loadAtStart.map((l) => Math.round(l * 100) / 100) },
    radius: report.blastRadius.scope,
    faults: {
      total: faults.length,
      killed: report.faults.killed,
      killedByOwnRequirement: proving.size,
      contained: report.blastRadius.contained,
      byName: sortedRecord(
        faults.map((o) => [
          o.fault,
          {
            breaks: o.breaks,
            verdict: o.verdict,
            byOwnRequirement: o.byTarget,
            chargedTo: o.charged,
            blastRadius: o.beyond,
            scope: o.radiusScope,
          },
        ]),
      ),
    },
    variants: {
      total: report.variants.total,
      passed: report.variants.passed,
      together: report.variants.together?.verdict ?? null,
      byName: sortedRecord(
        report.variants.outcomes.map((o) => [o.variant, { verdict: o.verdict, testsRun: o.testsRun }]),
      ),
    },
    statements: {
      testable: testable.length,
      declared: testable.filter((s) => declaring.has(s.id)).length,
      proved: testable.filter((s) => byId[s.id]?.provedBy.length).length,
      byId,
    },
  };
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '-');

/** The short summary beside the JSON, made from it alone (so a test can remake it). */
export function proofMarkdown(p: FaultProof): string {
  const faults = Object.entries(p.faults.byName);
  const survived = faults.filter(([, f]) => f.verdict !== 'killed');
  const stray = faults.filter(([, f]) => f.verdict === 'killed' && !f.byOwnRequirement);
  const wide = faults
    .filter(([, f]) => f.blastRadius.length)
    .sort(([a, x], [b, y]) => y.blastRadius.length - x.blastRadius.length || a.localeCompare(b))
    .slice(0, 10);
  const failedVariants = Object.entries(p.variants.byName).filter(([, v]) => v.verdict !== 'passed');
  const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join('\n') : '- none');
  return `# The fault proof

Generated by \`npm run mutation\` (the full run) from ${PROOF_JSON}; do not edit. Commit
${p.commit || '(unknown)'}${p.dirty ? ' with uncommitted changes' : ''}, measured ${p.measuredAt.slice(0, 10)} in ${p.wallSeconds} s (${p.cpuSeconds} s of CPU) on ${p.machine.cores} cores (load at start ${p.machine.loadAtStart.join(', ')}); blast radius over ${p.radius === 'files' ? "each fault's files (the tests of the files naming its requirement that it reaches)" : "each fault's suites"}.

| | |
|---|---|
| faults killed | ${p.faults.killed} of ${p.faults.total} (${pct(p.faults.killed, p.faults.total)}) |
| killed by a test of the requirement they break | ${p.faults.killedByOwnRequirement} |
| killed, failing only their own requirement | ${p.faults.contained} |
| legal variants passed alone | ${p.variants.passed} of ${p.variants.total} |
| all variants together | ${p.variants.together ?? 'not run'} |
| testable statements a fault declares | ${p.statements.declared} of ${p.statements.testable} |
| testable statements a fault proves (killed by its own requirement) | ${p.statements.proved} of ${p.statements.testable} (${pct(p.statements.proved, p.statements.testable)}) |

Faults that survived:
${list(survived.map(([n, f]) => `${n} (breaks ${f.breaks}; ${f.verdict})`))}

Faults killed, but not by a test of the requirement they break:
${list(stray.map(([n, f]) => `${n} (breaks ${f.breaks}; charged to ${f.chargedTo.join(', ')})`))}

Widest blast radius:
${list(wide.map(([n, f]) => `${n}: +${f.blastRadius.length} (${f.blastRadius.slice(0, 5).join(', ')}${f.blastRadius.length > 5 ? ', ...' : ''})`))}

Variants that failed:
${list(failedVariants.map(([n, v]) => `${n} (${v.verdict})`))}
`;
}

/**
 * The proof as JSON, one line per fault, variant and statement (so that a diff of two proofs shows
 * what changed, line by line), the rest indented.
 */
export function proofJson(proof: FaultProof): string {
  const marks = new Map<string, string>();
  const compact = <T>(record: Record<string, T>) =>
    Object.fromEntries(
      Object.entries(record).map(([k, v]) => {
        const mark = `\u0000${marks.size}\u0000`;
        marks.set(mark, JSON.stringify(v));
        return [k, mark];
      }),
    );
  const text = JSON.stringify(
    {
      ...proof,
      faults: { ...proof.faults, byName: compact(proof.faults.byName) },
      variants: { ...proof.variants, byName: compact(proof.variants.byName) },
      statements: { ...proof.statements, byId: compact(proof.statements.byId) },
    },
    null,
    2,
  );
  return `${text.replace(/"(\\u0000\d+\\u0000)"/g, (_, mark: string) => marks.get(JSON.parse(`"${mark}"`))!)}\n`;
}

export function writeProof(proof: FaultProof, root = PACKAGE_ROOT): void {
  writeFileSync(join(root, PROOF_JSON), proofJson(proof));
  writeFileSync(join(root, PROOF_MD), proofMarkdown(proof));
}

/** The published proof, or undefined when there is none. */
export function loadProof(root = PACKAGE_ROOT): FaultProof | undefined {
  const file = join(root, PROOF_JSON);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as FaultProof) : undefined;
}

export const loadAtStart = (): number[] => loadavg();
