/**
 * The functions a directory engine template can call (template.ts runs the templates): the
 * ordinary ones of Go's text/template (printf, comparisons, len, index, slice, ...) and the custom ones of the
 * document's table (random, truncate, uppercase, base64, utf16le, unix_time, timestamp, uuid,
 * sha256, ...), with Go's printf and time layouts.
 */
import { createHash, randomInt, randomUUID } from 'node:crypto';
import { Bytes, printValue, TemplateError, type TemplateFn, truthy, type Value } from './template.js';

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function str(v: Value, fn: string): string {
  if (typeof v === 'string') return v;
  if (v instanceof Bytes) return v.toString();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TemplateError(`${fn}: expected a string`);
}
function int(v: Value, fn: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new TemplateError(`${fn}: expected an integer`);
  return v;
}
function arity(args: Value[], n: number, fn: string): void {
  if (args.length !== n) throw new TemplateError(`wrong number of args for ${fn}: want ${n} got ${args.length}`);
}
function bytesOf(v: Value, fn: string): Buffer {
  return v instanceof Bytes ? v.buf : Buffer.from(str(v, fn), 'utf8');
}

/** Go's printf subset: %s %v %d %q %x %X %t %f %c %%, with flags, width and precision. */
export function goSprintf(format: string, args: Value[]): string {
  let ai = 0;
  return (
    format.replace(
      /%([-+# 0]*)(\d+)?(?:\.(\d+))?([svdqxXtfc%])/g,
      (_m, flags: string, width: string | undefined, prec: string | undefined, verb: string) => {
        if (verb === '%') return '%';
        if (ai >= args.length) return `%!${verb}(MISSING)`;
        const a = args[ai++];
        let s: string;
        switch (verb) {
          case 'd':
            s = typeof a === 'number' ? String(Math.trunc(a)) : `%!d(${typeof a}=${printValue(a)})`;
            break;
          case 'f':
            s = typeof a === 'number' ? a.toFixed(prec ? Number(prec) : 6) : `%!f(${printValue(a)})`;
            break;
          case 'q':
            s = typeof a === 'number' ? `'${String.fromCodePoint(a)}'` : JSON.stringify(printValue(a));
            break;
          case 'x':
          case 'X': {
            s = typeof a === 'number' ? a.toString(16) : bytesOf(a, 'printf').toString('hex');
            if (verb === 'X') s = s.toUpperCase();
            break;
          }
          case 't':
            s = typeof a === 'boolean' ? String(a) : `%!t(${printValue(a)})`;
            break;
          case 'c':
            s = typeof a === 'number' ? String.fromCodePoint(a) : `%!c(${printValue(a)})`;
            break;
          default:
            s = printValue(a);
        }
        if (prec && (verb === 's' || verb === 'v')) s = s.slice(0, Number(prec));
        if (flags.includes('+') && verb === 'd' && !s.startsWith('-')) s = `+${s}`;
        const w = width ? Number(width) : 0;
        if (s.length < w) {
          if (flags.includes('-')) s = s.padEnd(w, ' ');
          else if (flags.includes('0') && /[dxXf]/.test(verb))
            s = s.startsWith('-') ? `-${s.slice(1).padStart(w - 1, '0')}` : s.padStart(w, '0');
          else s = s.padStart(w, ' ');
        }
        return s;
      },
    ) + (ai < args.length ? `%!(EXTRA ${args.slice(ai).map(printValue).join(', ')})` : '')
  );
}

function compare(a: Value, b: Value, fn: string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new TemplateError(`${fn}: incompatible types for comparison`);
}

/** Go's index of one level: a byte of a string (its value, a number) or a field of an object. */
function indexOne(v: Value, k: Value): Value {
  if (typeof v === 'string' || v instanceof Bytes) {
    const buf = bytesOf(v, 'index');
    const i = int(k, 'index');
    if (i < 0 || i >= buf.length) throw new TemplateError(`index out of range: ${i}`);
    return buf[i]!;
  }
  if (v && typeof v === 'object') {
    if (typeof k !== 'string') throw new TemplateError('index of a map needs a string key');
    return (v as Record<string, unknown>)[k] as Value;
  }
  throw new TemplateError(`can't index item of type ${v === null || v === undefined ? 'nil' : typeof v}`);
}

/** The ordinary text/template functions (the ones a template of this engine can use). */
export const builtinFunctions: Record<string, TemplateFn> = {
  printf: (format, ...rest) => goSprintf(str(format, 'printf'), rest),
  print: (...args) =>
    args
      .map((a, i) => (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string' ? ' ' : '') + printValue(a))
      .join(''),
  println: (...args) => `${args.map(printValue).join(' ')}\n`,
  len: (v) => {
    if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
    if (v instanceof Bytes) return v.buf.length;
    throw new TemplateError('len of a non-string');
  },
  index: (v, ...keys) => {
    let cur: Value = v;
    for (const k of keys) cur = indexOne(cur, k);
    return cur;
  },
  slice: (v, ...bounds) => {
    if (typeof v !== 'string' && !(v instanceof Bytes)) throw new TemplateError('slice of a non-string');
    if (bounds.length > 2) throw new TemplateError('too many slice indexes');
    const buf = bytesOf(v, 'slice');
    const [from = 0, to = buf.length] = bounds.map((b) => int(b, 'slice'));
    if (from < 0 || to > buf.length || from > to) throw new TemplateError(`slice: index out of range: ${from}:${to}`);
    return buf.subarray(from, to).toString('latin1');
  },
  eq: (a, ...bs) => bs.some((b) => a === b || (a instanceof Bytes && b instanceof Bytes && a.buf.equals(b.buf))),
  ne: (a, b) => a !== b,
  lt: (a, b) => compare(a, b, 'lt') < 0,
  le: (a, b) => compare(a, b, 'le') <= 0,
  gt: (a, b) => compare(a, b, 'gt') > 0,
  ge: (a, b) => compare(a, b, 'ge') >= 0,
  not: (a) => !truthy(a),
  and: (...args) => {
    for (const a of args) if (!truthy(a)) return a;
    return args[args.length - 1];
  },
  or: (...args) => {
    for (const a of args) if (truthy(a)) return a;
    return args[args.length - 1];
  },
  urlquery: (...args) => encodeURIComponent(args.map(printValue).join('')).replace(/%20/g, '+'),
};

/** Formats `ms` (UTC) with Go's reference-time layout (2006-01-02T15:04:05Z07:00). */
export function goTimeFormat(layout: string, ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const h = d.getUTCHours();
  const tokens: [string, () => string][] = [
    ['January', () => months[d.getUTCMonth()]!],
    ['Monday', () => days[d.getUTCDay()]!],
    ['Z07:00', () => 'Z'],
    ['-07:00', () => '+00:00'],
    ['Z0700', () => 'Z'],
    ['-0700', () => '+0000'],
    ['Z07', () => 'Z'],
    ['-07', () => '+00'],
    ['2006', () => String(d.getUTCFullYear())],
    ['Jan', () => months[d.getUTCMonth()]!.slice(0, 3)],
    ['Mon', () => days[d.getUTCDay()]!.slice(0, 3)],
    ['MST', () => 'UTC'],
    ['.000000000', () => `.${p(d.getUTCMilliseconds(), 3)}000000`],
    ['.000000', () => `.${p(d.getUTCMilliseconds(), 3)}000`],
    ['.000', () => `.${p(d.getUTCMilliseconds(), 3)}`],
    ['.999999999', () => (d.getUTCMilliseconds() ? `.${p(d.getUTCMilliseconds(), 3)}`.replace(/0+$/, '') : '')],
    ['.999', () => (d.getUTCMilliseconds() ? `.${p(d.getUTCMilliseconds(), 3)}`.replace(/0+$/, '') : '')],
    ['_2', () => String(d.getUTCDate()).padStart(2, ' ')],
    ['01', () => p(d.getUTCMonth() + 1)],
    ['02', () => p(d.getUTCDate())],
    ['06', () => p(d.getUTCFullYear() % 100)],
    ['15', () => p(h)],
    ['03', () => p(h % 12 || 12)],
    ['04', () => p(d.getUTCMinutes())],
    ['05', () => p(d.getUTCSeconds())],
    ['PM', () => (h >= 12 ? 'PM' : 'AM')],
    ['pm', () => (h >= 12 ? 'pm' : 'am')],
    ['1', () => String(d.getUTCMonth() + 1)],
    ['2', () => String(d.getUTCDate())],
    ['3', () => String(h % 12 || 12)],
    ['4', () => String(d.getUTCMinutes())],
    ['5', () => String(d.getUTCSeconds())],
  ];
  let out = '';
  let i = 0;
  outer: while (i < layout.length) {
    for (const [tok, fn] of tokens) {
      if (layout.startsWith(tok, i)) {
        out += fn();
        i += tok.length;
        continue outer;
      }
    }
    out += layout[i];
    i++;
  }
  return out;
}

/** RFC 3339 in UTC without fractional seconds, as Go's time.RFC3339 prints it. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export interface TemplateFunctionOptions {
  now: () => number;
  /** utf16le is allowed in LDIF templates only. */
  ldif: boolean;
  /** truncate N: the first N characters (default); the engine passes its rule. */
  truncate?: (s: string, n: number) => string;
  /** truncate_sha256: the text hashed (default: the part cut off, as the real product); the engine passes its rule. */
  truncateSha256Of?: (input: string, cut: number) => string;
}

/** The custom functions of the document's table plus the ordinary ones. */
export function templateFunctions(opts: TemplateFunctionOptions): Record<string, TemplateFn> {
  const fns: Record<string, TemplateFn> = {
    ...builtinFunctions,
    random: (...a) => {
      arity(a, 1, 'random');
      const n = int(a[0], 'random');
      if (n < 1) throw new TemplateError('random: length must be positive');
      let s = '';
      for (let i = 0; i < n; i++) s += ALNUM[randomInt(ALNUM.length)];
      return s;
    },
    truncate: (...a) => {
      arity(a, 2, 'truncate');
      const n = int(a[0], 'truncate');
      if (n < 0) throw new TemplateError('truncate: negative length');
      const s = str(a[1], 'truncate');
      return opts.truncate ? opts.truncate(s, n) : s.slice(0, n);
    },
    truncate_sha256: (...a) => {
      arity(a, 2, 'truncate_sha256');
      const n = int(a[0], 'truncate_sha256');
      if (n <= 8) throw new TemplateError(`truncate_sha256: max length must be > 8 but was ${n}`);
      const s = str(a[1], 'truncate_sha256');
      if (s.length <= n) return s;
      const cut = n - 8;
      const hashed = opts.truncateSha256Of ? opts.truncateSha256Of(s, cut) : s.slice(cut);
      return s.slice(0, cut) + createHash('sha256').update(hashed).digest('hex').slice(0, 8);
    },
    uppercase: (...a) => {
      arity(a, 1, 'uppercase');
      return str(a[0], 'uppercase').toUpperCase();
    },
    lowercase: (...a) => {
      arity(a, 1, 'lowercase');
      return str(a[0], 'lowercase').toLowerCase();
    },
    replace: (...a) => {
      arity(a, 3, 'replace');
      return str(a[2], 'replace').split(str(a[0], 'replace')).join(str(a[1], 'replace'));
    },
    sha256: (...a) => {
      arity(a, 1, 'sha256');
      return createHash('sha256').update(bytesOf(a[0], 'sha256')).digest('hex');
    },
    base64: (...a) => {
      arity(a, 1, 'base64');
      return bytesOf(a[0], 'base64').toString('base64');
    },
    unix_time: (...a) => {
      arity(a, 0, 'unix_time');
      return Math.floor(opts.now() / 1000);
    },
    unix_time_millis: (...a) => {
      arity(a, 0, 'unix_time_millis');
      return Math.floor(opts.now());
    },
    timestamp: (...a) => {
      arity(a, 1, 'timestamp');
      return goTimeFormat(str(a[0], 'timestamp'), opts.now());
    },
    uuid: (...a) => {
      arity(a, 0, 'uuid');
      return randomUUID();
    },
  };
  if (opts.ldif)
    fns.utf16le = (...a) => {
      arity(a, 1, 'utf16le');
      return new Bytes(Buffer.from(str(a[0], 'utf16le'), 'utf16le'));
    };
  return fns;
}
