/**
 * The jobs fixtures are valid input: every job definition (and generated ones) is accepted by the
 * spec's register request schema.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, beforeAll } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { definitionNames, jobDefinition } from '../../fixtures/jobs/index.js';
import { jobGenerator } from '../../fixtures/jobs/generator.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let registerRequest: ValidateFunction;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
(addFormatsModule as unknown as { default: (a: Ajv2020) => void }).default(ajv);

beforeAll(async () => {
  const doc = (await SwaggerParser.dereference(path.join(repoRoot, 'spec/jobs/openapi.yaml'))) as unknown as {
    components: { schemas: Record<string, object> };
  };
  registerRequest = ajv.compile(doc.components.schemas.JobRegisterRequest!);
});

describe('jobs fixtures', () => {
  it.each(definitionNames())('definition %s is a valid register request', (name) => {
    const ok = registerRequest({ Job: jobDefinition(name, `fixture-${name}`) });
    expect(ok, ajv.errorsText(registerRequest.errors)).toBe(true);
  });

  it('generated definitions are valid register requests and reproducible from the seed', () => {
    const a = jobGenerator(7);
    const b = jobGenerator(7);
    for (let i = 0; i < 25; i++) {
      const job = a({ id: `gen-${i}` });
      expect(registerRequest({ Job: job }), ajv.errorsText(registerRequest.errors)).toBe(true);
      expect(b({ id: `gen-${i}` }), 'same seed, same job').toEqual(job);
    }
  });

  it('a definition with a string duration is rejected (the check can fail)', () => {
    const job = jobDefinition('service', 'x') as { TaskGroups: Array<{ Tasks: Array<Record<string, unknown>> }> };
    job.TaskGroups[0]!.Tasks[0]!.KillTimeout = '5s';
    expect(registerRequest({ Job: job })).toBe(false);
  });
});
