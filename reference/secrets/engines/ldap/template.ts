/**
 * A small interpreter of Go's text/template syntax, enough for the directory engine's LDIF and
 * username templates: text and `{{ }}` actions with `{{-`/`-}}` trimming and comments, fields
 * (`.A.B`), literals, function calls, pipes, parentheses, and `if`/`else`/`end`. No npm package
 * implements Go's template syntax with pipes and custom functions, hence this module. The
 * functions a template can call are in template-functions.ts.
 */

/** Bytes that are not text (utf16le output); printed as one character per byte, like Go strings. */
export class Bytes {
  constructor(readonly buf: Buffer) {}
  toString(): string {
    return this.buf.toString('latin1');
  }
}

export type Value = string | number | boolean | null | undefined | Bytes | Record<string, unknown>;
export type TemplateFn = (...args: Value[]) => Value;

export class TemplateError extends Error {}

// ---------------------------------------------------------------------------- parsing
type Operand =
  | { kind: 'field'; path: string[] }
  | { kind: 'literal'; value: Value }
  | { kind: 'ident'; name: string }
  | { kind: 'paren'; pipe: Pipeline };
type Command = Operand[];
type Pipeline = Command[];
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipe: Pipeline }
  | { kind: 'if'; cond: Pipeline; then: Node[]; else: Node[] };

export interface Template {
  nodes: Node[];
}

interface RawAction {
  text: string;
  body: string;
  isText: boolean;
}

function splitActions(src: string): RawAction[] {
  const out: RawAction[] = [];
  let pos = 0;
  while (pos < src.length) {
    const open = src.indexOf('{{', pos);
    if (open < 0) {
      out.push({ text: src.slice(pos), body: '', isText: true });
      break;
    }
    let text = src.slice(pos, open);
    let start = open + 2;
    if (src.startsWith('- ', start) || src.startsWith('-\t', start) || src.startsWith('-\n', start)) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    if (text) out.push({ text, body: '', isText: true });
    const close = findClose(src, start);
    if (close < 0) throw new TemplateError('unclosed action');
    let body = src.slice(start, close);
    pos = close + 2;
    if (/\s-$/.test(body)) {
      body = body.slice(0, -1);
      const m = /^\s*/.exec(src.slice(pos));
      pos += m ? m[0].length : 0;
    }
    out.push({ text: '', body, isText: false });
  }
  return out;
}

/** The index of the `}}` closing an action, skipping quoted strings. */
function findClose(src: string, from: number): number {
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === '"' || c === '`' || c === "'") {
      const q = c;
      i++;
      while (i < src.length && src[i] !== q) i += src[i] === '\\' && q !== '`' ? 2 : 1;
      i++;
      continue;
    }
    if (src.startsWith('}}', i)) return i;
    i++;
  }
  return -1;
}

type Tok =
  | { t: 'field'; v: string[] }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'ident'; v: string }
  | { t: '|' | '(' | ')' };

