/**
 * Starts the whole reference: the secrets service, the simulated cloud directory and the job
 * scheduler, sharing one set of fault switches, with two controllable clocks:
 * - the secrets service's, shared with the cloud directory (a credential's expiry in the directory
 *   and its lease in the secrets service are one story told on one time line);
 * - the scheduler's own: a real scheduler and a real secrets service keep their own clocks, and
 *   moving one must not expire or start anything in the other (the harness lets files of the
 *   two APIs move their clocks at the same time: harness/schedule.ts).
 */
import { AsyncResource } from 'node:async_hooks';
import { ControllableClock } from './clock.js';
import { Faults } from './faults.js';
import { Variants } from './variants.js';
import { joinTracing, tracingOn } from './trace.js';
import { startSecretsServer, type RunningSecretsServer } from './secrets/server.js';
import { parseDelays } from './scheduler/delays.js';
import type { RunningCloudDirectory } from './cloud-directory/server.js';
import type { CloudWiring } from './cloud-directory/wiring.js';

export interface ReferenceOptions {
  host?: string;
  port?: number;
  schedPort?: number;
  cloudPort?: number;
  rootToken: string;
  schedToken?: string;
  /** Scheduler ACLs (default on); off, every request is allowed as a real scheduler without ACLs does. */
  schedAcl?: boolean;
  faults?: string[];
  /** Legal variants to switch on (reference/switch-registry.ts). */
  variants?: string[];
  /** Reported by sys/health and used by release-gated behaviour. */
  version?: string;
  maxRequestBytes?: number;
  requireRequestHeader?: boolean;
  lockoutThreshold?: number;
  lockoutDurationSeconds?: number;
  lockoutResetSeconds?: number;
  env?: Record<string, string | undefined>;
  quiet?: boolean;
  /** Serve the secrets service over TLS with this certificate and key. */
  tls?: { cert: string; key: string };
  /** The scheduler's delays, `name=ms,...` over the defaults (scheduler/delays.ts). */
  schedDelays?: string;
  /**
   * Record which switches each request reaches (the mutation run's impact analysis: trace.ts;
   * `takeReach()` there reads it). Only a clean reference is traced usefully.
   */
  trace?: boolean;
}

export interface RunningReference {
  svcAddr: string;
  schedAddr?: string;
  cloudAddr?: string;
  cloud?: import('../contract/cloud.js').CloudConfig;
  secrets: RunningSecretsServer;
  /** The secrets service's and the cloud directory's clock (sys/reference/clock). */
  clock: ControllableClock;
  /** The scheduler's clock (the scheduler's reference/clock). */
  schedClock: ControllableClock;
  stop(): Promise<void>;
}

type Closer = () => Promise<void>;

/** Optional parts are loaded lazily so that one unfinished area cannot stop the others. */
async function optional<T>(name: string, load: () => Promise<T>, log: (m: string) => void): Promise<T | undefined> {
  try {
    return await load();
  } catch (err) {
    log(`${name} not started: ${(err as Error).message}`);
    return undefined;
  }
}

/** A misspelled switch would silently test the clean reference: refuse it, naming the setting. */
async function refuseUnknownSwitches(faults: string[], variants: string[]): Promise<void> {
  if (!faults.length && !variants.length) return;
  const { allFaults, allVariants } = await import('./switch-registry.js');
  const unknownFaults = faults.filter((n) => !allFaults.some((f) => f.name === n));
  const unknownVariants = variants.filter((n) => !allVariants.some((v) => v.name === n));
  if (unknownFaults.length)
    throw new Error(`unknown fault switch(es) ${unknownFaults.join(', ')} (setting reference.faults / REF_FAULTS)`);
  if (unknownVariants.length)
    throw new Error(`unknown variant(s) ${unknownVariants.join(', ')} (setting reference.variants / REF_VARIANTS)`);
}

/**
 * Loads what a start loads lazily (the optional parts' modules, the HCL parser's WebAssembly) ahead
 * of it: the thread the command line starts before the run's options are known does this meanwhile.
 */
export async function preloadReference(): Promise<void> {
  await Promise.all([
    import('./switch-registry.js'),
    import('./cloud-directory/server.js'),
    import('./cloud-directory/wiring.js'),
    import('./scheduler/server.js'),
    import('@cdktf/hcl2json').then(({ parse }) => parse('preload.hcl', '')),
  ]);
}

