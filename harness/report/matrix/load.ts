/**
 * The matrix's inputs: `NAME=results.json` arguments, each read and checked far enough that the
 * matrix can be built from it. Every refusal names the argument it comes from (exit 2).
 */
import { readFileSync } from 'node:fs';
import type { NamedRun } from './build.js';
import type { MatrixInput } from './model.js';

export class MatrixUsageError extends Error {}

/** `NAME=path` → name and path; the name is the column's title. */
export function parseRunArg(arg: string): { name: string; file: string } {
  const at = arg.indexOf('=');
  const name = at > 0 ? arg.slice(0, at).trim() : '';
  const file = at > 0 ? arg.slice(at + 1).trim() : '';
  if (!name || !file)
    throw new MatrixUsageError(`${JSON.stringify(arg)}: expected NAME=results.json (NAME is the column's title)`);
  return { name, file };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What is missing for `value` to be read as a results.json, or undefined. */
function shapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a JSON object';
  if (!isObject(value.run)) return 'no run object';
  if (!Array.isArray(value.tests)) return 'no tests array';
  if (!Array.isArray(value.requirements)) return 'no requirements array';
  const badRow = value.requirements.findIndex(
    (r) => !isObject(r) || typeof r.id !== 'string' || typeof r.status !== 'string' || !Array.isArray(r.tests),
  );
  if (badRow !== -1) return `requirements[${badRow}] lacks an id, a status or a tests array`;
  const badTest = value.tests.findIndex(
    (t) => !isObject(t) || typeof t.key !== 'string' || typeof t.status !== 'string',
  );
  if (badTest !== -1) return `tests[${badTest}] lacks a key or a status`;
  return undefined;
}

/** Reads one `NAME=path` argument. */
export function loadRun(arg: string): NamedRun {
  const { name, file } = parseRunArg(arg);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new MatrixUsageError(
      `${name}=${file}: ${code === 'ENOENT' ? 'file not found' : `cannot read it (${(err as Error).message})`}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new MatrixUsageError(`${name}=${file}: not a results.json (invalid JSON: ${(err as Error).message})`);
  }
  const problem = shapeProblem(value);
  if (problem) throw new MatrixUsageError(`${name}=${file}: not a results.json (${problem})`);
  return { name, file, results: value as MatrixInput };
}

/** Reads every argument; names must be unique (they are the columns' titles). */
export function loadRuns(args: string[]): NamedRun[] {
  if (args.length === 0) throw new MatrixUsageError('no runs given: expected NAME=results.json ...');
  const seen = new Map<string, string>();
  for (const arg of args) {
    const { name } = parseRunArg(arg);
    const before = seen.get(name);
    if (before !== undefined)
      throw new MatrixUsageError(
        `${JSON.stringify(arg)}: the name ${JSON.stringify(name)} is given twice (also ${JSON.stringify(before)})`,
      );
    seen.set(name, arg);
  }
  return args.map(loadRun);
}
