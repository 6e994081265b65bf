/**
 * What a suite file declares, read from its syntax tree (the TypeScript parser), the way
 * Kubernetes reads `framework.ConformanceIt` calls from Go's: the ids of each `conformance({ id,
 * also })` call, and every other string in the code that names a requirement (the rows of a table
 * of cases written as data). Comments, and text inside template strings with substitutions, are
 * not declarations.
 */
import ts from 'typescript';

export interface Declarations {
  /** Ids given to `conformance()` (its `id` and `also`) or as an `id`/`also` property of a case row. */
  declared: string[];
  /** Every string literal of the code (a requirement named in a table of tuples is one). */
  strings: string[];
}

const literal = (n: ts.Node): string | undefined =>
  ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? n.text : undefined;

const propertyName = (p: ts.ObjectLiteralElementLike): string | undefined =>
  ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;

/** The ids an object literal declares: `id: '...'` and the strings of `also: [...]`. */
function idsOf(obj: ts.ObjectLiteralExpression): string[] {
  const out: string[] = [];
  for (const p of obj.properties) {
    if (!ts.isPropertyAssignment(p)) continue;
    const name = propertyName(p);
    if (name === 'id') {
      const v = literal(p.initializer);
      if (v !== undefined) out.push(v);
    } else if (name === 'also' && ts.isArrayLiteralExpression(p.initializer))
      for (const e of p.initializer.elements) {
        const v = literal(e);
        if (v !== undefined) out.push(v);
      }
  }
  return out;
}

export function declarationsOf(source: string, fileName = 'suite.ts'): Declarations {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const declared: string[] = [];
  const strings: string[] = [];
  const visit = (node: ts.Node): void => {
    const s = literal(node);
    if (s !== undefined) strings.push(s);
    // An object with an `id` property whose value is a requirement-shaped string: a conformance()
    // argument or a case row (the wrappers of a suite pass such rows on to conformance()).
    if (ts.isObjectLiteralExpression(node)) {
      const ids = idsOf(node);
      if (ids.length && ids.every((id) => /^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/.test(id))) declared.push(...ids);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { declared, strings };
}
