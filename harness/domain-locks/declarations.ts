/**
 * The domain locks each conformance file declares (suites/domain-locks.yaml) and the guard that
 * holds files to them. The files all run in one bounded pool; what run-unique names cannot keep
 * apart is the target's global state, split into domains:
 * - `secrets`: the secrets service's clock (which the simulated cloud directory shares) and the
 *   settings every client of the service sees (sys/reference/config, audit devices, sys/config/*);
 * - `scheduler`: the scheduler's clock.
 * Each file holds a lock on every domain its suite uses for its whole run (the lock service of
 * this folder): shared, or exclusive for the files suites/domain-locks.yaml lists with the domains
 * they move. A file that moves a domain it does not hold exclusively fails that test with a
 * message naming that file.
 *
 * The settings are part of the secrets domain, not a domain of their own: every file that talks
 * to the secrets service depends on them, so a separate domain would be held shared by exactly
 * the files that hold the secrets clock, and no file could run beside a settings change that
 * could not also run beside a clock move. Two names would cost bookkeeping and buy nothing.
 */
import { join, relative, resolve } from 'node:path';
import { cachedYamlFile } from '../cache/yaml.js';
import type { TimeOwner } from '../author/time.js';
import { PACKAGE_ROOT } from '../spec/paths.js';
import type { Wants } from './locks.js';

/** Project-relative name of the declarations file, as messages and docs name it. */
export const DOMAIN_LOCKS_NAME = 'suites/domain-locks.yaml';
export const DOMAIN_LOCKS_FILE = join(PACKAGE_ROOT, DOMAIN_LOCKS_NAME);

export const DOMAINS = ['secrets', 'scheduler'] as const;
export type Domain = (typeof DOMAINS)[number];

/**
 * A file declared exclusive or sequential, and why. `whenClock`: only because it moves the clock
 * of `domains`, so only where the harness can move that clock: against a target whose clock it
 * cannot move (clockMovable) the file moves nothing, and the declaration does not apply.
 */
export interface Declared {
  domains: Domain[];
  reason: string;
  whenClock: boolean;
}

export interface LockDeclarations {
  /** The domains each suite's files use (held shared unless the file is exclusive). */
  suites: Map<string, Domain[]>;
  /** Exclusive files (project-relative) with the domains they hold exclusively and why. */
  exclusive: Map<string, Declared>;
  /** Files whose tests run one after another, in the order written, and why (the others' run side by side). */
  sequential: Map<string, Declared>;
}

/** Whether the harness can move a domain's clock on this target (otherwise `t.advance` moves nothing). */
export type ClockMovable = (domain: Domain) => boolean;

/** The clocks of a target with these capabilities: the secrets service's, the scheduler's. */
export function clockMovable(capabilities: { clock?: boolean; schedControl?: boolean }): ClockMovable {
  return (d) => (d === 'secrets' ? !!capabilities.clock : !!capabilities.schedControl);
}

const ALWAYS: ClockMovable = () => true;

function domainList(file: string, where: string, value: unknown): Domain[] {
  const list = Array.isArray(value) ? value : [];
  const bad = list.filter((d) => !DOMAINS.includes(d as Domain));
  if (!list.length || bad.length)
    throw new Error(
      `${file}: ${where} needs a list of domains out of ${DOMAINS.join(', ')}${bad.length ? ` (not a domain: ${bad.join(', ')})` : ''}`,
    );
  return [...new Set(list as Domain[])];
}

/** suites/domain-locks.yaml, checked: every domain is known and every exclusive file has a reason. */
export function loadLockDeclarations(file = DOMAIN_LOCKS_FILE): LockDeclarations {
  const doc = (cachedYamlFile('domain-locks', file) ?? {}) as {
    suites?: Record<string, unknown>;
    exclusive?: Record<string, unknown>;
    sequential?: Record<string, unknown>;
  };
  const suites = new Map<string, Domain[]>();
  for (const [suite, domains] of Object.entries(doc.suites ?? {}))
    suites.set(suite, domainList(file, `suite ${suite}`, domains));
  const declared = (kind: string, path: string, entry: unknown): Declared => {
    // A sequential file may give its reason alone: its tests then run in order on every target.
    const e = (typeof entry === 'string' ? { reason: entry } : (entry ?? {})) as {
      domains?: unknown;
      reason?: unknown;
      when?: unknown;
    };
    if (typeof e.reason !== 'string' || !e.reason.trim())
      throw new Error(`${file}: ${kind} file ${path} needs a reason`);
    if (e.when !== undefined && e.when !== 'clock')
      throw new Error(`${file}: ${kind} file ${path}: "when" can only be "clock", not ${JSON.stringify(e.when)}`);
    const whenClock = e.when === 'clock';
    const needsDomains = kind === 'exclusive' || whenClock;
    return {
      domains: needsDomains ? domainList(file, `${kind} file ${path}`, e.domains) : [],
      reason: e.reason,
      whenClock,
    };
  };
  const exclusive = new Map<string, Declared>();
  for (const [path, entry] of Object.entries(doc.exclusive ?? {}))
    exclusive.set(path, declared('exclusive', path, entry));
  const sequential = new Map<string, Declared>();
  for (const [path, entry] of Object.entries(doc.sequential ?? {}))
    sequential.set(path, declared('sequential', path, entry));
  return { suites, exclusive, sequential };
}

