/**
 * Waiting until a mount just made serves requests. The documents do not say an engine serves at
 * once: a version 2 key-value mount of the upstream product refuses every request for a moment
 * after it is made, while it prepares its storage (400 "Upgrading from non-versioned to versioned
 * data ... will resume service shortly"), so a test that wrote at once failed on something it never
 * tested (issue 35, class 6). Its configuration read (the documented `config` sub-path) answers 200
 * once it serves; it is read every timing.pollMs within timing.settleSeconds, unchecked (the probe
 * is no test's request). Other engines are taken to serve at once.
 */
import type { TargetConfig } from '../config/types.js';
import type { ApiClient } from '../http/client.js';

export interface MountBody {
  type: string;
  options?: Record<string, string>;
}

/** Whether the mount needs a readiness wait: a key-value mount of version 2. */
function prepares(body: MountBody): boolean {
  return body.type === 'kv' && String(body.options?.version ?? '') === '2';
}

export async function untilServing(
  ctx: { svc: ApiClient; config: TargetConfig },
  path: string,
  body: MountBody,
  namespace?: string,
): Promise<void> {
  if (!prepares(body)) return;
  const deadline = Date.now() + ctx.config.timing.settleSeconds * 1000;
  for (;;) {
    const ex = await ctx.svc.get(`${path}/config`, { validate: false, ...(namespace ? { namespace } : {}) });
    if (ex.response.status < 400 || Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, ctx.config.timing.pollMs));
  }
}
