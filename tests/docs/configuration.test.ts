/**
 * docs/CONFIGURATION.md is generated from the config schema and stays true: the file is what
 * `npm run docs:config` writes, every property of the schema is described, and every environment
 * variable and flag it names is the one the harness reads.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromEnv } from '../../harness/config/load.js';
import { configSchema } from '../../harness/config/schema.js';
import { type SchemaNode, settings } from '../../harness/config/settings.js';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';
import { buildProgram } from '../../harness/cli/program.js';
import {
  CONFIG_DOC_COMMAND,
  CONFIG_DOC_FILE,
  ENVIRONMENT_ONLY,
  renderConfigurationDoc,
} from '../../tools/config-docs.js';

/** Every property schema, with its path, at any depth (properties, items, map values, anyOf). */
function properties(node: SchemaNode, path: string, out: { path: string; node: SchemaNode }[] = []) {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    out.push({ path: `${path}${name}`, node: child });
    properties(child, `${path}${name}.`, out);
  }
  if (node.items) properties(node.items, `${path}[].`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    properties(node.additionalProperties, `${path}*.`, out);
  for (const alt of node.anyOf ?? []) properties(alt, path, out);
  return out;
}

function valueAt(obj: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], obj);
}

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (/\.(ts|mjs)$/.test(name)) out.push(full);
  }
  return out;
}

describe('docs/CONFIGURATION.md', () => {
  it(`is what the config schema generates (regenerate with \`${CONFIG_DOC_COMMAND}\`)`, () => {
    expect(
      readFileSync(CONFIG_DOC_FILE, 'utf8'),
      `docs/CONFIGURATION.md is stale: run \`${CONFIG_DOC_COMMAND}\` and commit it`,
    ).toBe(renderConfigurationDoc());
  });

  it('describes every property of the schema', () => {
    const all = properties(configSchema as unknown as SchemaNode, '');
    expect(all.length).toBeGreaterThan(80);
    expect(all.filter((p) => !p.node.description?.trim()).map((p) => p.path)).toEqual([]);
  });

  it('names environment variables the harness reads, at the setting they set', () => {
    const withEnv = settings().filter((s) => s.schema['x-env']);
    expect(withEnv.length).toBeGreaterThan(25);
    const sample = (name: string) =>
      name === 'CLOUD_ENV_OVERRIDES'
        ? '{"CLOUD_TENANT_ID":"t"}'
        : name.endsWith('_SECONDS')
          ? '7'
          : name === 'SVC_SKIP_VERIFY'
            ? 'true'
            : name === 'LDAP_URL'
              ? 'ldap://127.0.0.1:1'
              : 'sample';
    for (const s of withEnv) {
      const name = s.schema['x-env']!;
      // The directory's variables are read together, when LDAP_URL names one.
      const env = { LDAP_URL: 'ldap://127.0.0.1:1', [name]: sample(name) };
      expect(valueAt(fromEnv(env), s.path), `${name} sets ${s.path}`).toBeDefined();
    }
  });

  it('names no environment variable the config loaders read without documenting it', () => {
    const documented = new Set([
      ...settings().flatMap((s) => (s.schema['x-env'] ? [s.schema['x-env']] : [])),
      ...ENVIRONMENT_ONLY.map((e) => e.name),
    ]);
    const read = new Set<string>();
    for (const file of readdirSync(join(PACKAGE_ROOT, 'harness/config')).filter((f) => f.endsWith('.ts')))
      for (const m of readFileSync(join(PACKAGE_ROOT, 'harness/config', file), 'utf8').matchAll(
        /\benv\.([A-Z][A-Z0-9_]+)/g,
      ))
        read.add(m[1]!);
    // The settings' variables are read through the schema (harness/config/settings.ts), by none of their names.
    expect([...read].filter((n) => !documented.has(n))).toEqual([]);
  });

  it('names flags the command line has', () => {
    const program = buildProgram({
      embedded: { switches: async () => ({ faults: [], variants: [] }) as never, start: async () => ({}) as never },
      globalSetup: 'compose/global-setup.ts',
    });
    const run = program.commands.find((c) => c.name() === 'run')!;
    const flags = settings().flatMap((s) => (s.schema['x-cli'] ? [s.schema['x-cli']] : []));
    expect(flags.length).toBeGreaterThan(8);
    expect(flags.filter((f) => !run.options.some((o) => o.flags === f))).toEqual([]);
  });

  it('lists only environment variables some part of the project reads', () => {
    const code = ['harness', 'compose', 'tests', 'bin']
      .flatMap((d) => sources(join(PACKAGE_ROOT, d)))
      .concat(join(PACKAGE_ROOT, 'vitest.config.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unread = ENVIRONMENT_ONLY.filter((e) => !new RegExp(`\\b(env\\.|env\\[')${e.name}\\b`).test(code));
    expect(unread.map((e) => e.name)).toEqual([]);
  });
});
