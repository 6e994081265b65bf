/**
 * Capability probing of an external target: what the config file and environment did not set is
 * found out by asking (the reference's clock, namespaces, the request-header requirement, the
 * scheduler's ACLs and control endpoints), so that the reference started alone gets the same
 * verdicts as the embedded one. Every probe is a single bounded request; a probe that cannot
 * tell leaves the capability off.
 */
import type { TargetConfig } from '../config/types.js';
import { ApiClient } from '../http/client.js';

async function safe(fn: () => Promise<boolean>): Promise<boolean> {
  try {
    return await fn();
  } catch {
    return false;
  }
}

export async function probeCapabilities(
  cfg: TargetConfig,
  log: (m: string) => void,
): Promise<(() => Promise<void>) | undefined> {
  if (!cfg.probe.length) return undefined;
  const probeCfg: TargetConfig = {
    ...cfg,
    timeouts: { ...cfg.timeouts, requestMs: Math.min(cfg.timeouts.requestMs, 5000) },
  };
  const svc = new ApiClient('svc', probeCfg, () => {});
  const sched = new ApiClient('sched', probeCfg, () => {});
  const found: string[] = [];
  let restore: (() => Promise<void>) | undefined;
  for (const cap of cfg.probe) {
    let value = cfg.capabilities[cap];
    if (cap === 'referenceControl' && !cfg.embedded && cfg.svc.addr) {
      value = await safe(async () => (await svc.get('sys/reference/config')).response.status === 200);
    } else if (cap === 'clock' && !cfg.embedded && cfg.svc.addr) {
      value = await safe(async () => (await svc.get('sys/reference/clock')).response.status === 200);
    } else if (cap === 'namespaces' && !cfg.embedded && cfg.svc.addr) {
      value = await safe(async () => {
        const ex = await svc.list('sys/namespaces');
        const errors = (ex.response.body as { errors?: unknown[] })?.errors;
        return (
          ex.response.status === 200 || (ex.response.status === 404 && Array.isArray(errors) && errors.length === 0)
        );
      });
    } else if (cap === 'requireRequestHeader' && !cfg.embedded && cfg.svc.addr) {
      value = await safe(async () => {
        const ex = await svc.get('sys/mounts', { omitRequestHeader: true });
        return (
          ex.response.status >= 400 &&
          /header/i.test(ex.response.text) &&
          ex.response.text.includes(cfg.dialect.requestHeader)
        );
      });
    } else if (cap === 'schedAcl' && !cfg.schedEmbedded && cfg.sched.addr) {
      value = await safe(async () => (await sched.get('jobs', { token: null })).response.status === 403);
    } else if (cap === 'schedControl' && !cfg.schedEmbedded && cfg.sched.addr) {
      value = await safe(
        async () => (await sched.post('reference/clock', { body: { advance: 0 } })).response.status === 200,
      );
    } else continue;
    cfg.capabilities[cap] = value;
    if (value) found.push(cap);
  }
  if (
    cfg.probe.includes('requireRequestHeader') &&
    cfg.capabilities.referenceControl &&
    !cfg.capabilities.requireRequestHeader
  ) {
    // The reference can turn the listener rule on; the harness always sends the header, so the
    // rule's tests run against the reference however it was started.
    cfg.capabilities.requireRequestHeader = await safe(
      async () =>
        (await svc.post('sys/reference/config', { body: { require_request_header: true } })).response.status === 200,
    );
    if (cfg.capabilities.requireRequestHeader) {
      found.push('requireRequestHeader (turned on through sys/reference/config)');
      restore = async () => {
        await svc.post('sys/reference/config', { body: { require_request_header: false } });
      };
    }
  }
  log(
    `probed target capabilities: ${found.length ? found.join(', ') : 'none'} (set capabilities.* in a config file to override)`,
  );
  return restore;
}
