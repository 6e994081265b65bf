/**
 * The list filter language of the real scheduler (its boolean expression library): matches on
 * selectors (`Status`, `Meta.team`, `Meta["team"]`, `Datacenters`), the operators `==`, `!=`,
 * `contains`, `not contains`, `in`, `not in`, `matches`, `not matches`, `is empty`,
 * `is not empty`, combined with `and`, `or`, `not` and parentheses. Values are double-quoted or
 * backtick strings, numbers, or bare words.
 *
 * `parseFilter` throws FilterError for a malformed expression; `evaluate` throws FilterError when
 * a selector names a field the object does not have (the real scheduler answers both with 400).
 */

export class FilterError extends Error {}

export type MatchOp =
  | '=='
  | '!='
  | 'contains'
  | 'not contains'
  | 'matches'
  | 'not matches'
  | 'is empty'
  | 'is not empty';

export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; operand: FilterNode }
  | { kind: 'match'; selector: string[]; op: MatchOp; value?: string; regex?: RegExp };

type Token =
  | { t: 'lparen' | 'rparen' | 'eq' | 'ne'; pos: number }
  | { t: 'string' | 'number'; v: string; pos: number }
  | { t: 'word'; v: string; path: string[]; pos: number };

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'empty', 'contains', 'matches']);

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(') {
      out.push({ t: 'lparen', pos: i });
      i++;
      continue;
    }
    if (c === ')') {
      out.push({ t: 'rparen', pos: i });
      i++;
      continue;
    }
    if (src.startsWith('==', i)) {
      out.push({ t: 'eq', pos: i });
      i += 2;
      continue;
    }
    if (src.startsWith('!=', i)) {
      out.push({ t: 'ne', pos: i });
      i += 2;
      continue;
    }
    if (c === '"' || c === '`') {
      const [v, end] = readString(src, i);
      out.push({ t: 'string', v, pos: i });
      i = end;
      continue;
    }
    const num = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?/.exec(src.slice(i));
    if (num && (c === '-' || /[0-9]/.test(c))) {
      const end = i + num[0].length;
      if (end < src.length && !/[\s)]/.test(src[end]!))
        throw new FilterError(`invalid number literal at position ${i}`);
      out.push({ t: 'number', v: num[0], pos: i });
      i = end;
      continue;
    }
    if (/[a-zA-Z]/.test(c)) {
      const [path, end] = readSelector(src, i);
      out.push({ t: 'word', v: src.slice(i, end), path, pos: i });
      i = end;
      continue;
    }
    throw new FilterError(`unexpected character ${JSON.stringify(c)} at position ${i}`);
  }
  return out;
}

function readString(src: string, start: number): [string, number] {
  const quote = src[start]!;
  let i = start + 1;
  let v = '';
  while (i < src.length) {
    const c = src[i]!;
    if (c === quote) return [v, i + 1];
    if (c === '\\' && quote === '"') {
      const n = src[i + 1];
      if (n === undefined) break;
      const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
      v += map[n] ?? n;
      i += 2;
      continue;
    }
    v += c;
    i++;
  }
  throw new FilterError(`unterminated string literal at position ${start}`);
}

