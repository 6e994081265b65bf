import type { EngineFactory } from '../../engine.js';
import { unsupportedPath } from '../../errors.js';

/** Placeholder until the cloud engine lands: every path answers 404 unsupported path. */
export const factory: EngineFactory = () => ({
  async handle() {
    throw unsupportedPath();
  },
});
