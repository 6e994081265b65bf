/**
 * Prepares the target of a run: starts the embedded reference for whichever API has no address,
 * provisions the directory for the ldap suite, and returns the completed config plus a stop().
 */
import { randomBytes } from 'node:crypto';
import type { TargetConfig } from '../config/types.js';
import { probeCapabilities } from './probe.js';
import { resolveVersion } from './version.js';

export interface PreparedTarget {
  config: TargetConfig;
  stop(): Promise<void>;
}

export async function prepareTarget(input: TargetConfig, log: (m: string) => void = (m) => console.error(`[conformance] ${m}`)): Promise<PreparedTarget> {
  const cfg: TargetConfig = structuredClone(input);
  const stops: (() => Promise<void>)[] = [];
  const needsSched = cfg.run.suites.includes('jobs') || cfg.run.suites.includes('robustness');
  const startSvc = !cfg.svc.addr;
  const startSched = needsSched && !cfg.sched.addr;

  if (startSvc || startSched) {
    const { startReference } = await import('../../reference/start.js');
    const rootToken = `root-${randomBytes(12).toString('hex')}`;
    const ref = await startReference({
      rootToken,
      faults: cfg.reference.faults,
      variants: cfg.reference.variants,
      version: cfg.reference.version,
      maxRequestBytes: cfg.limits.maxRequestBytes,
      requireRequestHeader: false,
      quiet: !process.env.REF_VERBOSE,
      env: {},
    });
    stops.push(() => ref.stop());
    // A variant that contradicts a catalogue assumption runs with that assumption off, as a
    // vendor of such a product would set it in its config (an explicit setting wins).
    if (cfg.reference.variants.length) {
      const { allVariants } = await import('../../reference/variant-registry.js');
      for (const v of allVariants.filter((x) => cfg.reference.variants.includes(x.name))) {
        for (const id of v.assumptions ?? []) {
          if (cfg.assumptions[id] !== undefined) continue;
          cfg.assumptions[id] = false;
          log(`variant ${v.name} contradicts assumption ${id}: switched off (assumptions.${id})`);
        }
      }
    }
    if (startSvc) {
      cfg.embedded = true;
      cfg.svc.addr = ref.svcAddr;
      cfg.svc.token = rootToken;
      cfg.capabilities = { ...cfg.capabilities, namespaces: true, enterprise: true, cmac: true, clock: true, mounts: true, referenceControl: true, sealRandom: true };
      cfg.probe = cfg.probe.filter((c) => !['clock', 'namespaces', 'referenceControl'].includes(c));
      if (ref.cloud) cfg.cloud = { ...ref.cloud, ...cfg.cloud };
      log(`embedded reference secrets service at ${ref.svcAddr}${cfg.reference.faults.length ? ` with faults ${cfg.reference.faults.join(',')}` : ''}${cfg.reference.variants.length ? ` with variants ${cfg.reference.variants.join(',')}` : ''}`);
    }
    if (startSched) {
      if (!ref.schedAddr) throw new Error('the embedded reference has no scheduler: the jobs suite cannot run');
      cfg.schedEmbedded = true;
      cfg.sched.addr = ref.schedAddr;
      cfg.sched.token = rootToken;
      cfg.capabilities = { ...cfg.capabilities, schedAcl: true, schedControl: true };
      cfg.probe = cfg.probe.filter((c) => !['schedAcl', 'schedControl'].includes(c));
      log(`embedded reference scheduler at ${ref.schedAddr}`);
    }
  }

  const restore = await probeCapabilities(cfg, log);
  if (restore && !cfg.embedded) stops.push(restore);
  await resolveVersion(cfg, log);

  if (cfg.run.suites.includes('ldap')) {
    try {
      // An external directory from the config passes through too, to get its defaults filled in.
      const { provisionDirectory } = await import('../directory/provision.js');
      const dir = await provisionDirectory(cfg.ldap ?? {});
      stops.push(() => dir.stop());
      const { stop: _stop, ...ldap } = dir;
      cfg.ldap = ldap;
      if (dir.started) log(`directory started at ${dir.url}`);
    } catch (err) {
      // Without a directory the ldap suite cannot check anything: its tests skip with the reason
      // (a fresh machine without Debian's slapd), instead of failing for a missing prerequisite.
      const reason = `no directory: ${(err as Error).message.split('\n')[0]}`;
      cfg.unavailable = { ...cfg.unavailable, ldap: { reason, setting: 'ldap.url (LDAP_URL), or install slapd ldap-utils' } };
      log(`${reason}; the ldap suite is skipped`);
    }
  }

  return {
    config: cfg,
    async stop() {
      for (const stop of stops.reverse()) {
        try { await stop(); } catch (err) { log(`stop failed: ${(err as Error).message}`); }
      }
    },
  };
}
