/**
 * Marks of a run's start-up in the main process, in milliseconds since that process started: where
 * the time to the first test goes (results.json `run.startup`, printed by the bench). Kept on
 * globalThis because the global setup may be loaded a second time by vitest's module runner.
 */
export type StartupMark = 'command' | 'vitest' | 'globalSetup' | 'targetReady' | 'firstTest';

const holder = globalThis as { __conformanceStartup?: Partial<Record<StartupMark, number>> };

/** Records the first time `mark` is reached. */
export function markStartup(mark: StartupMark): void {
  holder.__conformanceStartup ??= {};
  holder.__conformanceStartup[mark] ??= Math.round(performance.now());
}

export function startupMarks(): Partial<Record<StartupMark, number>> {
  return { ...holder.__conformanceStartup };
}
