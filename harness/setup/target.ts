/**
 * Prepares the target of a run: starts the embedded target (the reference, handed in by the
 * composition root, compose/reference.ts) for whichever API has no address,
 * provisions the directory for the ldap suite, and returns the completed config plus a stop().
 */
import type { Capabilities, TargetConfig } from '../config/types.js';
import { probeCapabilities } from './probe.js';
import { resolveVersion } from './version.js';
import { useDocumentDialectFor } from './dialect.js';
import { preflight } from './preflight.js';
import { targetPlan } from '../config/target-plan.js';
import {
  type DirectoryProvision,
  embeddedStartOptions,
  newRootToken,
  takeEarlyDirectory,
  takeEarlyStart,
} from './early-start.js';
import type { DirectoryConfigInput, ProvisionedDirectory } from '../directory/provision.js';
import type { EmbeddedTarget } from '../../contract/target.js';

/**
 * Sets capabilities the embedded reference has, except those the user set (file or environment):
 * a user's `capabilities.clock: false` holds even on the embedded reference.
 */
function embeddedHas(cfg: Pick<TargetConfig, 'capabilities' | 'userCapabilities'>, caps: Partial<Capabilities>): void {
  const user = new Set(cfg.userCapabilities ?? []);
  for (const [k, v] of Object.entries(caps) as [keyof Capabilities, boolean][]) {
    if (!user.has(k)) cfg.capabilities[k] = v;
  }
}

/** What the embedded reference's secrets service has (no probe needed): also the bench's reference started alone. */
export const EMBEDDED_SVC_CAPABILITIES = {
  namespaces: true,
  enterprise: true,
  cmac: true,
  clock: true,
  mounts: true,
  referenceControl: true,
  sealRandom: true,
} as const;
/** What the embedded reference's scheduler has. */
export const EMBEDDED_SCHED_CAPABILITIES = { schedAcl: true, schedControl: true } as const;

/**
 * The clocks' capabilities (`clock`, `schedControl`) of a run when they are known before any
 * probe: those of the embedded reference, and those the user set. Undefined when one of them is
 * still to be probed on another target.
 */
export function clockCapabilitiesBeforeProbe(input: TargetConfig): Capabilities | undefined {
  const cfg = { ...input, capabilities: { ...input.capabilities } };
  const plan = targetPlan(input);
  if (plan.svc === 'embedded') embeddedHas(cfg, EMBEDDED_SVC_CAPABILITIES);
  if (plan.sched === 'embedded') embeddedHas(cfg, EMBEDDED_SCHED_CAPABILITIES);
  const probed = new Set(input.probe);
  const unknown =
    (plan.svc === 'external' && probed.has('clock')) || (plan.sched === 'external' && probed.has('schedControl'));
  return unknown ? undefined : cfg.capabilities;
}

export interface PreparedTarget {
  config: TargetConfig;
  stop(): Promise<void>;
}

