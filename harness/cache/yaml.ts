/**
 * YAML, parsed with the yaml library loaded on first use. Loading the library costs every process
 * ~20-30 ms, and a warm run's start-up parses nothing: the catalogue and statements come from the
 * disk cache, and the few files every process reads (suites/domain-locks.yaml, the expectations
 * file) are cached as JSON by their contents (`cachedYamlFile`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { cachedSync, cacheKey, packageVersion } from './disk-cache.js';

const requireHere = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;

function library(): typeof Yaml {
  yaml ??= requireHere('yaml') as typeof Yaml;
  return yaml;
}

export function parseYaml(text: string): unknown {
  return library().parse(text);
}

export function stringifyYaml(value: unknown, options?: Parameters<typeof Yaml.stringify>[2]): string {
  return library().stringify(value, null, options);
}

/**
 * A YAML file's document: parsed, or from the cache when a file with the same contents was parsed
 * before. A file that does not parse throws yaml's error, as `parseYaml` does (nothing is cached).
 */
export function cachedYamlFile(name: string, file: string): unknown {
  const text = readFileSync(file, 'utf8');
  return cachedSync(`yaml-${name}`, cacheKey(text, `yaml@${packageVersion('yaml')}`), () => parseYaml(text));
}
