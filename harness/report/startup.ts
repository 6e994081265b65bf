/**
 * Marks of a run's start-up in the main process, in milliseconds since that process started: where
 * the time to the first test goes (results.json `run.startup`, printed by the bench). Kept on
 * globalThis because the global setup may be loaded a second time by vitest's module runner.
 */
export type StartupMark = 'command' | 'vitest' | 'globalSetup' | 'targetReady' | 'firstTest';

const holder = globalThis as { __conformanceStartup?: Partial<Record<StartupMark, number>> };

/**
 * Records the first time `mark` is reached: now, or `at` (epoch milliseconds) for a moment another
 * process saw first (the earliest of several wins).
 */
export function markStartup(mark: StartupMark, at?: number): void {
  holder.__conformanceStartup ??= {};
  const marks = holder.__conformanceStartup;
  const value = Math.round(at === undefined ? performance.now() : at - performance.timeOrigin);
  if (at === undefined) marks[mark] ??= value;
  else marks[mark] = Math.min(marks[mark] ?? value, value);
}

export function startupMarks(): Partial<Record<StartupMark, number>> {
  return { ...holder.__conformanceStartup };
}
