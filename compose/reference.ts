/**
 * The embedded reference as the harness sees it (contract/target.ts): its switch catalogue, and a
 * start() that loads the reference only when a run needs it (a run against an external target
 * never loads it).
 */
import type { EmbeddedTarget } from '../contract/target.js';
import { switchCatalogue } from '../reference/switch-registry.js';

export const embeddedReference: EmbeddedTarget = {
  switches: switchCatalogue,
  async start(options) {
    const { startReference } = await import('../reference/start.js');
    return startReference(options);
  },
};