export async function prepareTarget(
  input: TargetConfig,
  embedded: EmbeddedTarget,
  log: (m: string) => void = (m) => console.error(`[conformance] ${m}`),
): Promise<PreparedTarget> {
  const cfg: TargetConfig = structuredClone(input);
  const stops: (() => Promise<void>)[] = [];
  const plan = targetPlan(cfg);
  const needsSched = plan.sched !== 'unused';
  const startSvc = plan.svc === 'embedded';
  const startSched = plan.sched === 'embedded';
  // The directory needs nothing from the other targets: it is provisioned while they start.
  // Provisioned by the command line before vitest when it could (early-start.ts), else now.
  const directory = cfg.run.suites.includes('ldap')
    ? (takeEarlyDirectory(cfg.ldap ?? {}) ?? provideDirectory(cfg.ldap ?? {}))
    : undefined;

  try {
    if (startSvc || startSched) stops.push(await startEmbedded(cfg, embedded, { startSvc, startSched }, log));
    // Before anything else asks the targets: one bounded request each (harness/setup/preflight.ts).
    await preflight(cfg, { sched: needsSched });
    const restore = await probeCapabilities(cfg, log);
    if (!cfg.sched.provisioner)
      cfg.sched.provisioner = cfg.sched.tokens.length || cfg.sched.namespaces.length ? 'config' : 'reference';
    if (restore && !cfg.embedded) stops.push(restore);
    await resolveVersion(cfg, log);
  } catch (err) {
    // Nothing started is left running, the directory included once it has started.
    const dir = await directory;
    if (dir && 'stop' in dir) stops.push(() => dir.stop());
    for (const stop of stops.reverse()) await stop().catch(() => {});
    throw err;
  }

  const dir = await directory;
  if (dir && 'stop' in dir) {
    stops.push(() => dir.stop());
    const { stop: _stop, ...ldap } = dir;
    cfg.ldap = ldap;
    if (dir.started) log(`directory started at ${dir.url}`);
  } else if (dir) {
    // Without a directory the ldap suite cannot check anything: its tests skip with the reason
    // (a fresh machine without Debian's slapd), instead of failing for a missing prerequisite.
    const reason = `no directory: ${dir.error.message.split('\n')[0]}`;
    cfg.unavailable = {
      ...cfg.unavailable,
      ldap: { reason, setting: 'ldap.url (LDAP_URL), or install slapd ldap-utils' },
    };
    log(`${reason}; the ldap suite is skipped`);
  }

  return {
    config: cfg,
    async stop() {
      for (const stop of stops.reverse()) {
        try {
          await stop();
        } catch (err) {
          log(`stop failed: ${(err as Error).message}`);
        }
      }
    },
  };
}

/** Starts the embedded reference for whichever API has no address and completes the config; its stop. */
async function startEmbedded(
  cfg: TargetConfig,
  embedded: EmbeddedTarget,
  { startSvc, startSched }: { startSvc: boolean; startSched: boolean },
  log: (m: string) => void,
): Promise<() => Promise<void>> {
  // Started by the command line before vitest when it could (early-start.ts), else now.
  const options = embeddedStartOptions(cfg, newRootToken());
  const early = takeEarlyStart(options);
  const rootToken = early?.rootToken ?? options.rootToken;
  const ref = await (early?.running ?? embedded.start(options));
  if (startSvc) {
    cfg.embedded = true;
    cfg.svc.addr = ref.svcAddr;
    cfg.svc.token = rootToken;
    embeddedHas(cfg, EMBEDDED_SVC_CAPABILITIES);
    useDocumentDialectFor(cfg, 'svc');
    cfg.probe = cfg.probe.filter((c) => !['clock', 'namespaces', 'referenceControl'].includes(c));
    if (ref.cloud) cfg.cloud = { ...ref.cloud, ...cfg.cloud };
    log(
      `embedded reference secrets service at ${ref.svcAddr}${cfg.reference.faults.length ? ` with faults ${cfg.reference.faults.join(',')}` : ''}${cfg.reference.variants.length ? ` with variants ${cfg.reference.variants.join(',')}` : ''}`,
    );
  }
  if (startSched) {
    if (!ref.schedAddr) {
      await ref.stop();
      throw new Error('the embedded reference has no scheduler: the jobs suite cannot run');
    }
    cfg.schedEmbedded = true;
    cfg.sched.addr = ref.schedAddr;
    cfg.sched.token = rootToken;
    embeddedHas(cfg, EMBEDDED_SCHED_CAPABILITIES);
    useDocumentDialectFor(cfg, 'sched');
    cfg.probe = cfg.probe.filter((c) => !['schedAcl', 'schedControl'].includes(c));
    log(`embedded reference scheduler at ${ref.schedAddr}`);
  }
  return () => ref.stop();
}

/** How a run's directory is provisioned: on the calling thread, or as the composition root hands in (compose/directory.ts). */
export type DirectoryProvisioner = (input: DirectoryConfigInput) => Promise<ProvisionedDirectory>;

const provisionHere: DirectoryProvisioner = async (input) =>
  (await import('../directory/provision.js')).provisionDirectory(input);

/** The directory for the ldap suite (an external one from the config gets its defaults filled in), or why there is none. */
export async function provideDirectory(
  input: DirectoryConfigInput,
  provision: DirectoryProvisioner = provisionHere,
): Promise<DirectoryProvision> {
  try {
    return await provision(input);
  } catch (err) {
    return { error: err as Error };
  }
}
