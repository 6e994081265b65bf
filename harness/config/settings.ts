/**
 * The settings of the config schema as a flat list (`svc.addr`, `capabilities.clock`, ...), with
 * their description, environment variable and flag: the source of docs/CONFIGURATION.md and of
 * the environment names in configuration errors.
 */
import { configSchema } from './schema.js';

export interface SchemaNode {
  type?: string;
  description?: string;
  'x-env'?: string;
  'x-cli'?: string;
  readOnly?: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  anyOf?: readonly SchemaNode[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  items?: SchemaNode;
  properties?: Readonly<Record<string, SchemaNode>>;
  additionalProperties?: boolean | SchemaNode;
}

export interface Setting {
  /** Dotted path: `svc.addr`. A section (an object of settings) has children listed after it. */
  path: string;
  depth: number;
  schema: SchemaNode;
  /** True for an object whose properties are listed as settings of their own. */
  section: boolean;
}

/** Every property of the schema, depth first, in the schema's order. */
export function settings(schema: SchemaNode = configSchema as unknown as SchemaNode): Setting[] {
  const out: Setting[] = [];
  const walk = (node: SchemaNode, prefix: string, depth: number) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      const section = !!child.properties && !!Object.keys(child.properties).length;
      out.push({ path, depth, schema: child, section });
      if (section) walk(child, path, depth + 1);
    }
  };
  walk(schema, '', 0);
  return out;
}

/** Setting path to its environment variable (`svc.addr` -> `SVC_ADDR`). */
export function envNames(): Record<string, string> {
  return Object.fromEntries(
    settings()
      .filter((s) => s.schema['x-env'])
      .map((s) => [s.path, s.schema['x-env']!]),
  );
}
