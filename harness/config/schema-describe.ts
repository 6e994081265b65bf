/** Builders of the config schema's properties (schema.ts, names-schema.ts). */

/** A schema with its description (and, where they exist, its environment variable and flag). */
export function d<S extends object>(
  description: string,
  schema: S,
  also: { env?: string; cli?: string; readOnly?: true } = {},
): S & { description: string } {
  return {
    ...schema,
    description,
    ...(also.env ? { 'x-env': also.env } : {}),
    ...(also.cli ? { 'x-cli': also.cli } : {}),
    ...(also.readOnly ? { readOnly: true } : {}),
  };
}