/** Identifier, then `.ident`, `.123` or `["key"]` parts, with no whitespace inside. */
function readSelector(src: string, start: number): [string[], number] {
  const ident = /^[a-zA-Z][a-zA-Z0-9_/]*/;
  const first = ident.exec(src.slice(start))!;
  const path = [first[0]];
  let i = start + first[0].length;
  for (;;) {
    if (src[i] === '.') {
      const rest = src.slice(i + 1);
      const m = ident.exec(rest) ?? /^[0-9]+/.exec(rest);
      if (!m) throw new FilterError(`invalid selector at position ${i}`);
      path.push(m[0]);
      i += 1 + m[0].length;
    } else if (src[i] === '[') {
      let j = i + 1;
      while (src[j] === ' ') j++;
      if (src[j] !== '"' && src[j] !== '`') throw new FilterError(`invalid index at position ${i}`);
      const [key, end] = readString(src, j);
      j = end;
      while (src[j] === ' ') j++;
      if (src[j] !== ']') throw new FilterError(`unclosed index expression at position ${i}`);
      path.push(key);
      i = j + 1;
    } else {
      return [path, i];
    }
  }
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  parse(): FilterNode {
    if (this.toks.length === 0) throw new FilterError('empty filter expression');
    const node = this.or();
    if (this.i < this.toks.length) throw new FilterError(`unexpected token at position ${this.toks[this.i]!.pos}`);
    return node;
  }

  private peekWord(offset = 0): string | undefined {
    const t = this.toks[this.i + offset];
    return t && t.t === 'word' ? t.v : undefined;
  }

  private or(): FilterNode {
    let left = this.and();
    while (this.peekWord() === 'or') {
      this.i++;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): FilterNode {
    let left = this.not();
    while (this.peekWord() === 'and') {
      this.i++;
      left = { kind: 'and', left, right: this.not() };
    }
    return left;
  }

  private not(): FilterNode {
    if (this.peekWord() === 'not') {
      this.i++;
      return { kind: 'not', operand: this.not() };
    }
    return this.primary();
  }

  private primary(): FilterNode {
    const t = this.toks[this.i];
    if (!t) throw new FilterError('unexpected end of filter expression');
    if (t.t === 'lparen') {
      this.i++;
      const inner = this.or();
      if (this.toks[this.i]?.t !== 'rparen') throw new FilterError('unmatched parentheses');
      this.i++;
      return inner;
    }
    return this.match();
  }

  private value(): string {
    const t = this.toks[this.i];
    if (!t) throw new FilterError('missing value');
    if (t.t === 'string' || t.t === 'number') {
      this.i++;
      return t.v;
    }
    if (t.t === 'word' && !KEYWORDS.has(t.v)) {
      this.i++;
      return t.v;
    }
    throw new FilterError(`expected a value at position ${t.pos}`);
  }

  private selector(): string[] {
    const t = this.toks[this.i];
    if (t?.t !== 'word' || KEYWORDS.has(t.v))
      throw new FilterError(`expected a selector${t ? ` at position ${t.pos}` : ''}`);
    this.i++;
    return t.path;
  }

  private match(): FilterNode {
    const t = this.toks[this.i]!;
    // "value in Selector" / "value not in Selector"
    const inAt = this.peekWord(1) === 'in' ? 1 : this.peekWord(1) === 'not' && this.peekWord(2) === 'in' ? 2 : 0;
    if (inAt && (t.t === 'string' || t.t === 'number' || t.t === 'word')) {
      const value = this.value();
      this.i += inAt;
      const selector = this.selector();
      return { kind: 'match', selector, op: inAt === 1 ? 'contains' : 'not contains', value };
    }
    const selector = this.selector();
    const op = this.toks[this.i];
    if (!op) throw new FilterError('missing match operator');
    if (op.t === 'eq' || op.t === 'ne') {
      this.i++;
      return { kind: 'match', selector, op: op.t === 'eq' ? '==' : '!=', value: this.value() };
    }
    const w = this.peekWord();
    if (w === 'is') {
      if (this.peekWord(1) === 'empty') {
        this.i += 2;
        return { kind: 'match', selector, op: 'is empty' };
      }
      if (this.peekWord(1) === 'not' && this.peekWord(2) === 'empty') {
        this.i += 3;
        return { kind: 'match', selector, op: 'is not empty' };
      }
      throw new FilterError(`expected "empty" or "not empty" at position ${op.pos}`);
    }
    let negate = false;
    let word = w;
    if (w === 'not') {
      negate = true;
      word = this.peekWord(1);
      this.i++;
    }
    if (word === 'contains' || word === 'matches') {
      this.i++;
      const value = this.value();
      if (word === 'contains') return { kind: 'match', selector, op: negate ? 'not contains' : 'contains', value };
      let regex: RegExp;
      try {
        regex = new RegExp(value);
      } catch {
        throw new FilterError(`invalid regular expression ${JSON.stringify(value)}`);
      }
      return { kind: 'match', selector, op: negate ? 'not matches' : 'matches', value, regex };
    }
    throw new FilterError(`expected a match operator at position ${op.pos}`);
  }
}

export function parseFilter(expression: string): FilterNode {
  return new Parser(lex(expression)).parse();
}

const MISSING = Symbol('missing');

function resolve(datum: unknown, path: string[]): unknown {
  let cur: unknown = datum;
  for (let k = 0; k < path.length; k++) {
    const part = path[k]!;
    if (Array.isArray(cur) && /^[0-9]+$/.test(part)) {
      cur = Number(part) < cur.length ? cur[Number(part)] : MISSING;
    } else if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) {
      if (!Object.hasOwn(cur, part)) {
        // An unknown top-level field is an error (a typo in the expression); a missing map key
        // (Meta.absent) simply does not match.
        if (k === 0)
          throw new FilterError(
            `error finding value in datum: /${path.join('/')} at part 0: couldn't find key ${JSON.stringify(part)}`,
          );
        return MISSING;
      }
      cur = (cur as Record<string, unknown>)[part];
    } else {
      return MISSING;
    }
  }
  return cur;
}

