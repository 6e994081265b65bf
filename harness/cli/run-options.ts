/**
 * The options of `run`: a flag for each setting that has one (declared with the setting,
 * harness/config/schema.ts), and the flags below, which set no setting of the config object
 * (their one declaration: program.ts adds them, docs/CONFIGURATION.md lists them).
 */
import { settingFlags } from '../config/settings.js';

export interface RunFlag {
  /** `--concurrency <n>`. */
  flag: string;
  description: string;
  parse?: (value: string) => unknown;
}

const whole = (v: string) => Number(v);

export const RUN_ONLY_FLAGS: RunFlag[] = [
  { flag: '--config <file>', description: 'the config file (YAML or JSON), also `CONFORMANCE_CONFIG`' },
  {
    flag: '--concurrency <n>',
    description:
      'test files in flight at once (default: one per core, 2 to 4, for the embedded reference and for an external target under 5 ms of measured round trip; one more per further 5 ms, up to 8; 4 to 8 when the round trip could not be measured); 1 runs one test at a time as well. A file listed in suites/domain-locks.yaml runs with no other file of its domains',
    parse: whole,
  },
  {
    flag: '--tests-in-flight <n>',
    description:
      'tests of one file in flight at once in a worker (default: 4 for the embedded reference; for an external target 12, plus one per 4 ms of measured round trip, up to 20; 1 with `--concurrency 1`)',
    parse: whole,
  },
  { flag: '--quiet', description: 'only the summary on the terminal' },
];

/** Every flag of `run`: those of the `run` section first, the config file, the other settings', the rest. */
export function runFlags(): RunFlag[] {
  const flags = settingFlags();
  const [config, ...rest] = RUN_ONLY_FLAGS;
  return [
    ...flags.filter((f) => f.path.startsWith('run.')),
    config!,
    ...flags.filter((f) => !f.path.startsWith('run.')),
    ...rest,
  ];
}
