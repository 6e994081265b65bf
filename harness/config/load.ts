/**
 * Builds the TargetConfig once: defaults, then a config file (YAML or JSON), then environment
 * variables, then CLI flags. A wrong value raises ConfigError naming the setting and its source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes, randomInt } from 'node:crypto';
import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { TargetConfig } from './types.js';
import { configSchema } from './schema.js';
import { envNames } from './settings.js';
import { cloudConfigFromEnv } from './cloud.js';
import { loadCatalogue } from '../spec/catalogue.js';
import { cachedValidator } from '../cache/schema-cache.js';
import { parseYaml } from '../cache/yaml.js';

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`config error: ${setting}: ${message}`);
  }
}

/** Capabilities the harness can find out by asking the target (harness/setup/probe.ts). */
export const PROBEABLE: (keyof TargetConfig['capabilities'])[] = [
  'referenceControl',
  'clock',
  'namespaces',
  'requireRequestHeader',
  'schedAcl',
  'schedControl',
];

export const ALL_SUITES = ['core', 'kv', 'auth', 'transit', 'ldap', 'cloud', 'jobs', 'release', 'robustness'];

type Json = Record<string, unknown>;

export function defaults(): TargetConfig {
  const runId = randomBytes(4)
    .toString('hex')
    .replace(/^[0-9]/, 'r')
    .slice(0, 6);
  return {
    runId,
    prefix: `cf-${runId}`,
    embedded: false,
    schedEmbedded: false,
    svc: { addr: '', token: '', namespace: '', skipVerify: false, version: '' },
    sched: {
      addr: '',
      token: '',
      provisioner: '',
      tokens: [],
      namespaces: [],
      runningTask: { Driver: 'raw_exec', Config: { command: '/bin/sleep', args: ['3600'] } },
      failingTask: { Driver: 'raw_exec', Config: { command: '/bin/false' } },
      actionTasks: {
        isolated: { Driver: 'exec', Config: { command: '/bin/sleep', args: ['3600'] } },
        unisolated: { Driver: 'raw_exec', Config: { command: '/bin/sleep', args: ['3600'] } },
      },
    },
    capabilities: {
      namespaces: false,
      enterprise: false,
      cmac: false,
      managedKeys: false,
      sealRandom: false,
      clock: false,
      mounts: true,
      requireRequestHeader: false,
      referenceControl: false,
      schedAcl: false,
      schedControl: false,
    },
    probe: [],
    dialect: {
      tokenHeader: 'X-Svc-Token',
      namespaceHeader: 'X-Svc-Namespace',
      requestHeader: 'X-Svc-Request',
      nextTokenHeader: 'X-Sched-NextToken',
      schedTokenHeader: 'X-Sched-Token',
      outputPrefix: 'svc',
    },
    timeouts: { requestMs: 10_000, testMs: 60_000, hookMs: 60_000, lockWaitMs: 900_000 },
    timing: { maxRealWaitSeconds: 0, pollMs: 100, settleSeconds: 10 },
    limits: { maxRequestBytes: 32 * 1024 * 1024 },
    lockout: { threshold: 5, durationSeconds: 900, resetSeconds: 900, allowLongWaits: false },
    assumptions: {},
    mounts: {},
    // concurrency 8: one write lane per spec document (8) can run at once, so the longest lane
    // (transit) bounds the suite; more would only add reads to a burst, fewer leaves lanes waiting.
    robustness: { seed: randomInt(0, 2 ** 31 - 1), examplesPerOperation: 8, timeCapSeconds: 30, concurrency: 8 },
    reference: { faults: [], variants: [], version: '1.13.10' },
    run: { suites: [...ALL_SUITES], reportDir: 'reports' },
  };
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

function envBool(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^(1|true|yes)$/i.test(value)) return true;
  if (/^(0|false|no)$/i.test(value)) return false;
  throw new ConfigError(name, `must be true or false, got "${value}"`);
}

