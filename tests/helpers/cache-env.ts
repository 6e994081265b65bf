/**
 * The cache settings (CONFORMANCE_CACHE_DIR, CONFORMANCE_CACHE) as a test found them, so a test
 * that points the caches at a folder of its own puts them back afterwards.
 */
const NAMES = ['CONFORMANCE_CACHE_DIR', 'CONFORMANCE_CACHE'] as const;

export function saveCacheEnv(): () => void {
  const saved = NAMES.map((name) => [name, process.env[name]] as const);
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
