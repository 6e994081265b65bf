/**
 * Proves that spec/jobs/openapi.yaml accepts every real payload of the job scheduler's public
 * documentation (shared/reference-payloads/jobs/), and that the same validators still reject
 * payloads that break what the document states explicitly (so this test can fail).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, beforeAll } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// shared/ sits beside the repo (../shared) both here and in CI's fresh clone.
const sharedDir = process.env.SHARED_DIR ?? path.resolve(repoRoot, '../shared');
const payloadDir = path.join(sharedDir, 'reference-payloads', 'jobs');
const specPath = path.join(repoRoot, 'spec', 'jobs', 'openapi.yaml');

type Kind = 'request' | 'response';
interface Target {
  operationId: string;
  kind: Kind;
}

/** File-name stem (the documentation's section title) to the operation it belongs to. */
const operations: Record<string, string> = {
  create_job: 'createJob',
  create_job_evaluation: 'createJobEvaluation',
  create_job_plan: 'planJob',
  create_job_version_tag: 'createJobVersionTag',
  delete_job_version_tag: 'deleteJobVersionTag',
  dispatch_job: 'dispatchJob',
  dispatch_job_with_raw_payload_body: 'dispatchJobRawPayload',
  force_new_periodic_instance: 'forcePeriodicInstance',
  job_services: 'listJobServices',
  list_job_actions: 'listJobActions',
  list_job_allocations: 'listJobAllocations',
  list_job_deployments: 'listJobDeployments',
  list_job_evaluations: 'listJobEvaluations',
  list_job_versions: 'listJobVersions',
  list_jobs: 'listJobs',
  parse_job: 'parseJob',
  read_job: 'readJob',
  read_job_s_most_recent_deployment: 'readJobLatestDeployment',
  read_job_scale_status: 'readJobScaleStatus',
  read_job_submission: 'readJobSubmission',
  read_job_summary: 'readJobSummary',
  revert_to_older_job_version: 'revertJob',
  scale_task_group: 'scaleTaskGroup',
  set_job_stability: 'setJobStability',
  stop_a_job: 'stopJob',
  update_existing_job: 'updateJob',
};

const NAME =
  /^(?<stem>[a-z0-9_]+)\.(?<kind>request|response)(?:\.(?<n>\d+))?\.(?<ext>json|doc-invalid\.txt|fixed\.json)$/;

function target(file: string): Target & { ext: string; stem: string } {
  const m = NAME.exec(file);
  if (!m?.groups) throw new Error(`unrecognised payload file name ${file}`);
  const operationId = operations[m.groups.stem!];
  if (!operationId) throw new Error(`no operation mapped for payload ${file}; add it to the table`);
  return { operationId, kind: m.groups.kind as Kind, ext: m.groups.ext!, stem: m.groups.stem! };
}

/**
 * Blocks that are not JSON only because the documentation elided the job with `// ...`. Where the
 * payload directory has no *.fixed.json, the same minimal repair is applied here: drop the comment
 * lines (the elided object becomes `{}`).
 */
function repairDocInvalid(text: string): unknown {
  return JSON.parse(
    text
      .split('\n')
      .filter((l) => !/^\s*\/\/.*$/.test(l))
      .join('\n'),
  );
}

/**
 * The documentation abbreviates some arrays of diff objects as `["..."]`. That string is an
 * elision marker, not data a scheduler sends; it is removed from arrays before validation, and
 * the number removed is reported so the elision stays visible.
 */
function pruneElisions(value: unknown, counter: { n: number }): unknown {
  if (Array.isArray(value)) {
    const kept = value.filter((v) => v !== '...');
    counter.n += value.length - kept.length;
    return kept.map((v) => pruneElisions(v, counter));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pruneElisions(v, counter)]));
  }
  return value;
}

interface Operation {
  operationId: string;
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}

let doc: { paths: Record<string, Record<string, unknown>> };
const byId = new Map<string, Operation>();
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
(addFormatsModule as unknown as { default: (a: Ajv2020) => void }).default(ajv);
const compiled = new Map<string, ValidateFunction>();

