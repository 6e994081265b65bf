/** What the sys routes share: permission checks, body field checks, namespaces, timestamps. */
import type { Capability } from '../acl.js';
import { operationFor } from '../engine.js';
import { badRequest, methodNotAllowed, permissionDenied } from '../errors.js';
import type { Method } from '../core.js';
import type { SysContext } from '../sys.js';

export function requireCap(ctx: SysContext, cap: Capability, path = ctx.fullPath): void {
  if (ctx.token && !ctx.core.can(ctx.token, cap, path)) throw permissionDenied();
}

/**
 * A path that only lists: the reference serves a plain GET like LIST, unless the rules refuse it
 * as a method the path does not support.
 */
export function listOnly(ctx: SysContext): void {
  if (ctx.method === 'GET' && ctx.core.rules.listOnlyRefusesGet) throw methodNotAllowed();
}

/** RFC 3339 for the core's lookups. */
export const timestamp = (ctx: SysContext, ms: number) => ctx.core.rules.timestamp(ms);

/** The capability a sys request needs: its operation, a write counted as an update. */
export const capFor = (method: Method): Capability => operationFor(method, true);

export const nsPrefix = (ctx: SysContext) => (ctx.namespace ? `${ctx.namespace}/` : '');

/** Fields that hold a JSON object (a map of settings) must be one when present. */
export function objects(body: Record<string, unknown>, ...keys: string[]): void {
  for (const key of keys) {
    const v = body[key];
    if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v)))
      throw badRequest(`field "${key}" must be an object`);
  }
}

/** Maps of strings (mount options, metadata): an object, each value a string, number or boolean. */
export function stringMaps(body: Record<string, unknown>, ...keys: string[]): void {
  objects(body, ...keys);
  for (const key of keys) {
    const v = body[key] as Record<string, unknown> | undefined | null;
    if (v && Object.values(v).some((x) => x !== null && typeof x === 'object'))
      throw badRequest(`field "${key}" must map names to strings`);
  }
}

export function str(body: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) {
    if (required) throw badRequest(`missing required field "${key}"`);
    return undefined;
  }
  if (typeof v !== 'string') throw badRequest(`field "${key}" must be a string`);
  return v;
}
