/**
 * A mount of one test's own (for cases that change or delete an engine's configuration), honouring
 * `mounts.<engine>`: when the config names an existing mount, the fresh one is of the same type as
 * that mount (read from `sys/mounts/<path>`), so a custom plugin name the operator chose is kept.
 * The type goes out through the dialect (`cloud` becomes the target's name at the HTTP layer).
 */
import type { T } from '../author/test-api.js';
import { mountAliases } from '../spec/mount-aliases.js';
import { success } from '../checks/index.js';
import { untilServing } from './serving.js';

function typeOf(body: unknown): string | undefined {
  const b = body as { type?: unknown; data?: { type?: unknown } } | undefined;
  const t = b?.data?.type ?? b?.type;
  return typeof t === 'string' && t ? t : undefined;
}

export async function freshMount(
  t: T,
  defaultName: string,
  opts: { type: string; options?: Record<string, string>; configKey?: string },
): Promise<string> {
  const key = opts.configKey ?? defaultName;
  if (!t.config.capabilities.mounts) {
    t.skip(
      `this test needs a ${defaultName} mount of its own (it changes the engine's configuration) and the token may not mount engines`,
      'capabilities.mounts',
    );
  }
  let type = opts.type;
  const configured = t.config.mounts[key]?.replace(/\/+$/, '');
  if (configured) {
    const read = await t.svc.get(`sys/mounts/${configured}`, { validate: false });
    if (read.response.status === 200) type = typeOf(read.response.body) ?? type;
    t.note(`mounts.${key} names ${configured}: this test mounts its own engine of type ${type} beside it`);
  }
  const name = t.unique(defaultName.replace(/[^a-z0-9]/gi, '-'));
  // A fixture: a target refusing the mount makes the test not applicable (with its answer), not failed.
  t.precondition(
    await t.svc.post(`sys/mounts/${name}`, { body: { type, ...(opts.options ? { options: opts.options } : {}) } }),
    success,
  );
  t.track(`mount ${name}`, () => t.svc.delete(`sys/mounts/${name}`), 'unmount');
  mountAliases.set(name, defaultName);
  await untilServing(t, name, { type: opts.type, options: opts.options });
  return name;
}
