/**
 * Every setting is declared once (issue 37): its dotted path, its environment variable and its
 * flag of `run` each appear in exactly one hand-written declaration, the one in the config schema
 * (harness/config/schema.ts, contract/cloud-settings.ts). Everything else about a setting (its
 * type, default, the readers of the environment and of the flags, the options of `run`, the docs)
 * follows from that declaration, so a second one is a copy that can drift.
 *
 * What counts as a declaration, read from the syntax of every hand-written source the harness
 * runs (harness/, compose/, contract/, suites/, tools/, bin/, vitest.config.ts; the reference
 * has a command line of its own):
 * - a path (`svc.addr`): a property of an object literal, an interface or an object type at that
 *   path; a constant or a type used as a property's value counts at that property's path;
 * - a variable: reading or deleting it (`env.SVC_ADDR`, `env['SVC_ADDR']`), a property of that
 *   name, or the `env:` of a setting;
 * - a flag: a commander `.option('--flag ...')` outside another command, or the `flag:` of a
 *   setting or of run-options.ts.
 * Messages that merely mention a name are no declarations.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DECLARED } from '../../contract/setting.js';
import { settings } from '../../harness/config/settings.js';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';
import { buildProgram } from '../../harness/cli/program.js';
import { runFlags } from '../../harness/cli/run-options.js';

const SCANNED = ['harness', 'compose', 'contract', 'suites', 'tools', 'bin'];
/**
 * Where a path can be declared: the modules that declare, default, read, turn into flags,
 * document and decide from settings (elsewhere an object of the same shape is a value or a view
 * of the loaded config: `{ svc, sched }` keyed by API, a function's narrowed parameter).
 */
const PATH_SCOPE =
  /^(harness\/(config|cli|setup)\/|contract\/|compose\/|bin\/|tools\/config-docs\.ts$|vitest\.config\.ts$)/;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (/\.(ts|mts|mjs)$/.test(name) && !/\.(test|d)\.m?ts$/.test(name)) out.push(full);
  }
  return out;
}

interface Found {
  file: string;
  /** file:line */
  where: string;
  /** The property names from its root down to it. */
  keys: string[];
  /** The constant, interface or type it lies in, when it lies in one. */
  root?: string;
  /** The other properties of its object. */
  siblings: string[];
  /** A declaration: a property of a type, or one whose value is written out (a literal, a `setting(...)`). */
  declares: boolean;
}

const propertyName = (name: ts.PropertyName | ts.BindingName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) ? name.text : undefined;

/** The keys of the properties around `node` up to its root, and the root's name. */
function placeOf(node: ts.Node): { keys: string[]; root?: string } {
  const keys: string[] = [];
  for (let cur = node.parent; cur; cur = cur.parent) {
    if (ts.isPropertyAssignment(cur) || ts.isPropertySignature(cur) || ts.isShorthandPropertyAssignment(cur)) {
      const name = propertyName(cur.name);
      if (name !== undefined) keys.unshift(name);
    } else if (
      ts.isVariableDeclaration(cur) &&
      ts.isIdentifier(cur.name) &&
      ts.isSourceFile(cur.parent.parent.parent)
    ) {
      return { keys, root: cur.name.text };
    } else if ((ts.isInterfaceDeclaration(cur) || ts.isTypeAliasDeclaration(cur)) && ts.isSourceFile(cur.parent)) {
      return { keys, root: cur.name.text };
    } else if (ts.isFunctionLike(cur) || ts.isSourceFile(cur)) {
      return { keys };
    }
  }
  return { keys };
}

interface Scan {
  /** Every property declared, with its place. */
  properties: Found[];
  /** Where a named root is used as a property's value or type: root name -> the places. */
  uses: Map<string, Found[]>;
  /** Reads, deletes and properties named like a variable, and `env:` facts: name -> places. */
  variables: Map<string, string[]>;
  /** `.option('--flag ...')` and `flag: '--flag ...'`: long flag -> places. */
  flags: Map<string, string[]>;
}

