/**
 * Every area's OpenAPI document (spec/<area>/openapi.yaml) must be valid OpenAPI 3.1 and fully
 * dereferenceable (its `../shared/components.yaml` references resolve), since the harness
 * validates every response against them.
 */
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { areaFiles, SPEC_DIR as dir } from '../../harness/spec/paths.js';

const files = areaFiles('openapi');

describe('the OpenAPI documents (spec/<area>/openapi.yaml)', () => {
  it('exist', () => {
    expect(files.length, 'number of OpenAPI documents').toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`${file} validates as OpenAPI 3.1`, async () => {
      const api = (await SwaggerParser.validate(join(dir, file))) as { openapi?: string };
      expect(api.openapi ?? '', `${file} openapi version`).toMatch(/^3\.1\./);
    });

    it(`${file} dereferences completely`, async () => {
      const api = await SwaggerParser.dereference(join(dir, file));
      expect(JSON.stringify(api), `${file} still holds a $ref after dereferencing`).not.toContain('"$ref"');
    });

    it(`${file} gives every operation an operationId and every response a description`, async () => {
      const api = (await SwaggerParser.dereference(join(dir, file))) as {
        paths?: Record<string, Record<string, unknown>>;
      };
      const methods = ['get', 'put', 'post', 'delete', 'patch'];
      const problems: string[] = [];
      for (const [path, item] of Object.entries(api.paths ?? {})) {
        for (const method of methods) {
          const op = item[method] as
            | { operationId?: string; responses?: Record<string, { description?: string }> }
            | undefined;
          if (!op) continue;
          if (!op.operationId) problems.push(`${method.toUpperCase()} ${path}: no operationId`);
          for (const [status, response] of Object.entries(op.responses ?? {})) {
            if (!response.description) problems.push(`${method.toUpperCase()} ${path} ${status}: no description`);
          }
        }
      }
      expect(problems, `${file} operations lacking ids or descriptions`).toEqual([]);
    });
  }
});
