/**
 * The command line: `run` a conformance run, `mutation` the fault-detection run, `compare` two
 * results files. Exit codes: 0 every MUST passed, 1 a MUST failed (or a gate failed), 2 usage or
 * config error. The entry point is the composition root, compose/cli.ts, which hands in the
 * embedded target (the reference) and the vitest globalSetup file that prepares it. Each command's
 * modules are loaded when it runs: a conformance run's start-up loads none of the others'.
 */
import { Command, CommanderError } from 'commander';
import type { EmbeddedTarget } from '../../contract/target.js';
import { ConfigError } from '../config/load.js';
import { runConformance } from './run.js';
import type { DirectoryProvisioner } from '../setup/target.js';

import { runFlags } from './run-options.js';
import { defaultMutationJobs } from './mutation-rounds.js';

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** What the composition root hands the command line. */
export interface Composition {
  /** The target started for an API without an address (harness/config/target-plan.ts), and its switches. */
  embedded: EmbeddedTarget;
  /** The vitest globalSetup file (package-relative) that prepares the target with `embedded`. */
  globalSetup: string;
  /** Provisions the ldap suite's directory when the harness starts one (on the calling thread without it). */
  directory?: DirectoryProvisioner;
}

/** The commands and their options (the options of `run` follow from the settings: run-options.ts). */
export function buildProgram(root: Composition): Command {
  const program = new Command('svc-conformance')
    .description('Conformance harness for the secrets service and the job scheduling service')
    .exitOverride()
    .showHelpAfterError();

  const run = program
    .command('run')
    .description(
      'run the conformance suites against the target (the embedded reference for an API whose address no setting gives: svc.addr, sched.addr)',
    );
  // One flag per setting that has one (harness/config/schema.ts), and the flags of run-options.ts.
  for (const f of runFlags()) {
    if (f.parse) run.option(f.flag, f.description, f.parse);
    else run.option(f.flag, f.description);
  }
  run.action(async (o: Record<string, unknown>) => {
    const { config, quiet, concurrency, testsInFlight, ...settingValues } = o;
    process.exitCode = await runConformance({
      globalSetup: root.globalSetup,
      embedded: root.embedded,
      directory: root.directory,
      concurrency: concurrency as number | undefined,
      testsInFlight: testsInFlight as number | undefined,
      file: config as string | undefined,
      cli: settingValues,
      quiet: !!quiet,
    });
  });

  program
    .command('mutation')
    .description(
      "run the suites once per fault switch (must be killed) and once per legal variant (must pass) of the reference; report kills, false failures and each fault's blast radius",
    )
    .option('--suite <names>', 'only faults and variants of these suites', list)
    .option('--fault <names>', 'only these faults (alone: no variants)', list)
    .option('--variant <names>', 'only these variants (alone: no faults)', list)
    .option('--no-faults', 'skip the fault side')
    .option('--no-variants', 'skip the variant side')
    .option(
      '--radius <scope>',
      "files: each fault's blast radius over the tests of the files naming its requirement that it reaches (default; a lower bound); suites: over every test of its suites it reaches (a whole-suite run's radius, slower)",
      'files',
    )
    .option(
      '--changed',
      'the incremental proof: the faults of the requirements changed since --since, a sample of the others, every variant',
    )
    .option('--since <ref>', "with --changed: the commit to compare with (default: the published proof's)")
    .option('--sample <n>', 'with --changed: how many untouched faults to draw', (v) => Number(v), 20)
    .option('--seed <n>', 'with --changed: the seed of the sample (default: the day, YYYYMMDD)', (v) => Number(v))
    .option('--jobs <n>', 'rounds in flight at once (default: 3 per core)', (v) => Number(v), defaultMutationJobs())
    .option('--report-dir <dir>', 'where mutation.json goes', 'reports')
    .action(async (o) => {
      if (o.changed && !(Number.isInteger(o.sample) && o.sample >= 0)) {
        console.error(`--sample must be a whole number of faults, not ${o.sample}`);
        process.exitCode = 2;
        return;
      }
      if (o.seed !== undefined && !Number.isInteger(o.seed)) {
        console.error(`--seed must be a whole number, not ${o.seed}`);
        process.exitCode = 2;
        return;
      }
      if (o.radius !== 'suites' && o.radius !== 'files') {
        console.error(`--radius must be suites or files, not ${o.radius}`);
        process.exitCode = 2;
        return;
      }
      const { runMutation } = await import('./mutation.js');
      const { daySeed } = await import('./mutation-changed.js');
      process.exitCode = await runMutation(
        {
          suites: o.suite,
          faults: o.fault,
          variants: o.variant,
          noFaults: o.faults === false,
          noVariants: o.variants === false,
          radius: o.radius,
          jobs: o.jobs,
          reportDir: o.reportDir,
          ...(o.changed ? { changed: { since: o.since, sample: o.sample, seed: o.seed ?? daySeed() } } : {}),
        },
        root.embedded,
      );
    });

  program
    .command('compare')
    .description(
      'compare two results.json files: new violations and new assumption differences apart, fixed, new and removed tests; exit 1 on a new violation (on a new assumption difference only under strict)',
    )
    .argument('<old>', 'results.json of the earlier run')
    .argument('<new>', 'results.json of the later run')
    .option(
      '--assumptions <mode>',
      'strict: a new assumption difference fails the gate too (default: the mode the newer run recorded)',
    )
    .action(async (oldFile: string, newFile: string, o: { assumptions?: string }) => {
      const { compareFiles } = await import('./compare.js');
      process.exitCode = compareFiles(oldFile, newFile, o.assumptions);
    });

  program
    .command('merge')
    .description(
      'combine the results.json of the shards of a run (run --shard i/n) into one results.json, junit.xml and index.html; exit codes as for run',
    )
    .argument('<results...>', 'results.json of every shard')
    .option('--report-dir <dir>', 'where the merged reports go', 'reports')
    .action(async (files: string[], o) => {
      const { mergeFiles } = await import('./merge.js');
      process.exitCode = mergeFiles(files, o.reportDir);
    });

  program
    .command('matrix')
    .description(
      'several runs side by side: one row per requirement, one column per NAME=results.json (the column title); writes matrix.html and matrix.json (docs/MATRIX.md)',
    )
    .argument('<runs...>', 'NAME=results.json of each implementation, in column order')
    .option('--report-dir <dir>', 'where matrix.html and matrix.json go', 'reports')
    .action(async (runs: string[], o) => {
      const { matrixFiles } = await import('./matrix.js');
      process.exitCode = matrixFiles(runs, o.reportDir);
    });

  return program;
}

/** Runs the command line on `argv` (process.argv); sets process.exitCode. */
export async function runProgram(argv: string[], root: Composition): Promise<void> {
  const program = buildProgram(root);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
    } else if (err instanceof ConfigError) {
      console.error(err.message);
      process.exitCode = 2;
    } else {
      console.error(`error: ${(err as Error).message}`);
      process.exitCode = 2;
    }
  }
}