function add<V>(map: Map<string, V[]>, key: string, value: V) {
  map.set(key, [...(map.get(key) ?? []), value]);
}

/**
 * A value written out where it stands: a literal (a hard-coded value of a setting is a second
 * default), or a declaration (`setting(...)`, `section(...)`). A computed value (an override such
 * as `Math.min(cfg.timeouts.requestMs, 5000)`) uses a setting, it does not declare it.
 */
function writtenOut(e: ts.Expression): boolean {
  if (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e))
    return writtenOut(e.expression);
  if (ts.isCallExpression(e)) return ts.isIdentifier(e.expression) && /^(setting|section)$/.test(e.expression.text);
  return (
    ts.isStringLiteral(e) ||
    ts.isNumericLiteral(e) ||
    ts.isNoSubstitutionTemplateLiteral(e) ||
    e.kind === ts.SyntaxKind.TrueKeyword ||
    e.kind === ts.SyntaxKind.FalseKeyword ||
    ts.isArrayLiteralExpression(e) ||
    ts.isObjectLiteralExpression(e) ||
    (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(e.operand))
  );
}

/** The command a `.option(...)` call is chained on (`command('mutation')`), if any. */
function commandOf(call: ts.CallExpression): string | undefined {
  for (let e: ts.Expression = call.expression; ; ) {
    if (ts.isPropertyAccessExpression(e)) e = e.expression;
    else if (ts.isCallExpression(e)) {
      if (ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'command') {
        const arg = e.arguments[0];
        return arg && ts.isStringLiteral(arg) ? arg.text.split(' ')[0] : undefined;
      }
      e = e.expression;
    } else return undefined;
  }
}

function scan(files: string[]): Scan {
  const out: Scan = { properties: [], uses: new Map(), variables: new Map(), flags: new Map() };
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (n: ts.Node) =>
      `${relative(PACKAGE_ROOT, file)}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) || ts.isPropertySignature(node) || ts.isShorthandPropertyAssignment(node)) {
        const name = propertyName(node.name);
        if (name !== undefined) {
          const place = placeOf(node);
          const members: readonly ts.Node[] =
            ts.isObjectLiteralExpression(node.parent) ||
            ts.isTypeLiteralNode(node.parent) ||
            ts.isInterfaceDeclaration(node.parent)
              ? ts.isObjectLiteralExpression(node.parent)
                ? node.parent.properties
                : node.parent.members
              : [];
          const siblings = members.flatMap((m) => {
            const n = (m as { name?: ts.PropertyName }).name;
            const text = n ? propertyName(n) : undefined;
            return text !== undefined && text !== name ? [text] : [];
          });
          const found = {
            file,
            where: where(node),
            keys: [...place.keys, name],
            root: place.root,
            siblings,
            declares: ts.isPropertySignature(node) || (ts.isPropertyAssignment(node) && writtenOut(node.initializer)),
          };
          out.properties.push(found);
          add(out.variables, name, found.where);
          // A constant or type used as this property's value: its properties lie at this path.
          const value = ts.isShorthandPropertyAssignment(node)
            ? node.name
            : ts.isPropertyAssignment(node)
              ? node.initializer
              : node.type && ts.isTypeReferenceNode(node.type)
                ? node.type.typeName
                : undefined;
          if (value && ts.isIdentifier(value))
            add(out.uses, `${rootFile(file, value.text, source)}#${value.text}`, found);
          // `env: 'NAME'` and `flag: '--name <arg>'` of a declared setting or flag.
          if (ts.isPropertyAssignment(node) && ts.isStringLiteral(node.initializer)) {
            if (name === 'env') add(out.variables, node.initializer.text, found.where);
            if (name === 'flag') add(out.flags, node.initializer.text.split(' ')[0]!, found.where);
          }
        }
      }
      if (ts.isPropertyAccessExpression(node) && /env$/i.test(node.expression.getText(source)))
        add(out.variables, node.name.text, where(node));
      if (
        ts.isElementAccessExpression(node) &&
        /env$/i.test(node.expression.getText(source)) &&
        ts.isStringLiteral(node.argumentExpression)
      )
        add(out.variables, node.argumentExpression.text, where(node));
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        /^(option|requiredOption)$/.test(node.expression.name.text) &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        const command = commandOf(node);
        if (command === undefined || command === 'run')
          add(out.flags, node.arguments[0].text.split(/[ ,]/)[0]!, where(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** The file whose top-level `name` an identifier of `file` names: its own, or the one it imports it from. */
function rootFile(file: string, name: string, source: ts.SourceFile): string {
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings) && bindings.elements.some((e) => e.name.text === name))
      return join(file, '..', statement.moduleSpecifier.text.replace(/\.js$/, '.ts'));
  }
  return file;
}

