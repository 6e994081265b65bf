/** Durations as the secrets service takes them: integer seconds or Go-style strings (`90s`, `1h30m`, `182d`). */
const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds (integer, rounded down). Throws on anything else. */
export function parseDuration(value: unknown): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || !Number.isInteger(value))
      throw new Error(`invalid duration ${JSON.stringify(value)}`);
    return value;
  }
  if (typeof value !== 'string') throw new Error(`invalid duration ${JSON.stringify(value)}`);
  const text = value.trim();
  if (text === '') return 0;
  if (/^\d+$/.test(text)) return Number(text);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
    consumed = re.lastIndex;
  }
  if (consumed !== text.length || consumed === 0) throw new Error(`invalid duration ${JSON.stringify(value)}`);
  return Math.floor(total);
}
