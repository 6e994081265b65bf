/**
 * The `$filter` expressions the simulated cloud understands, as Graph and the resource manager
 * take them: clauses `<property> eq '<value>'` (a quote inside the value doubled) and the
 * functions `atScope()` and `assignedTo('<id>')`, joined by `and`. Anything else is refused the
 * way the real APIs refuse a query they do not support.
 */
import { HttpError } from './http.js';

export type Clause = { kind: 'eq'; property: string; value: string } | { kind: 'call'; name: string; args: string[] };

const QUOTED = "'((?:[^']|'')*)'";
const CLAUSE = new RegExp(`^\\s*(?:([A-Za-z][\\w/]*)\\s+eq\\s+${QUOTED}|([A-Za-z]+)\\((?:\\s*${QUOTED}\\s*)?\\))\\s*`);

/** The clauses of a filter; `code` is the error code of the API that refuses one it cannot read. */
export function parseFilter(filter: string | null, code: string): Clause[] {
  if (filter === null || filter.trim() === '') return [];
  const out: Clause[] = [];
  let rest = filter;
  for (;;) {
    const m = CLAUSE.exec(rest);
    if (!m) throw new HttpError(400, code, `Invalid filter clause: '${filter}'.`);
    if (m[1]) out.push({ kind: 'eq', property: m[1], value: m[2]!.replace(/''/g, "'") });
    else out.push({ kind: 'call', name: m[3]!, args: m[4] === undefined ? [] : [m[4].replace(/''/g, "'")] });
    rest = rest.slice(m[0].length);
    if (rest === '') return out;
    const and = /^and\s+/i.exec(rest);
    if (!and) throw new HttpError(400, code, `Invalid filter clause: '${filter}'.`);
    rest = rest.slice(and[0].length);
  }
}

/** The value of `property eq '...'` among the clauses, refusing any property not in `allowed`. */
export function equalities(clauses: Clause[], allowed: string[], code: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of clauses) {
    if (c.kind !== 'eq' || !allowed.includes(c.property))
      throw new HttpError(
        400,
        code,
        `Unsupported or invalid query filter clause specified for property '${c.kind === 'eq' ? c.property : c.name}'.`,
      );
    out[c.property] = c.value;
  }
  return out;
}
