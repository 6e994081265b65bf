/**
 * The check helpers take their arguments in one order (issue 37): whatever subject comes first
 * (the test context, a path, a directory entry), then what was seen, then what was expected, and the
 * message last, node:assert's order. Read from the syntax of every helper named `expect<Something>`
 * in the harness and the suites, so a new helper with another order fails here, not in a reader's
 * head. A call site cannot be checked by type (the values are `unknown`, the message a string), so
 * the one order is the defence.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';

const SCANNED = ['harness', 'suites'];
/** Names a helper gives what was seen, what was expected, and its message. */
const SEEN = /^(actual|value|seen|got)$/;
const WANTED = /^(expected|want|wanted)$/;
const MESSAGE = /^(message|what|when|why)$/;

interface Helper {
  where: string;
  name: string;
  params: string[];
}

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function helpersIn(file: string): Helper[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Helper[] = [];
  const add = (name: string, node: ts.Node, params: ts.NodeArray<ts.ParameterDeclaration>) =>
    found.push({
      where: `${relative(PACKAGE_ROOT, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`,
      name,
      params: params.map((p) => p.name.getText(sf)),
    });
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionDeclaration(n) && n.name && /^expect[A-Z]/.test(n.name.text)) add(n.name.text, n, n.parameters);
    else if (
      ts.isVariableDeclaration(n) &&
      ts.isIdentifier(n.name) &&
      /^expect[A-Z]/.test(n.name.text) &&
      n.initializer &&
      (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))
    )
      add(n.name.text, n, n.initializer.parameters);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** What is wrong with a helper's order, or undefined. */
function orderProblem(params: string[]): string | undefined {
  const seen = params.findIndex((p) => SEEN.test(p));
  const wanted = params.findIndex((p) => WANTED.test(p));
  const message = params.findIndex((p) => MESSAGE.test(p));
  if (seen >= 0 && wanted >= 0 && seen > wanted) return 'what was expected comes before what was seen';
  if (message >= 0 && message !== params.length - 1) return `the message (${params[message]}) is not last`;
  return undefined;
}

describe('the check helpers take one argument order', () => {
  const helpers = SCANNED.flatMap((dir) => sources(join(PACKAGE_ROOT, dir))).flatMap(helpersIn);

  it('finds the helpers it judges (the scan is not empty)', () => {
    expect(helpers.map((h) => h.name)).toEqual(expect.arrayContaining(['expectThat', 'expectEqual']));
  });

  it('every helper: seen, then expected, then the message', () => {
    const wrong = helpers.flatMap((h) => {
      const problem = orderProblem(h.params);
      return problem ? [`${h.where} ${h.name}(${h.params.join(', ')}): ${problem}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it.each([
    [['ok', 'check', 'message', 'expected', 'actual'], 'what was expected comes before what was seen'],
    [['actual', 'expected', 'message'], undefined],
    [['message', 'expected', 'actual'], 'what was expected comes before what was seen'],
    [['t', 'dn', 'what', 'password'], 'the message (what) is not last'],
    [['t', 'value', 'version', 'what'], undefined],
  ])('judges %j as %s', (params, problem) => {
    expect(orderProblem(params)).toBe(problem);
  });
});
