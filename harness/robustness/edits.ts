/** Building blocks of the robustness cases: edits of a request body at a property path, one case per edit. */
import type fc from 'fast-check';
import type { CaseKind, Mutation } from './plan.js';

export function setAt(body: unknown, path: string[], value: unknown): unknown {
  const root = structuredClone(body ?? {}) as Record<string, unknown>;
  let cur = root;
  for (const k of path.slice(0, -1)) {
    const next = cur[k];
    cur[k] = next && typeof next === 'object' && !Array.isArray(next) ? next : {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
  return root;
}

export function deleteAt(body: unknown, path: string[]): unknown {
  const root = structuredClone(body ?? {}) as Record<string, unknown>;
  let cur: Record<string, unknown> | undefined = root;
  for (const k of path.slice(0, -1)) cur = cur?.[k] as Record<string, unknown> | undefined;
  if (cur) delete cur[path[path.length - 1]!];
  return root;
}

export function has(body: unknown, path: string[]): boolean {
  let cur = body;
  for (const k of path) {
    if (!cur || typeof cur !== 'object' || !(k in (cur as object))) return false;
    cur = (cur as Record<string, unknown>)[k];
  }
  return true;
}

export const pointer = (path: string[]) => `/${path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

export function bodyCase(
  kind: CaseKind,
  path: string[],
  body: fc.Arbitrary<unknown>,
  query: Record<string, string>,
): Mutation {
  const target = pointer(path);
  return { kind, target, arb: body.map((b) => ({ kind, target, body: b, query })) };
}

/**
 * Names every JavaScript object inherits. An implementation that looks a name from the request up
 * in a plain object finds a function for them instead of nothing, and answers 500: where the name
 * is outside an enum it must be refused (invalid-4xx), where any string is allowed it must not
 * break the service (boundary-no-5xx). A kind of its own, so every operation sends one.
 */
export const INHERITED_NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
