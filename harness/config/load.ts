/**
 * Builds the TargetConfig once: defaults, then a config file (YAML or JSON), then environment
 * variables, then CLI flags. A wrong value raises ConfigError naming the setting and its source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { TargetConfig } from './types.js';
import { ALL_SUITES, configSchema } from './schema.js';
import { defaultValues, type FlagValues, fromEnv, fromFlags, settingName, settings } from './settings.js';
import { ConfigError } from './error.js';
import { loadCatalogue } from '../spec/catalogue.js';
import { cachedValidator } from '../cache/schema-cache.js';
import { parseYaml } from '../cache/yaml.js';

export { ConfigError } from './error.js';
export { fromEnv } from './settings.js';
export { ALL_SUITES } from './schema.js';

/** Capabilities the harness can find out by asking the target (harness/setup/probe.ts). */
export const PROBEABLE: (keyof TargetConfig['capabilities'])[] = [
  'referenceControl',
  'clock',
  'namespaces',
  'requireRequestHeader',
  'schedAcl',
  'schedControl',
];

type Json = Record<string, unknown>;

/** The config before any source: every setting at its default (schema.ts), per-run values chosen now. */
export function defaults(): TargetConfig {
  return defaultValues() as unknown as TargetConfig;
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep merge where `over` wins; arrays are replaced, not merged. Records where each key came from. */
function merge(base: Json, over: Json, source: string, origins: Map<string, string>, path = ''): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    const p = path ? `${path}.${k}` : k;
    if (isObject(v) && isObject(base[k])) out[k] = merge(base[k] as Json, v, source, origins, p);
    else {
      out[k] = v;
      origins.set(p, source);
    }
  }
  return out;
}

export function readConfigFile(path: string): Json {
  const full = resolve(path);
  if (!existsSync(full)) throw new ConfigError('--config', `file not found: ${path}`);
  let doc: unknown;
  try {
    const text = readFileSync(full, 'utf8');
    doc = full.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError('--config', `cannot parse ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return {};
  if (!isObject(doc)) throw new ConfigError('--config', `${path} must hold a mapping at the top level`);
  return doc;
}

/** Setting path to its variable and flag, for messages. */
const SOURCES = new Map(settings().map((s) => [s.path, s.schema]));

let validator: ValidateFunction | undefined;
/**
 * The config schema's validator, made on first use (several processes import this module only for
 * its defaults) and kept as cached code: compiling it cost the run's start-up ~130 ms.
 */
function configErrors(config: unknown): ErrorObject[] | undefined {
  validator ??= cachedValidator(
    'config',
    { dialect: 'draft-07', options: { allErrors: true, strict: false } },
    configSchema,
  );
  return validator(config) ? undefined : (validator.errors ?? []);
}

export interface LoadOptions {
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** What the flags of `run` gave, keyed by commander's names (`reportDir`, `suite`). */
  cli?: FlagValues;
}

/**
 * `cloud.envOverrides` may name the target's environment variables (`AZURE_TENANT_ID`) where the
 * profile maps them (dialect.names.svc.env); the suites read the documents' names.
 */
function envOverridesInDocumentNames(merged: Json): void {
  const cloud = merged.cloud as Json | undefined;
  const overrides = cloud?.envOverrides as Record<string, unknown> | undefined;
  const env = ((merged.dialect as Json | undefined)?.names as { svc?: { env?: Record<string, string> } } | undefined)
    ?.svc?.env;
  if (!overrides || !env) return;
  const toDoc = new Map(Object.entries(env).map(([doc, target]) => [target, doc]));
  cloud!.envOverrides = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [toDoc.get(k) ?? k, v]));
}

export function loadConfig(opts: LoadOptions = {}): TargetConfig {
  const env = opts.env ?? process.env;
  const origins = new Map<string, string>();
  let merged = defaults() as unknown as Json;
  const file = opts.file ?? env.CONFORMANCE_CONFIG;
  if (file) merged = merge(merged, readConfigFile(file), `config file ${file}`, origins);
  merged = merge(merged, fromEnv(env), 'environment', origins);
  merged = merge(merged, fromFlags(opts.cli ?? {}), 'command line', origins);
  envOverridesInDocumentNames(merged);
  const errors = configErrors(merged);
  if (errors) {
    const err = errors[0]!;
    const path = err.instancePath.slice(1).replaceAll('/', '.') || '(top level)';
    const setting =
      err.keyword === 'additionalProperties'
        ? `${path === '(top level)' ? '' : `${path}.`}${(err.params as { additionalProperty: string }).additionalProperty}`
        : path;
    const source =
      origins.get(setting) ?? [...origins.entries()].find(([k]) => k.startsWith(setting))?.[1] ?? 'defaults';
    const declared = SOURCES.get(setting);
    const named =
      source === 'environment' && declared?.['x-env']
        ? `${setting} (${declared['x-env']})`
        : source === 'command line' && declared?.['x-cli']
          ? `${setting} (${declared['x-cli'].split(' ')[0]})`
          : setting;
    const reason =
      err.keyword === 'additionalProperties'
        ? 'unknown setting'
        : err.keyword === 'pattern'
          ? 'has an invalid format'
          : (err.message ?? 'invalid');
    throw new ConfigError(named, `${reason} (from ${source})`);
  }
  const cfg = merged as unknown as TargetConfig;
  cfg.probe = PROBEABLE.filter((k) => !origins.has(`capabilities.${k}`));
  cfg.userCapabilities = (Object.keys(cfg.capabilities) as (keyof TargetConfig['capabilities'])[]).filter((k) =>
    origins.has(`capabilities.${k}`),
  );
  for (const s of cfg.run.suites)
    if (!ALL_SUITES.includes(s))
      throw new ConfigError(settingName('run.suites'), `unknown suite "${s}"; known: ${ALL_SUITES.join(', ')}`);
  const catalogue = loadCatalogue();
  for (const id of Object.keys(cfg.assumptions)) {
    const entry = catalogue.get(id);
    if (!entry) throw new ConfigError(`assumptions.${id}`, 'no catalogue entry has this id');
    if (entry.kind !== 'assumption')
      throw new ConfigError(
        `assumptions.${id}`,
        `${id} is a rule of the documents, not an assumption; list a known failure in the expectations file instead`,
      );
  }
  if (cfg.svc.addr && !cfg.svc.token)
    throw new ConfigError(settingName('svc.token'), `is required when ${settingName('svc.addr')} names a target`);
  if (cfg.svc.cacert && !existsSync(cfg.svc.cacert))
    throw new ConfigError(settingName('svc.cacert'), `file not found: ${cfg.svc.cacert}`);
  cfg.svc.namespace = cfg.svc.namespace.replace(/\/+$/, '');
  if (cfg.svc.version)
    cfg.svc.versionSource =
      origins.get('svc.version') === 'environment'
        ? `environment (${SOURCES.get('svc.version')?.['x-env']})`
        : `${origins.get('svc.version') ?? 'config'} (svc.version)`;
  if (cfg.sched.provisioner === 'config' && !cfg.sched.tokens.length && !cfg.sched.namespaces.length) {
    throw new ConfigError(
      'sched.provisioner',
      'is "config" but neither sched.tokens nor sched.namespaces lists anything',
    );
  }
  return cfg;
}
