/**
 * The `dialect.names` part of the config schema: the target's names for the documents' fields,
 * values, engine types, environment variables and capabilities (harness/dialect/names.ts applies
 * them). Its types follow from it.
 */
import { Type } from '@sinclair/typebox';
import { map, part, type Static } from '../../contract/setting.js';

/** A name map: documents' name -> target's name (non-empty strings). */
const nameMap = (description: string) =>
  Type.Optional(
    part(
      description,
      Type.Unsafe<Record<string, string>>({
        type: 'object',
        additionalProperties: { type: 'string', minLength: 1 },
        propertyNames: { minLength: 1 },
      }),
    ),
  );
/** Renames inside one scope (an engine's mount, or the scheduler API). */
const scopeProperties = {
  fields: nameMap("field names (object keys, at any depth): documents' name to the target's"),
  values: Type.Optional(
    part(
      "enum values of one field: field name to a map of documents' value to the target's",
      map(
        Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string', minLength: 1 } }),
      ),
    ),
  ),
};
const scopeNames = Type.Object(scopeProperties, { additionalProperties: false });
const envNames = Type.Optional(
  part(
    "environment variable names: documents' name to the target's (`CLOUD_TENANT_ID: AZURE_TENANT_ID`)",
    map(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
  ),
);

/** dialect.names: one block per API so each side of a profile stands alone. */
export const namesSchema = Type.Object(
  {
    svc: Type.Optional(
      part(
        "the secrets service's names",
        Type.Object(
          {
            mountTypes: nameMap("engine types in sys/mounts: documents' type to the target's (`cloud: azure`)"),
            engines: Type.Optional(
              part(
                "renames inside one engine, keyed by the documents' default mount (`cloud`, `ldap`, `secret`, `auth/userpass`; `*` applies to every path): `fields` and `values`",
                map(scopeNames),
              ),
            ),
            env: envNames,
          },
          { additionalProperties: false },
        ),
      ),
    ),
    sched: Type.Optional(
      part(
        "the job scheduler's names (one scope for every path): `fields`, `values`, `env`, `capabilities`",
        Type.Object(
          {
            ...scopeProperties,
            env: envNames,
            capabilities: nameMap(
              "ACL capability names of the scheduler's namespace rules: documents' name to the target's (`policy-override: sentinel-override`), used when the suite asks a provisioner for a token",
            ),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

/** Renames inside one scope (an engine's mount, or the scheduler API): `fields` and `values`. */
export type ScopeNames = Static<typeof scopeNames>;
/** `dialect.names`: one block per API, so each side of a profile can be kept (and split) on its own. */
export type NamesDialect = Static<typeof namesSchema>;
/** The secrets service's names (`dialect.names.svc`). */
export type SvcNames = NonNullable<NamesDialect['svc']>;
