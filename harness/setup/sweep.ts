/**
 * After the run: anything still carrying the run's prefix on the target (mounts, auth methods,
 * ACL policies, namespaces with what they hold, scheduler jobs) escaped the per-test cleanup. It
 * is reported as a leftover and removed, so a run leaves the target as it found it even when a
 * cleanup step failed.
 */
import { usesScheduler } from '../config/target-plan.js';
import type { TargetConfig } from '../config/types.js';
import { ApiClient } from '../http/client.js';

export interface Swept {
  label: string;
  error: string;
}

function keysOf(body: unknown): string[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!data || typeof data !== 'object') return [];
  const keys = (data as { keys?: unknown }).keys;
  if (Array.isArray(keys)) return keys.filter((k): k is string => typeof k === 'string');
  return Object.keys(data);
}

/**
 * Deletes namespace `name` inside namespace `parent` (a full path; none: the root): its child
 * namespaces first, as a real product refuses to delete a namespace that has any (OpenBao: 400
 * "unable to delete namespace containing child namespaces"), and again while a child's deletion,
 * which may run in the background, has not finished (up to 10 s). Returns the last answer.
 */
async function deleteNamespace(
  svc: ApiClient,
  name: string,
  parent: string | undefined,
  pollMs: number,
): Promise<{ response: { status: number } }> {
  const path = parent ? `${parent}/${name}` : name;
  const within = parent || null;
  const children = keysOf((await svc.list('sys/namespaces', { namespace: path, validate: false })).response.body);
  for (const c of children) await deleteNamespace(svc, c.replace(/\/$/, ''), path, pollMs);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ex = await svc.delete(`sys/namespaces/${name}`, { namespace: within, validate: false });
    if (ex.response.status < 400 || Date.now() >= deadline) return ex;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export async function sweepLeftovers(cfg: TargetConfig): Promise<Swept[]> {
  const out: Swept[] = [];
  const prefix = cfg.prefix;
  const quick: TargetConfig = {
    ...cfg,
    timeouts: { ...cfg.timeouts, requestMs: Math.min(cfg.timeouts.requestMs, 5000) },
  };
  const attempt = async (label: string, fn: () => Promise<{ response: { status: number } }>) => {
    try {
      const ex = await fn();
      out.push({
        label,
        error:
          ex.response.status < 300
            ? 'left behind by the run; removed by the final sweep'
            : `left behind; the sweep could not remove it (status ${ex.response.status})`,
      });
    } catch (err) {
      out.push({ label, error: `left behind; the sweep failed: ${(err as Error).message}` });
    }
  };
  if (cfg.svc.addr) {
    const svc = new ApiClient('svc', quick, () => {});
    try {
      const mounts = keysOf((await svc.get('sys/mounts')).response.body).filter((k) => k.startsWith(prefix));
      for (const m of mounts.reverse())
        await attempt(`mount ${m}`, () => svc.delete(`sys/mounts/${m.replace(/\/$/, '')}`));
      const auths = keysOf((await svc.get('sys/auth')).response.body).filter((k) => k.startsWith(prefix));
      for (const a of auths.reverse())
        await attempt(`auth method ${a}`, () => svc.delete(`sys/auth/${a.replace(/\/$/, '')}`));
      const policies = keysOf((await svc.list('sys/policies/acl')).response.body).filter((k) => k.startsWith(prefix));
      for (const p of policies.reverse()) await attempt(`policy ${p}`, () => svc.delete(`sys/policies/acl/${p}`));
      const namespaces = keysOf((await svc.list('sys/namespaces', { validate: false })).response.body);
      for (const n of namespaces.filter((k) => k.startsWith(prefix)).reverse()) {
        const name = n.replace(/\/$/, '');
        await attempt(`namespace ${name}`, () => deleteNamespace(svc, name, cfg.svc.namespace, cfg.timing.pollMs));
      }
    } catch (err) {
      out.push({
        label: 'secrets service sweep',
        error: `could not list what the run left: ${(err as Error).message}`,
      });
    }
  }
  if (cfg.sched.addr && usesScheduler(cfg.run.suites)) {
    const sched = new ApiClient('sched', quick, () => {});
    try {
      const ex = await sched.get('jobs', { query: { prefix, namespace: '*' } });
      const jobs = Array.isArray(ex.response.body) ? (ex.response.body as { ID?: string; Namespace?: string }[]) : [];
      for (const j of jobs.filter((x) => x.ID?.startsWith(prefix) && !(x as { Stop?: boolean }).Stop).reverse()) {
        await attempt(`job ${j.ID}`, () =>
          sched.delete(`job/${encodeURIComponent(j.ID!)}`, {
            query: { purge: true, namespace: j.Namespace ?? 'default' },
          }),
        );
      }
    } catch (err) {
      out.push({ label: 'scheduler sweep', error: `could not list what the run left: ${(err as Error).message}` });
    }
  }
  return out;
}