export async function startReference(opts: ReferenceOptions): Promise<RunningReference> {
  const host = opts.host ?? '127.0.0.1';
  const clock = new ControllableClock();
  const schedClock = new ControllableClock();
  const faults = new Faults(opts.faults ?? []);
  const variants = new Variants(opts.variants ?? []);
  await refuseUnknownSwitches(opts.faults ?? [], opts.variants ?? []);
  // Parsed before anything starts: a misspelt delay is refused, not a scheduler left out.
  const schedDelays = parseDelays(opts.schedDelays);
  const log = opts.quiet ? () => {} : (m: string) => console.error(`[reference] ${m}`);
  const closers: Closer[] = [];
  if (!opts.trace && tracingOn())
    throw new Error('an untraced reference cannot start while a traced one runs in this thread (reference/trace.ts)');
  // Before any model is built: the switch tables are traced as they are built. Left last on stop.
  if (opts.trace) {
    const leave = joinTracing();
    closers.push(async () => leave());
    // A timer's work belongs to the request that set it, whichever request or sweep fires it.
    for (const c of [clock, schedClock]) {
      const at = c.at.bind(c);
      c.at = (atMs, fn) => at(atMs, AsyncResource.bind(fn));
    }
  }
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };

  // The scheduler depends on nothing else: it starts beside the cloud directory and the secrets
  // service (which needs the directory's address).
  const schedStarting = optional(
    'scheduler',
    async () => {
      const mod = await import('./scheduler/server.js');
      return mod.startScheduler({
        port: opts.schedPort ?? 0,
        host,
        clock: schedClock,
        faults,
        variants,
        aclEnabled: opts.schedAcl ?? true,
        managementToken: opts.schedToken ?? opts.rootToken,
        delays: schedDelays,
      });
    },
    log,
  );
  let secrets: RunningSecretsServer;
  let cloud: RunningCloudDirectory | undefined;
  let wiring: CloudWiring | undefined;
  try {
    cloud = await optional(
      'cloud directory',
      async () => {
        const mod = await import('./cloud-directory/server.js');
        return mod.startCloudDirectory({ port: opts.cloudPort ?? 0, host, clock, faults, variants });
      },
      log,
    );
    if (cloud) closers.push(() => cloud!.close());

    wiring = cloud
      ? (await import('./cloud-directory/wiring.js')).cloudWiring(cloud, opts.env ?? process.env)
      : undefined;

    secrets = await startSecretsServer({
      port: opts.port ?? 0,
      host,
      rootToken: opts.rootToken,
      clock,
      faults,
      variants,
      maxRequestBytes: opts.maxRequestBytes,
      requireRequestHeader: opts.requireRequestHeader,
      tls: opts.tls,
      log,
      settings: {
        env: wiring?.settings.env ?? opts.env ?? process.env,
        cloudEndpoints: wiring?.settings.cloudEndpoints,
        cloudCa: wiring?.settings.cloudCa,
        cloudEnvironment: wiring?.settings.cloudEnvironment,
        defaultLeaseTtl: 768 * 3600,
        maxLeaseTtl: 768 * 3600,
        version: opts.version ?? '1.13.10',
        lockoutThreshold: opts.lockoutThreshold ?? 5,
        lockoutDurationSeconds: opts.lockoutDurationSeconds ?? 900,
        lockoutResetSeconds: opts.lockoutResetSeconds ?? 900,
      },
    });
    closers.push(() => secrets.close());
  } catch (err) {
    // Nothing started is left listening: the scheduler too, once it has started.
    const sched = await schedStarting;
    if (sched) closers.push(() => sched.close());
    await closeAll();
    throw err;
  }

  const sched = await schedStarting;
  if (sched) closers.push(() => sched.close());

  return {
    svcAddr: secrets.addr,
    schedAddr: sched?.addr,
    cloudAddr: cloud?.addr,
    cloud: wiring?.config,
    secrets,
    clock,
    schedClock,
    async stop() {
      for (const close of closers.reverse()) {
        try {
          await close();
        } catch (err) {
          log(`stop failed: ${(err as Error).message}`);
        }
      }
      clock.close();
      schedClock.close();
    },
  };
}
