/** A cloud engine mount of one test, for cases that change or delete the configuration. */
import type { T } from '../../harness/index.js';
import { success } from '../../harness/checks/index.js';
import { mountAliases } from '../../harness/context.js';

export async function freshCloudMount(t: T): Promise<string> {
  if (!t.config.capabilities.mounts) t.skip('this test needs its own cloud mount and the token may not mount engines', 'capabilities.mounts');
  const name = t.unique('cloud');
  t.check(await t.svc.post(`sys/mounts/${name}`, { body: { type: 'cloud' } }), success);
  mountAliases.set(name, 'cloud');
  t.track(`mount ${name}`, () => t.svc.delete(`sys/mounts/${name}`));
  return name;
}