function tokenize(body: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '|' || c === '(' || c === ')') {
      toks.push({ t: c });
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < body.length && body[j] !== '"') j += body[j] === '\\' ? 2 : 1;
      if (j >= body.length) throw new TemplateError('unterminated quoted string');
      try {
        toks.push({ t: 'str', v: JSON.parse(body.slice(i, j + 1)) as string });
      } catch {
        throw new TemplateError(`bad string literal ${body.slice(i, j + 1)}`);
      }
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const j = body.indexOf('`', i + 1);
      if (j < 0) throw new TemplateError('unterminated raw string');
      toks.push({ t: 'str', v: body.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    if (c === '.') {
      const m = /^(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(body.slice(i))!;
      if (m[0] === '') {
        toks.push({ t: 'field', v: [] });
        i++;
        continue;
      }
      toks.push({ t: 'field', v: m[0].slice(1).split('.') });
      i += m[0].length;
      continue;
    }
    const num = /^[-+]?(0x[0-9a-fA-F]+|\d+(\.\d+)?([eE][-+]?\d+)?)/.exec(body.slice(i));
    if (num && (/\d/.test(c) || /^[-+]\d/.test(body.slice(i)))) {
      toks.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(body.slice(i));
    if (id) {
      toks.push({ t: 'ident', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new TemplateError(`unexpected "${c}" in action`);
  }
  return toks;
}

function parsePipeline(toks: Tok[], pos: { i: number }, closing: boolean): Pipeline {
  const pipe: Pipeline = [];
  let cmd: Command = [];
  for (;;) {
    const tok = toks[pos.i];
    if (!tok || tok.t === ')') {
      if (tok && !closing) throw new TemplateError('unexpected ")"');
      if (closing && !tok) throw new TemplateError('unclosed "("');
      break;
    }
    pos.i++;
    if (tok.t === '|') {
      if (!cmd.length) throw new TemplateError('missing command before "|"');
      pipe.push(cmd);
      cmd = [];
      continue;
    }
    if (tok.t === '(') {
      const inner = parsePipeline(toks, pos, true);
      pos.i++; // the ')'
      cmd.push({ kind: 'paren', pipe: inner });
      continue;
    }
    if (tok.t === 'field') cmd.push({ kind: 'field', path: tok.v });
    else if (tok.t === 'str') cmd.push({ kind: 'literal', value: tok.v });
    else if (tok.t === 'num') cmd.push({ kind: 'literal', value: tok.v });
    else if (tok.t !== 'ident') throw new TemplateError(`unexpected "${tok.t}"`);
    else if (tok.v === 'true' || tok.v === 'false') cmd.push({ kind: 'literal', value: tok.v === 'true' });
    else if (tok.v === 'nil') cmd.push({ kind: 'literal', value: null });
    else cmd.push({ kind: 'ident', name: tok.v });
  }
  if (!cmd.length) throw new TemplateError(pipe.length ? 'missing command after "|"' : 'empty pipeline');
  pipe.push(cmd);
  return pipe;
}

function parsePipe(body: string): Pipeline {
  const toks = tokenize(body);
  const pos = { i: 0 };
  return parsePipeline(toks, pos, false);
}

/** Parses a template; `funcs` are checked at parse time, as Go does. */
export function parseTemplate(src: string, funcs: Record<string, TemplateFn>): Template {
  const raw = splitActions(src);
  const stack: { nodes: Node[]; ifNode?: Extract<Node, { kind: 'if' }>; inElse?: boolean }[] = [{ nodes: [] }];
  for (const r of raw) {
    const top = stack[stack.length - 1]!;
    if (r.isText) {
      top.nodes.push({ kind: 'text', text: r.text });
      continue;
    }
    const body = r.body.trim();
    if (body.startsWith('/*')) {
      if (!body.endsWith('*/')) throw new TemplateError('unclosed comment');
      continue;
    }
    const word = /^([a-z]+)\b/.exec(body)?.[1];
    if (word === 'if') {
      const node: Extract<Node, { kind: 'if' }> = { kind: 'if', cond: parsePipe(body.slice(2)), then: [], else: [] };
      checkFuncs(node.cond, funcs);
      top.nodes.push(node);
      stack.push({ nodes: node.then, ifNode: node });
      continue;
    }
    if (word === 'else' && body === 'else') {
      if (!top.ifNode || top.inElse) throw new TemplateError('unexpected {{else}}');
      stack[stack.length - 1] = { nodes: top.ifNode.else, ifNode: top.ifNode, inElse: true };
      continue;
    }
    if (word === 'end' && body === 'end') {
      if (stack.length === 1) throw new TemplateError('unexpected {{end}}');
      stack.pop();
      continue;
    }
    if (word === 'range' || word === 'with' || word === 'define' || word === 'template' || word === 'block') {
      throw new TemplateError(`"${word}" is not supported`);
    }
    const pipe = parsePipe(body);
    checkFuncs(pipe, funcs);
    top.nodes.push({ kind: 'action', pipe });
  }
  if (stack.length !== 1) throw new TemplateError('unexpected EOF: missing {{end}}');
  return { nodes: stack[0]!.nodes };
}

function checkFuncs(pipe: Pipeline, funcs: Record<string, TemplateFn>): void {
  for (const cmd of pipe) {
    for (const op of cmd) {
      if (op.kind === 'ident' && !(op.name in funcs)) throw new TemplateError(`function "${op.name}" not defined`);
      if (op.kind === 'paren') checkFuncs(op.pipe, funcs);
    }
  }
}

// ---------------------------------------------------------------------------- execution
export function printValue(v: Value): string {
  if (v === null || v === undefined) return '<no value>';
  if (v instanceof Bytes) return v.toString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function truthy(v: Value): boolean {
  if (v instanceof Bytes) return v.buf.length > 0;
  if (v && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

/** How a template runs: the piped value is the last argument of the function (as Go does) unless told otherwise. */
export interface RenderOptions {
  pipedValueLast?: boolean;
}

type Env = { data: Record<string, unknown>; funcs: Record<string, TemplateFn>; opts: RenderOptions };

function evalPipe(pipe: Pipeline, env: Env): Value {
  let piped: Value | typeof NONE = NONE;
  for (const cmd of pipe) piped = evalCommand(cmd, env, piped);
  return piped as Value;
}

const NONE = Symbol('none');

function evalOperand(op: Operand, env: Env): Value {
  switch (op.kind) {
    case 'literal':
      return op.value;
    case 'paren':
      return evalPipe(op.pipe, env);
    case 'ident':
      return call(op.name, [], env.funcs);
    case 'field': {
      let cur: unknown = env.data;
      for (const key of op.path) {
        if (!cur || typeof cur !== 'object' || !(key in (cur as object)))
          throw new TemplateError(`can't evaluate field ${key}`);
        cur = (cur as Record<string, unknown>)[key];
      }
      return cur as Value;
    }
  }
}

function evalCommand(cmd: Command, env: Env, piped: Value | typeof NONE): Value {
  const [head, ...rest] = cmd;
  if (head!.kind === 'ident') {
    const args = rest.map((a) => evalOperand(a, env));
    if (piped !== NONE) {
      if (env.opts.pipedValueLast === false) args.unshift(piped);
      else args.push(piped);
    }
    return call(head!.name, args, env.funcs);
  }
  if (rest.length) throw new TemplateError("can't give arguments to a non-function");
  if (piped !== NONE) throw new TemplateError("can't pipe a value into a non-function");
  return evalOperand(head!, env);
}

function call(name: string, args: Value[], funcs: Record<string, TemplateFn>): Value {
  const fn = funcs[name];
  if (!fn) throw new TemplateError(`function "${name}" not defined`);
  return fn(...args);
}

function execNodes(nodes: Node[], env: Env, out: string[]): void {
  for (const n of nodes) {
    if (n.kind === 'text') out.push(n.text);
    else if (n.kind === 'action') out.push(printValue(evalPipe(n.pipe, env)));
    else execNodes(truthy(evalPipe(n.cond, env)) ? n.then : n.else, env, out);
  }
}

export function execute(
  t: Template,
  data: Record<string, unknown>,
  funcs: Record<string, TemplateFn>,
  opts: RenderOptions = {},
): string {
  const out: string[] = [];
  execNodes(t.nodes, { data, funcs, opts }, out);
  return out.join('');
}

/** Parses and runs in one step; every failure is a TemplateError. */
export function render(
  src: string,
  data: Record<string, unknown>,
  funcs: Record<string, TemplateFn>,
  opts: RenderOptions = {},
): string {
  try {
    return execute(parseTemplate(src, funcs), data, funcs, opts);
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    throw new TemplateError((err as Error).message);
  }
}
