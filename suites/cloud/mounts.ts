/** A cloud engine mount of one test, for cases that change or delete the configuration. */
import type { T } from '../../harness/index.js';
import { freshMount } from '../../harness/index.js';

export function freshCloudMount(t: T): Promise<string> {
  return freshMount(t, 'cloud', { type: 'cloud' });
}
