/**
 * Case files (spec/shared/cases.schema.json): their types, and loading with validation, so a malformed
 * table fails loudly instead of testing nothing. The project's own tests and tools
 * (tools/trace.ts) read case files with it; suites/lib/cases.ts runs them. Of the harness it uses
 * only the caches: a case file and the schema's validator come from node_modules/.cache when
 * unchanged, so a worker's first file loads neither yaml nor ajv's compiler.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { cachedValidator, cachedYamlFile } from '../../harness/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type WorldName = 'kv' | 'transit' | 'jobs-shared' | 'jobs-fresh' | 'cloud-role';
export type CaseStatus = number | '2xx' | '4xx' | 'refused' | 'success';

export interface CaseRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'LIST';
  path?: string;
  query?: Record<string, string>;
  body?: unknown;
  raw?: string;
  contentType?: string;
  payloadBytes?: number;
  rawBytes?: number;
  validate?: boolean;
}

export interface CaseExpect {
  status?: CaseStatus;
  errors?: boolean;
  unchanged?: boolean;
  jobs?: string[];
  bodyAt?: Record<string, unknown>;
  outcome?: 'invalid' | 'fails' | 'refused-or-unusable';
}

export interface Case {
  id: string;
  also?: string[];
  level: 'MUST' | 'SHOULD' | 'MAY';
  title: string;
  world: WorldName;
  given?: {
    secret?: Record<string, unknown>;
    key?: Record<string, unknown>;
    needs?: Array<'roleName' | 'roleId' | 'groupName' | 'appObjectId'>;
  };
  request: CaseRequest;
  expect: CaseExpect;
}

export interface CaseFile {
  /** Path of the file, relative to the package root. */
  file: string;
  description?: string;
  jobs?: Record<string, { definition: string; overrides?: Record<string, unknown> }>;
  cases: Case[];
}

// Made when a case file is first loaded: most files that import the case runner's helpers load
// no case file.
let compiled: ValidateFunction | undefined;
const validator = () =>
  (compiled ??= cachedValidator(
    'cases',
    { dialect: '2020-12', options: { allErrors: true, strict: true, strictTypes: false, strictRequired: false } },
    JSON.parse(readFileSync(path.join(root, 'spec', 'shared', 'cases.schema.json'), 'utf8')) as object,
  ));

/** As ajv's errorsText. */
const errorsText = (errors: ValidateFunction['errors']) =>
  (errors ?? []).map((e) => `data${e.instancePath} ${e.message}`).join(', ');

/** Loads and validates one case file (a path or a URL such as `new URL('./x.cases.yaml', import.meta.url)`). */
export function loadCases(file: string | URL): CaseFile {
  const abs = typeof file === 'string' ? path.resolve(root, file) : fileURLToPath(file);
  const rel = path.relative(root, abs).split(path.sep).join('/');
  const data: unknown = cachedYamlFile('cases', abs);
  const validate = validator();
  if (!validate(data))
    throw new Error(`${rel} does not match spec/shared/cases.schema.json: ${errorsText(validate.errors)}`);
  const cf = { ...(data as Omit<CaseFile, 'file'>), file: rel };
  for (const c of cf.cases) {
    const where = `${rel}: case "${c.title}"`;
    if (c.expect.unchanged && !c.given?.secret) throw new Error(`${where} expects an unchanged secret but seeds none`);
    if (c.given?.secret && !c.request.path?.startsWith('{kv2}/'))
      throw new Error(`${where} seeds a version 2 secret but targets ${c.request.path}`);
    if (c.world.startsWith('jobs-') && !cf.jobs) throw new Error(`${where} needs the file's jobs but it declares none`);
    for (const ref of (c.request.path ?? '').matchAll(/\{job:([^}]+)\}/g))
      if (!cf.jobs?.[ref[1]!]) throw new Error(`${where} names unknown job ${ref[1]}`);
    for (const j of c.expect.jobs ?? []) if (!cf.jobs?.[j]) throw new Error(`${where} expects unknown job ${j}`);
  }
  return cf;
}

/** Every case file under suites/ (package-relative paths), for the project's own tests. */
export function caseFiles(dir = path.join(root, 'suites')): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...caseFiles(p));
    else if (e.name.endsWith('.cases.yaml')) out.push(path.relative(root, p).split(path.sep).join('/'));
  }
  return out.sort();
}