let cached: LockDeclarations | undefined;
/** The project's lock declarations, read once per process. */
export function lockDeclarations(): LockDeclarations {
  cached ??= loadLockDeclarations();
  return cached;
}

/** A path relative to the project root, with forward slashes (how domain-locks.yaml names files). */
export function projectPath(file: string): string {
  return relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, file)).split('\\').join('/');
}

/** The suite folder of a project-relative file (`suites/<suite>/...`), or undefined. */
export function suiteOf(file: string): string | undefined {
  return /^suites\/([^/]+)\//.exec(file)?.[1];
}

/**
 * The locks a file holds for its whole run: its suite's domains shared, its declared domains
 * exclusive. A file outside every listed suite holds every domain shared: it may talk to either
 * API, and a shared lock on a domain it does not use costs only waits behind exclusive files.
 */
export function lockWants(
  file: string,
  s: LockDeclarations = lockDeclarations(),
  movable: ClockMovable = ALWAYS,
): Wants {
  const wants: Record<string, 'shared' | 'exclusive'> = {};
  const suite = suiteOf(file);
  for (const d of (suite && s.suites.get(suite)) || DOMAINS) wants[d] = 'shared';
  const e = s.exclusive.get(file);
  for (const d of e?.domains ?? []) if (!e!.whenClock || movable(d)) wants[d] = 'exclusive';
  return wants;
}

/** Whether a declaration applies on a target whose clocks are `movable` (see Declared). */
export function applies(d: Declared | undefined, movable: ClockMovable = ALWAYS): boolean {
  return !!d && (!d.whenClock || d.domains.some(movable));
}

/**
 * Whether the tests of a file run side by side (the default: each test makes its own objects under
 * run-unique names) or one after another in the order written (a file listed under `sequential:`).
 */
export function testsRunConcurrently(
  file: string,
  s: LockDeclarations = lockDeclarations(),
  movable: ClockMovable = ALWAYS,
): boolean {
  return !applies(s.sequential.get(file), movable);
}

/** The domain whose clock `t.advance` moves for a suite whose time belongs to `owner` (harness/author/time.ts). */
export function timeDomain(owner: TimeOwner): Domain {
  return owner === 'sched' ? 'scheduler' : 'secrets';
}

/**
 * Requests whose effect every client of the target sees: the clocks and global settings.
 * Reads (GET) are harmless and the probe makes them.
 */
const GLOBAL_ENDPOINTS: { api: 'svc' | 'sched'; path: RegExp; domain: Domain; what: string }[] = [
  {
    api: 'svc',
    path: /^\/sys\/reference\/clock\/?$/,
    domain: 'secrets',
    what: 'moves the secrets clock (sys/reference/clock)',
  },
  {
    api: 'svc',
    path: /^\/sys\/reference\/config\/?$/,
    domain: 'secrets',
    what: 'changes the reference settings (sys/reference/config)',
  },
  { api: 'svc', path: /^\/sys\/audit(\/|$)/, domain: 'secrets', what: 'changes audit devices (sys/audit)' },
  { api: 'svc', path: /^\/sys\/config\//, domain: 'secrets', what: 'changes a global setting (sys/config)' },
  {
    api: 'sched',
    path: /^\/reference\/clock\/?$/,
    domain: 'scheduler',
    what: 'moves the scheduler clock (reference/clock)',
  },
];

/** What a request does to global state and in which domain, or undefined when it stays within the test's own objects. */
export function globalEffect(
  api: 'svc' | 'sched',
  method: string,
  path: string,
): { domain: Domain; what: string } | undefined {
  if (method === 'GET' || method === 'LIST') return undefined;
  const hit = GLOBAL_ENDPOINTS.find((e) => e.api === api && e.path.test(path));
  return hit && { domain: hit.domain, what: hit.what };
}

/** How a test runs among the other tests of its file (harness/author/conformance.ts). */
export interface InFileOrder {
  title: string;
  /** Side by side with the file's other tests; false: alone, in the order written. */
  concurrent: boolean;
}

export class DomainLockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DomainLockError';
  }
}

/**
 * Throws when the file holding `lease` does `what` to `domain` without holding it exclusively, or
 * when a test does it while other tests of its file run beside it (`test`: how it runs in its
 * file). Without a lease (a run outside the harness's project, which takes none) only the second
 * is checked.
 */
export function guardGlobal(
  lease: { label: string; wants: Wants } | undefined,
  domain: Domain,
  what: string,
  test?: InFileOrder,
): void {
  if (lease && lease.wants[domain] !== 'exclusive')
    throw new DomainLockError(
      `${lease.label} ${what}, but holds the ${domain} domain only shared: other files run against the same target at the same time. ` +
        `List it under "exclusive:" in ${DOMAIN_LOCKS_NAME} with domains [${domain}] and the reason`,
    );
  if (test?.concurrent)
    throw new DomainLockError(
      `${lease?.label ?? 'this file'}: the test "${test.title}" ${what}, but runs side by side with the other tests of its file. ` +
        `Give it \`movesClock: '<why>'\` (a clock) or \`sequential: '<why>'\` (a setting) in its conformance metadata (it then runs alone in its file), or list the file under "sequential:" in ${DOMAIN_LOCKS_NAME}`,
    );
}
