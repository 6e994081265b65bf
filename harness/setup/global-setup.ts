/**
 * vitest global setup of the conformance project: resolves the target config once, prepares the
 * target (embedded reference, directory) and provides the config to every test file.
 */
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config/load.js';
import type { TargetConfig } from '../config/types.js';
import { prepareTarget } from './target.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const base: TargetConfig = process.env.CONFORMANCE_CONFIG_JSON ? (JSON.parse(process.env.CONFORMANCE_CONFIG_JSON) as TargetConfig) : loadConfig();
  const prepared = await prepareTarget(base);
  (globalThis as { __conformanceTarget?: TargetConfig }).__conformanceTarget = prepared.config;
  project.provide('target', prepared.config);
  return () => prepared.stop();
}
