import type { EngineFactory } from '../../engine.js';
import { unsupportedPath } from '../../errors.js';

export const factory: EngineFactory = () => ({
  async handle() {
    throw unsupportedPath();
  },
});
