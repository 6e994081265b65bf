/** A cloud engine mount of one test, for cases that change or delete the configuration. */
import type { T } from '../../harness/index.js';
import { freshMount } from '../../harness/index.js';
import { success } from '../../harness/checks/index.js';
import { rootConfig } from './config-helpers.js';

export function freshCloudMount(t: T): Promise<string> {
  return freshMount(t, 'cloud', { type: 'cloud' });
}

/**
 * A mount of one test configured with the root client (removed after the test), for tests of
 * "the role written just before": on it that role is the test's own, never another test's
 * written meanwhile on the shared mount.
 */
export async function configuredCloudMount(t: T): Promise<string> {
  const mount = await freshCloudMount(t);
  t.precondition(await t.svc.post(`${mount}/config`, { body: rootConfig(t) }), success);
  return mount;
}