/** Environment variables as the users of such services already set them. */
export function fromEnv(env: NodeJS.ProcessEnv): Json {
  const out: Json = {};
  const set = (path: string[], value: unknown) => {
    if (value === undefined || value === '') return;
    let cur = out;
    for (const k of path.slice(0, -1)) cur = (cur[k] ??= {}) as Json;
    cur[path[path.length - 1]!] = value;
  };
  set(['svc', 'addr'], env.SVC_ADDR);
  set(['svc', 'token'], env.SVC_TOKEN);
  set(['svc', 'namespace'], env.SVC_NAMESPACE);
  set(['svc', 'cacert'], env.SVC_CACERT);
  set(['svc', 'skipVerify'], envBool('SVC_SKIP_VERIFY', env.SVC_SKIP_VERIFY));
  set(['svc', 'version'], env.SVC_VERSION);
  set(['sched', 'addr'], env.SCHED_ADDR);
  set(['sched', 'token'], env.SCHED_TOKEN);
  set(['sched', 'provisioner'], env.SCHED_PROVISIONER);
  set(['run', 'assumptions'], env.CONFORMANCE_ASSUMPTIONS);
  if (env.LDAP_URL) {
    set(['ldap', 'url'], env.LDAP_URL);
    set(['ldap', 'bindDn'], env.LDAP_BIND_DN);
    set(['ldap', 'bindPass'], env.LDAP_BIND_PASS);
    set(['ldap', 'baseDn'], env.LDAP_BASE_DN);
    set(['ldap', 'userDn'], env.LDAP_USER_DN);
    set(
      ['ldap', 'serviceAccounts'],
      env.LDAP_SERVICE_ACCOUNTS?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
    set(
      ['ldap', 'users'],
      env.LDAP_USERS?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }
  const cloud = cloudConfigFromEnv(env);
  if (Object.keys(cloud).length) out.cloud = cloud;
  if (env.REF_FAULTS !== undefined)
    set(
      ['reference', 'faults'],
      env.REF_FAULTS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  if (env.REF_VARIANTS !== undefined)
    set(
      ['reference', 'variants'],
      env.REF_VARIANTS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  return out;
}

export interface CliOverrides {
  suites?: string[];
  files?: string[];
  reportDir?: string;
  expectationsFile?: string;
  previousResults?: string;
  requireComplete?: boolean;
  /** `report` or `strict` (run.assumptions). */
  assumptions?: string;
  faults?: string[];
  variants?: string[];
  referenceVersion?: string;
  seed?: number;
}

function fromCli(cli: CliOverrides): Json {
  const run: Json = {};
  if (cli.suites) run.suites = cli.suites;
  if (cli.files) run.files = cli.files;
  if (cli.reportDir) run.reportDir = cli.reportDir;
  if (cli.expectationsFile) run.expectationsFile = cli.expectationsFile;
  if (cli.previousResults) run.previousResults = cli.previousResults;
  if (cli.requireComplete) run.requireComplete = true;
  if (cli.assumptions) run.assumptions = cli.assumptions;
  const reference: Json = {};
  if (cli.faults) reference.faults = cli.faults;
  if (cli.variants) reference.variants = cli.variants;
  if (cli.referenceVersion) reference.version = cli.referenceVersion;
  const out: Json = { run, reference };
  if (cli.seed !== undefined) out.robustness = { seed: cli.seed };
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

/** Setting path to its environment variable, for messages (from the schema's `x-env`). */
const ENV_NAMES = envNames();

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
  cli?: CliOverrides;
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
  merged = merge(merged, fromCli(opts.cli ?? {}), 'command line', origins);
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
    const envName = ENV_NAMES[setting];
    const reason =
      err.keyword === 'additionalProperties'
        ? 'unknown setting'
        : err.keyword === 'pattern'
          ? 'has an invalid format'
          : (err.message ?? 'invalid');
    throw new ConfigError(
      envName && source === 'environment' ? `${setting} (${envName})` : setting,
      `${reason} (from ${source})`,
    );
  }
  const cfg = merged as unknown as TargetConfig;
  cfg.probe = PROBEABLE.filter((k) => !origins.has(`capabilities.${k}`));
  cfg.userCapabilities = (Object.keys(cfg.capabilities) as (keyof TargetConfig['capabilities'])[]).filter((k) =>
    origins.has(`capabilities.${k}`),
  );
  for (const s of cfg.run.suites)
    if (!ALL_SUITES.includes(s))
      throw new ConfigError('--suite', `unknown suite "${s}"; known: ${ALL_SUITES.join(', ')}`);
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
    throw new ConfigError('svc.token (SVC_TOKEN)', 'is required when SVC_ADDR names a target');
  if (cfg.svc.cacert && !existsSync(cfg.svc.cacert))
    throw new ConfigError('svc.cacert (SVC_CACERT)', `file not found: ${cfg.svc.cacert}`);
  cfg.svc.namespace = cfg.svc.namespace.replace(/\/+$/, '');
  if (cfg.svc.version)
    cfg.svc.versionSource =
      origins.get('svc.version') === 'environment'
        ? 'environment (SVC_VERSION)'
        : `${origins.get('svc.version') ?? 'config'} (svc.version)`;
  if (cfg.sched.provisioner === 'config' && !cfg.sched.tokens.length && !cfg.sched.namespaces.length) {
    throw new ConfigError(
      'sched.provisioner',
      'is "config" but neither sched.tokens nor sched.namespaces lists anything',
    );
  }
  return cfg;
}
