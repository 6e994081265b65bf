/**
 * The OpenAPI documents of the spec (spec/<area>/openapi.yaml), loaded once: a route table that finds the operation of
 * a method and concrete path, and response validators compiled once per distinct schema (loaded
 * from ajv standalone code cached on disk when it is there, harness/cache/schema-cache.ts).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ErrorObject } from 'ajv';
import { cachedValidators, Validators, type AjvSetup } from '../cache/schema-cache.js';
import { loadDocuments } from './documents.js';
import { SPEC_DIR } from './paths.js';

export { SPEC_DIR };

export type Api = 'svc' | 'sched';

export interface Operation {
  api: Api;
  file: string;
  method: string;
  template: string;
  operationId?: string;
  op: OpenAPIV3_1.OperationObject;
  regex: RegExp;
  /** Literal characters in the template: more literal = more specific. */
  weight: number;
}

export interface SchemaViolation {
  pointer: string;
  message: string;
  expected: unknown;
  actual: unknown;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function templateRegex(template: string, params: OpenAPIV3_1.ParameterObject[]): RegExp {
  const slashy = new Set(
    params
      .filter((p) => p.in === 'path' && (p as unknown as Record<string, unknown>)['x-allow-slashes'])
      .map((p) => p.name),
  );
  let re = '';
  let last = 0;
  for (const m of template.matchAll(/\{([^}]+)\}/g)) {
    re += escapeRe(template.slice(last, m.index));
    re += slashy.has(m[1]!) ? '(.+)' : '([^/]+)';
    last = m.index! + m[0].length;
  }
  re += escapeRe(template.slice(last));
  return new RegExp(`^${re}/?$`);
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** How response bodies are validated: every finding (allErrors), formats checked, annotations allowed. */
export const RESPONSE_SCHEMAS: AjvSetup = {
  dialect: '2020-12',
  options: { allErrors: true, strict: false, validateFormats: true },
  formats: true,
  keywords: ['example', 'xml', 'externalDocs', 'x-allow-slashes'],
};

type ResponseMap = Record<string, OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject>;

/** Every response body schema of the documents (operations and generic answers): what gets validated. */
export function* responseSchemas(docs: OpenAPIV3_1.Document[]): Generator<object | boolean> {
  const ofResponse = function* (response: unknown): Generator<object | boolean> {
    const content = (response as OpenAPIV3_1.ResponseObject | undefined)?.content ?? {};
    for (const media of Object.values(content)) if (media?.schema) yield media.schema as object | boolean;
  };
  for (const doc of docs) {
    for (const item of Object.values(doc.paths ?? {}))
      for (const method of METHODS)
        for (const response of Object.values(
          ((item?.[method] as OpenAPIV3_1.OperationObject | undefined)?.responses ?? {}) as ResponseMap,
        ))
          yield* ofResponse(response);
    const generic = (doc as unknown as { 'x-generic-responses'?: Record<string, { response?: unknown }> })[
      'x-generic-responses'
    ];
    for (const g of Object.values(generic ?? {})) yield* ofResponse(g?.response);
  }
}

export class SpecRegistry {
  readonly operations: Operation[] = [];
  readonly documents = new Map<string, OpenAPIV3_1.Document>();
  /** Answers any path can give (`x-generic-responses` of core/openapi.yaml), keyed by name. */
  readonly generic = new Map<string, { status: number; response: OpenAPIV3_1.ResponseObject }>();
  private constructor(private readonly validators: Validators) {}

