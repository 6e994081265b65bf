/** A check that did not hold: names the check, what it expected and what it found. */
export class CheckFailure extends Error {
  constructor(
    readonly check: string,
    message: string,
    readonly expected: unknown,
    readonly actual: unknown,
  ) {
    super(`${check}: ${message}\n  expected: ${show(expected)}\n  actual:   ${show(actual)}`);
    this.name = 'CheckFailure';
  }
}

export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 300 ? `${value.slice(0, 300)}…` : value);
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(value);
  }
}
