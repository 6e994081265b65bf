/**
 * Known failures of a target, kept outside the tests: a YAML file keyed by requirement id, each
 * with a reason, an optional ticket and an optional expiry date. An expired entry no longer
 * excuses a failure; an entry whose tests now pass is reported as fixed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseYaml } from '../cache/yaml.js';
import type { ValidateFunction } from 'ajv';
import { ConfigError } from '../config/load.js';
import { cachedValidator } from '../cache/schema-cache.js';

export interface Expectation {
  id: string;
  reason: string;
  ticket?: string;
  /** ISO date (YYYY-MM-DD); after it the entry is expired. */
  expires?: string;
}

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['known-failures'],
  properties: {
    'known-failures': {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'reason'],
        properties: {
          id: { type: 'string', minLength: 1 },
          reason: { type: 'string', minLength: 1 },
          ticket: { type: 'string' },
          expires: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        },
      },
    },
  },
};
let validate: ValidateFunction | undefined;

export function loadExpectations(path: string | undefined): Map<string, Expectation> {
  const out = new Map<string, Expectation>();
  if (!path) return out;
  if (!existsSync(path)) throw new ConfigError('run.expectationsFile (--expectations)', `file not found: ${path}`);
  const doc = parseYaml(readFileSync(path, 'utf8'));
  // Made on first use, as cached code: most runs have no expectations file.
  validate ??= cachedValidator('expectations', { dialect: 'draft-07', options: { allErrors: true } }, schema);
  if (!validate(doc)) {
    const e = validate.errors![0]!;
    throw new ConfigError('run.expectationsFile (--expectations)', `${path}${e.instancePath}: ${e.message}`);
  }
  for (const entry of (doc as { 'known-failures': Expectation[] })['known-failures']) out.set(entry.id, entry);
  return out;
}

/** An entry naming no catalogued requirement would silently excuse nothing: a config error. */
export function checkExpectationIds(expectations: Map<string, Expectation>, catalogue: Map<string, unknown>): void {
  const unknown = [...expectations.keys()].filter((id) => !catalogue.has(id));
  if (unknown.length)
    throw new ConfigError('run.expectationsFile (--expectations)', `unknown requirement id(s): ${unknown.join(', ')}`);
}

export function isExpired(e: Expectation, now = new Date()): boolean {
  return !!e.expires && new Date(`${e.expires}T23:59:59Z`).getTime() < now.getTime();
}
