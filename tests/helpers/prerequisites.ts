/**
 * Tests whose real part is a program outside node_modules (slapd, Chromium). On a fresh machine
 * without it they skip, naming the part and the command that installs it; under `CI=true` they
 * run and fail naming it, so CI can never pass with the part silently absent.
 */
export interface Part {
  /** What is missing, as a user would search for it: "slapd", "Chromium". */
  name: string;
  present: boolean;
  /** The command that installs it on Debian/Ubuntu (what .ci/run does). */
  install: string;
}

export const inCi = (env: NodeJS.ProcessEnv = process.env): boolean => /^(1|true|yes)$/i.test(env.CI ?? '');

export interface Prerequisite {
  /** Skip the tests that need the part (missing, and not in CI). */
  skip: boolean;
  /** Suffix for the describe title: says why it skips, or nothing. */
  note: string;
  /** First line of each test that needs the part: under CI a missing part fails here, named. */
  assertPresent(): void;
}

export function prerequisite(part: Part, env: NodeJS.ProcessEnv = process.env): Prerequisite {
  const ci = inCi(env);
  const skip = !part.present && !ci;
  const note = skip ? ` (skipped: ${part.name} not found; install it: ${part.install})` : '';
  if (skip) console.warn(`skipped: ${part.name} not found; install it: ${part.install} (under CI=true this fails)`);
  return {
    skip,
    note,
    assertPresent() {
      if (!part.present)
        throw new Error(`${part.name} is missing and CI=true: a CI run must exercise it; install it: ${part.install}`);
    },
  };
}