/** The full paths of a property: its keys, under every property that uses its root (resolved transitively). */
function fullPaths(found: Found, uses: Map<string, Found[]>, depth = 0): string[] {
  const own = found.keys.join('.');
  const users = found.root ? uses.get(`${found.file}#${found.root}`) : undefined;
  if (!users?.length || depth > 5) return [own];
  return users.flatMap((u) => fullPaths(u, uses, depth + 1).map((p) => `${p}.${own}`));
}

const files = [...SCANNED.flatMap((d) => sources(join(PACKAGE_ROOT, d))), join(PACKAGE_ROOT, 'vitest.config.ts')];
const found = scan(files);
const declared = settings().filter((s) => (s.schema as { [DECLARED]?: true })[DECLARED]);

describe('every setting is declared once', () => {
  it('the schema declares the settings, with variables and flags', () => {
    expect(declared.length).toBeGreaterThan(90);
    expect(declared.filter((s) => s.schema['x-env']).length).toBeGreaterThan(25);
    expect(declared.filter((s) => s.schema['x-cli']).length).toBeGreaterThan(10);
  });

  it("each setting's path appears in exactly one hand-written declaration", () => {
    const byPath = new Map<string, string[]>();
    const top = new Set(declared.filter((s) => s.depth === 0).map((s) => s.path));
    for (const f of found.properties) {
      if (!f.declares || !PATH_SCOPE.test(relative(PACKAGE_ROOT, f.file))) continue;
      for (const p of fullPaths(f, found.uses)) {
        // A top-level name (`mounts`, `assumptions`) is the config's only in an object shaped like it.
        if (!p.includes('.') && !f.siblings.some((s) => top.has(s))) continue;
        add(byPath, p, f.where);
      }
    }
    const wrong = declared
      .filter((s) => !s.section)
      .map((s) => ({ path: s.path, at: byPath.get(s.path) ?? [] }))
      .filter((d) => d.at.length !== 1);
    expect(wrong).toEqual([]);
  });

  it("each setting's environment variable appears in exactly one hand-written declaration", () => {
    const wrong = declared
      .filter((s) => s.schema['x-env'])
      .map((s) => ({ env: s.schema['x-env']!, at: found.variables.get(s.schema['x-env']!) ?? [] }))
      .filter((d) => d.at.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('each flag of run appears in exactly one hand-written declaration', () => {
    const wrong = runFlags()
      .map((f) => f.flag.split(' ')[0]!)
      .map((flag) => ({ flag, at: found.flags.get(flag) ?? [] }))
      .filter((d) => d.at.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('the options of run are exactly the declared flags, each once', () => {
    const program = buildProgram({
      embedded: { switches: async () => ({ faults: [], variants: [] }) as never, start: async () => ({}) as never },
      globalSetup: 'compose/global-setup.ts',
    });
    const run = program.commands.find((c) => c.name() === 'run')!;
    expect(run.options.map((o) => o.flags)).toEqual(runFlags().map((f) => f.flag));
  });
});
