/**
 * The `dialect.names` part of the config schema: the target's names for the documents' fields,
 * values, engine types, environment variables and capabilities (harness/dialect/names.ts).
 */
import { d } from './schema-describe.js';

/** A name map: documents' name -> target's name (non-empty strings). */
const nameMap = {
  type: 'object',
  additionalProperties: { type: 'string', minLength: 1 },
  propertyNames: { minLength: 1 },
} as const;
/** Renames inside one scope (harness/dialect/names.ts ScopeNames). */
const scopeNames = {
  type: 'object',
  additionalProperties: false,
  properties: {
    fields: d("field names (object keys, at any depth): documents' name to the target's", nameMap),
    values: d("enum values of one field: field name to a map of documents' value to the target's", {
      type: 'object',
      additionalProperties: nameMap,
    }),
  },
} as const;
const envName = d("environment variable names: documents' name to the target's (`CLOUD_TENANT_ID: AZURE_TENANT_ID`)", {
  type: 'object',
  additionalProperties: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
});
/** dialect.names: one block per API so each side of a profile stands alone. */
export const namesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    svc: d("the secrets service's names", {
      type: 'object',
      additionalProperties: false,
      properties: {
        mountTypes: d("engine types in sys/mounts: documents' type to the target's (`cloud: azure`)", nameMap),
        engines: d(
          "renames inside one engine, keyed by the documents' default mount (`cloud`, `ldap`, ...): `fields` and `values`",
          { type: 'object', additionalProperties: scopeNames },
        ),
        env: envName,
      },
    }),
    sched: d("the job scheduler's names (one scope for every path): `fields`, `values`, `env`, `capabilities`", {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...scopeNames.properties,
        env: envName,
        capabilities: d(
          "ACL capability names of the scheduler's namespace rules: documents' name to the target's (`policy-override: sentinel-override`), used when the suite asks a provisioner for a token",
          nameMap,
        ),
      },
    }),
  },
} as const;