  static async load(dir = SPEC_DIR): Promise<SpecRegistry> {
    const { files, docs, key } = await loadDocuments(dir);
    const reg = new SpecRegistry(
      new Validators(
        RESPONSE_SCHEMAS,
        cachedValidators('response', RESPONSE_SCHEMAS, key, () => responseSchemas(Object.values(docs))),
      ),
    );
    for (const file of files) {
      const doc = docs[file]!;
      reg.documents.set(file, doc);
      const generic = (
        doc as unknown as {
          'x-generic-responses'?: Record<string, { status?: number; response?: OpenAPIV3_1.ResponseObject }>;
        }
      )['x-generic-responses'];
      for (const [name, g] of Object.entries(generic ?? {})) {
        if (g && typeof g === 'object' && typeof g.status === 'number' && g.response)
          reg.generic.set(name, { status: g.status, response: g.response });
      }
      const api: Api = file.startsWith('jobs') ? 'sched' : 'svc';
      for (const [template, item] of Object.entries(doc.paths ?? {})) {
        if (!item) continue;
        const shared = (item.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
        for (const method of METHODS) {
          const op = item[method] as OpenAPIV3_1.OperationObject | undefined;
          if (!op) continue;
          const params = [...shared, ...((op.parameters ?? []) as OpenAPIV3_1.ParameterObject[])];
          const path = api === 'sched' ? template.replace(/^\/v1/, '') : template;
          reg.operations.push({
            api,
            file,
            method: method.toUpperCase(),
            template,
            operationId: op.operationId,
            op,
            regex: templateRegex(path, params),
            weight: path.replace(/\{[^}]+\}/g, '').length,
          });
        }
      }
    }
    reg.operations.sort((a, b) => b.weight - a.weight);
    return reg;
  }

  /** The operation for a method and a path relative to the API root (`/secret/data/x`, `/jobs`). */
  find(api: Api, method: string, path: string): Operation | undefined {
    const m = method === 'LIST' ? 'GET' : method === 'PUT' ? ['PUT', 'POST'] : [method];
    const methods = Array.isArray(m) ? m : [m];
    for (const wanted of methods) {
      const op = this.operations.find((o) => o.api === api && o.method === wanted && o.regex.test(path));
      if (op) return op;
    }
    return undefined;
  }

  /**
   * Validates a response body. Returns violations, `undefined` when the spec has no response
   * for that status (itself a finding the caller reports), or [] when valid.
   */
  validateResponse(op: Operation, status: number, contentType: string, body: unknown): SchemaViolation[] | undefined {
    const responses = op.op.responses ?? {};
    const response = (responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default) as
      | OpenAPIV3_1.ResponseObject
      | undefined;
    if (!response) return undefined;
    return this.validateAgainst(response, status, contentType, body);
  }

  /** Validates against a generic answer (help, trailing period...) when its status matches. */
  validateGeneric(name: string, status: number, contentType: string, body: unknown): SchemaViolation[] | undefined {
    const g = this.generic.get(name);
    if (!g || g.status !== status) return undefined;
    return this.validateAgainst(g.response, status, contentType, body);
  }

  private validateAgainst(
    response: OpenAPIV3_1.ResponseObject,
    status: number,
    contentType: string,
    body: unknown,
  ): SchemaViolation[] {
    const content = response.content;
    if (!content || Object.keys(content).length === 0) return [];
    const media = contentType.split(';')[0]!.trim().toLowerCase();
    const key =
      Object.keys(content).find((k) => k === media) ??
      (media.includes('json') ? Object.keys(content).find((k) => k.includes('json')) : undefined);
    if (!key) {
      if (body === undefined || body === '' || body === null) return [];
      return [
        {
          pointer: '',
          message: `content type "${media || '(none)'}" is not documented for status ${status}`,
          expected: Object.keys(content),
          actual: media || '(none)',
        },
      ];
    }
    const schema = content[key]!.schema;
    if (!schema) return [];
    const validate = this.validators.get(schema as object | boolean);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => {
      // A missing or an extra property is a finding about that property, not about its parent:
      // checks that read a field consult the findings at their own pointer.
      const prop =
        e.keyword === 'required'
          ? (e.params as { missingProperty?: string }).missingProperty
          : e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties'
            ? ((e.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ??
              (e.params as { unevaluatedProperty?: string }).unevaluatedProperty)
            : undefined;
      const pointer =
        prop === undefined ? e.instancePath : `${e.instancePath}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return {
        pointer: pointer || '/',
        message: e.message ?? e.keyword,
        expected: e.params,
        actual: valueAt(body, pointer),
      };
    });
  }
}

export function valueAt(body: unknown, pointer: string): unknown {
  if (!pointer) return body;
  let cur: unknown = body;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

let shared: Promise<SpecRegistry> | undefined;
/** One registry per process (per test worker): documents parsed and schemas compiled once. */
export function specRegistry(): Promise<SpecRegistry> {
  shared ??= SpecRegistry.load();
  return shared;
}