function equals(field: unknown, value: string): boolean {
  if (field === MISSING || field === null || field === undefined) return false;
  if (typeof field === 'string') return field === value;
  if (typeof field === 'number') {
    const n = Number(value);
    if (value.trim() === '' || Number.isNaN(n))
      throw new FilterError(`failed to coerce value ${JSON.stringify(value)} to a number`);
    return field === n;
  }
  if (typeof field === 'boolean') {
    const v = value.toLowerCase();
    if (['true', 't', '1'].includes(v)) return field === true;
    if (['false', 'f', '0'].includes(v)) return field === false;
    throw new FilterError(`failed to coerce value ${JSON.stringify(value)} to a boolean`);
  }
  throw new FilterError('== and != need a selector of a single value');
}

function contains(field: unknown, value: string): boolean {
  if (field === MISSING || field === null || field === undefined) return false;
  if (typeof field === 'string') return field.includes(value);
  if (Array.isArray(field))
    return field.some((el) => (el !== null && typeof el === 'object' ? false : equals(el, value)));
  if (typeof field === 'object') return Object.hasOwn(field, value);
  throw new FilterError('contains and in need a string, list or map selector');
}

function isEmpty(field: unknown): boolean {
  if (field === MISSING || field === null || field === undefined) return true;
  if (typeof field === 'string' || Array.isArray(field)) return field.length === 0;
  if (typeof field === 'object') return Object.keys(field).length === 0;
  throw new FilterError('is empty needs a string, list or map selector');
}

export function evaluate(node: FilterNode, datum: unknown): boolean {
  switch (node.kind) {
    case 'and':
      return evaluate(node.left, datum) && evaluate(node.right, datum);
    case 'or':
      return evaluate(node.left, datum) || evaluate(node.right, datum);
    case 'not':
      return !evaluate(node.operand, datum);
    case 'match': {
      const field = resolve(datum, node.selector);
      const value = node.value ?? '';
      switch (node.op) {
        case '==':
          return equals(field, value);
        case '!=':
          return !equals(field, value);
        case 'contains':
          return contains(field, value);
        case 'not contains':
          return !contains(field, value);
        case 'is empty':
          return isEmpty(field);
        case 'is not empty':
          return !isEmpty(field);
        case 'matches':
        case 'not matches': {
          let hit = false;
          if (typeof field === 'string') hit = node.regex!.test(field);
          else if (field !== MISSING && field !== null && field !== undefined)
            throw new FilterError('matches needs a string selector');
          return node.op === 'matches' ? hit : !hit;
        }
      }
    }
  }
}

/** Compiles an expression once; the returned predicate throws FilterError on a bad selector. */
export function compileFilter(expression: string): (datum: unknown) => boolean {
  const node = parseFilter(expression);
  return (datum) => evaluate(node, datum);
}