function validator(operationId: string, kind: Kind): ValidateFunction {
  const key = `${operationId}:${kind}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const op = byId.get(operationId);
  if (!op) throw new Error(`operation ${operationId} is not in the spec`);
  const content = kind === 'request' ? op.requestBody?.content : op.responses?.['200']?.content;
  const schema = content?.['application/json']?.schema;
  if (!schema)
    throw new Error(
      `${operationId} has no application/json ${kind === 'request' ? 'request body' : '200 response'} schema`,
    );
  const fn = ajv.compile(schema);
  compiled.set(key, fn);
  return fn;
}

function errorsOf(fn: ValidateFunction): string {
  return ajv.errorsText(fn.errors, { separator: '\n' });
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

beforeAll(async () => {
  // validate() checks the document against the OpenAPI 3.1 meta-schema and dereferences it.
  doc = (await SwaggerParser.validate(specPath)) as unknown as typeof doc;
  for (const item of Object.values(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m] as Operation | undefined;
      if (op?.operationId) byId.set(op.operationId, op);
    }
  }
});

const files = existsSync(payloadDir)
  ? readdirSync(payloadDir)
      .filter((f) => f !== 'NOTES.txt')
      .sort()
  : [];

describe('jobs spec accepts the real scheduler payloads', () => {
  it('finds the shared payload directory beside the repo', () => {
    expect(existsSync(payloadDir), `expected payloads at ${payloadDir}`).toBe(true);
    expect(files.length, 'number of payload files').toBeGreaterThan(30);
  });

  it('maps every payload file to an operation of the spec', () => {
    for (const f of files) {
      const t = target(f);
      expect(byId.has(t.operationId), `${f} -> ${t.operationId} exists in the spec`).toBe(true);
    }
  });

  // A *.doc-invalid.txt with a *.fixed.json beside it is replaced by the repair.
  const checked = files.filter(
    (f) => !(f.endsWith('.doc-invalid.txt') && files.includes(f.replace('.doc-invalid.txt', '.fixed.json'))),
  );

  it.each(checked)('%s validates against its schema', (file) => {
    const t = target(file);
    const text = readFileSync(path.join(payloadDir, file), 'utf8');
    let body: unknown;
    if (t.ext === 'doc-invalid.txt') {
      expect(() => JSON.parse(text), `${file} is really not JSON`).toThrow();
      body = repairDocInvalid(text);
    } else {
      body = JSON.parse(text);
    }
    const counter = { n: 0 };
    body = pruneElisions(body, counter);
    if (counter.n > 0) console.info(`${file}: ignored ${counter.n} documentation elision marker(s) "..."`);
    const fn = validator(t.operationId, t.kind);
    const ok = fn(body);
    expect(ok, `${file} against ${t.operationId} ${t.kind}:\n${errorsOf(fn)}`).toBe(true);
  });

  it('the doc-invalid blocks with a repair are indeed not JSON while the repair is', () => {
    for (const f of files.filter((x) => x.endsWith('.doc-invalid.txt'))) {
      expect(() => JSON.parse(readFileSync(path.join(payloadDir, f), 'utf8')), `${f} is not JSON`).toThrow();
      const fixed = f.replace('.doc-invalid.txt', '.fixed.json');
      if (files.includes(fixed)) JSON.parse(readFileSync(path.join(payloadDir, fixed), 'utf8'));
    }
  });
});

describe('jobs spec stays strict where the document is explicit', () => {
  const read = (f: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(payloadDir, f), 'utf8'));
  const rejects = (operationId: string, kind: Kind, body: unknown, why: string): void => {
    const fn = validator(operationId, kind);
    expect(fn(body), `${operationId} ${kind} must reject: ${why}`).toBe(false);
  };

  it('has all 27 endpoints, the action WebSocket included', () => {
    let count = 0;
    for (const item of Object.values(doc.paths)) {
      for (const m of METHODS) if (item[m]) count++;
    }
    expect(count, 'HTTP operations (the action stream is a GET upgrade)').toBe(27);
    const ws = doc.paths['/v1/job/{job_id}/action'] as Record<string, { inputFrame?: object; outputFrame?: object }>;
    expect(ws?.['x-websocket']?.inputFrame, 'x-websocket input frame schema').toBeTypeOf('object');
    expect(ws?.['x-websocket']?.outputFrame, 'x-websocket output frame schema').toBeTypeOf('object');
    expect(
      Object.keys(doc.paths).every((p) => p.startsWith('/v1/')),
      'paths start with /v1',
    ).toBe(true);
  });

  it('rejects a job whose Priority is not an integer', () => {
    rejects('readJob', 'response', { ...read('read_job.response.json'), Priority: '50' }, 'Priority is a string');
  });

  it('rejects a duration that is not integer nanoseconds', () => {
    const job = read('read_job.response.json') as { TaskGroups: Array<{ RestartPolicy: Record<string, unknown> }> };
    job.TaskGroups[0]!.RestartPolicy.Interval = '5m';
    rejects('readJob', 'response', job, 'RestartPolicy.Interval is "5m"');
  });

  it('rejects a register request without Job', () => {
    rejects('createJob', 'request', { EnforceIndex: true }, 'Job is required');
  });

  it('rejects a dispatch payload longer than 16384 bytes once decoded', () => {
    rejects('dispatchJob', 'request', { Payload: Buffer.alloc(16385).toString('base64') }, 'payload of 16385 bytes');
    const fn = validator('dispatchJob', 'request');
    expect(fn({ Payload: Buffer.alloc(16384).toString('base64') }), 'payload of exactly 16384 bytes is accepted').toBe(
      true,
    );
  });

  it('rejects dispatch Meta values that are not strings', () => {
    rejects('dispatchJob', 'request', { Meta: { n: 1 } }, 'Meta is a string map');
  });

  it('rejects a scale request with both Message and Error, or with neither, or without Target.Group', () => {
    const base = read('scale_task_group.request.json');
    rejects('scaleTaskGroup', 'request', { ...base, Error: 'x' }, 'both Message and Error');
    const { Message: _m, ...neither } = base;
    rejects('scaleTaskGroup', 'request', neither, 'neither Message nor Error');
    rejects('scaleTaskGroup', 'request', { ...base, Target: {} }, 'Target without Group');
  });

  it('rejects a revert request naming both JobVersion and TaggedVersion, or no JobID', () => {
    rejects(
      'revertJob',
      'request',
      { JobID: 'a', JobVersion: 1, TaggedVersion: 't' },
      'both JobVersion and TaggedVersion',
    );
    rejects('revertJob', 'request', { JobVersion: 1 }, 'JobID is required');
  });

  it('rejects a submission with an undocumented Format', () => {
    rejects(
      'readJobSubmission',
      'response',
      { ...read('read_job_submission.response.json'), Format: 'yaml' },
      'Format is hcl2 or json',
    );
  });

  it('rejects summary counters that are not integers', () => {
    const s = read('read_job_summary.response.json') as { Summary: { cache: Record<string, unknown> } };
    s.Summary.cache.Running = 'one';
    rejects('readJobSummary', 'response', s, 'Running is a string');
  });

  it('rejects a write response without JobModifyIndex and a dispatch response without DispatchedJobID', () => {
    rejects('stopJob', 'response', { EvalID: 'x' }, 'JobModifyIndex missing');
    const { DispatchedJobID: _d, ...rest } = read('dispatch_job.response.json');
    rejects('dispatchJob', 'response', rest, 'DispatchedJobID missing');
  });

  it('describes the action stream frames: auth and tty_size in, stdout data/close and exited out, no stdin', () => {
    const ws = (doc.paths['/v1/job/{job_id}/action'] as Record<string, { inputFrame: object; outputFrame: object }>)[
      'x-websocket'
    ]!;
    const input = ajv.compile(ws.inputFrame);
    const output = ajv.compile(ws.outputFrame);
    expect(input({ version: 1, auth_token: 'tok' }), 'auth frame').toBe(true);
    expect(input({ tty_size: { height: 24, width: 80 } }), 'tty_size frame').toBe(true);
    expect(input({ stdin: { data: 'bHM=' } }), 'stdin frame is refused').toBe(false);
    expect(input({ tty_size: { height: '24', width: 80 } }), 'tty_size height must be an integer').toBe(false);
    expect(output({ stdout: { data: 'aGVsbG8=' } }), 'stdout data frame').toBe(true);
    expect(output({ stdout: { close: true } }), 'stdout close frame').toBe(true);
    expect(output({ exited: true, result: {} }), 'exited frame').toBe(true);
    expect(output({ exited: true }), 'exited frame needs result').toBe(false);
  });

  it('rejects a parse request without JobHCL', () => {
    rejects('parseJob', 'request', { Canonicalize: true }, 'JobHCL is required');
  });
});
