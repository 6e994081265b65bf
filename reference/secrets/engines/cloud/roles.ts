/**
 * Parsing of the cloud engine's role fields. Pure: lookups against the directory happen in the
 * engine; here only shapes are checked, so bad input fails before any remote call.
 */
import { badRequest } from '../../errors.js';

export interface RoleItem {
  role_name?: string;
  role_id?: string;
  scope: string;
}
export interface GroupItem {
  group_name?: string;
  object_id?: string;
}

export const SIGN_IN_AUDIENCES = [
  'CloudADMyOrg',
  'CloudADMultipleOrgs',
  'CloudADandPersonalAccount',
  'PersonalAccount',
];

/** A field that holds an escaped JSON array; `lenient` treats malformed input as empty (a fault). */
export function parseJsonArray(field: string, value: unknown, lenient = false): unknown[] {
  if (typeof value !== 'string') {
    if (lenient) return [];
    throw badRequest(`${field} must be a string holding a JSON array`);
  }
  if (value.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    if (lenient) return [];
    throw badRequest(`error parsing ${field}: not valid JSON`);
  }
  if (!Array.isArray(parsed)) {
    if (lenient) return [];
    throw badRequest(`error parsing ${field}: expected a JSON array`);
  }
  return parsed;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function parseRoleItems(items: unknown[], requireScope: boolean): RoleItem[] {
  return items.map((raw, i) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`cloud_roles[${i}] must be an object`);
    const item = raw as Record<string, unknown>;
    if (requireScope && !nonEmpty(item.scope)) throw badRequest(`cloud_roles[${i}] needs a scope`);
    if (!nonEmpty(item.role_name) && !nonEmpty(item.role_id))
      throw badRequest(`cloud_roles[${i}] needs role_name or role_id`);
    return {
      scope: typeof item.scope === 'string' ? item.scope : '',
      ...(nonEmpty(item.role_name) ? { role_name: item.role_name } : {}),
      ...(nonEmpty(item.role_id) ? { role_id: item.role_id } : {}),
    };
  });
}

export function parseGroupItems(items: unknown[]): GroupItem[] {
  return items.map((raw, i) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`cloud_groups[${i}] must be an object`);
    const item = raw as Record<string, unknown>;
    if (!nonEmpty(item.group_name) && !nonEmpty(item.object_id))
      throw badRequest(`cloud_groups[${i}] needs group_name or object_id`);
    return {
      ...(nonEmpty(item.group_name) ? { group_name: item.group_name } : {}),
      ...(nonEmpty(item.object_id) ? { object_id: item.object_id } : {}),
    };
  });
}

/** Comma-separated tags (a list of strings is taken too); no blanks inside, 1..256 characters. */
export function parseTags(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!list || list.some((t) => typeof t !== 'string')) throw badRequest('tags must be a comma-separated string');
  const tags = [...new Set((list as string[]).map((t) => t.trim()).filter((t) => t !== ''))];
  for (const t of tags) {
    if (t.length > 256) throw badRequest('each tag must be between 1 and 256 characters');
    if (/\s/.test(t)) throw badRequest('whitespace is not allowed in tags');
  }
  return tags;
}

export function parseBool(field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  throw badRequest(`${field} must be a boolean`);
}
