/**
 * Whether a container engine could be reachable, from the places testcontainers looks for one,
 * without loading testcontainers: loading it costs ~0.3-0.45 s of CPU in the run's start-up, only
 * to find no engine on a machine that has none (the directory then comes from a local slapd).
 *
 * The places are those of testcontainers 11.14 (its container-runtime strategies: `tc.host` or
 * `docker.host` in ~/.testcontainers.properties, DOCKER_HOST, the docker sockets of root and
 * rootless engines, the Windows named pipe). With another testcontainers version the list may
 * be out of date, so any other version counts as "could be reachable" and testcontainers decides.
 */
import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { packageVersion } from '../cache/disk-cache.js';

export const HINTS_FROM_TESTCONTAINERS = '11.14.0';

function uid(): number | undefined {
  try {
    return userInfo().uid;
  } catch {
    return undefined;
  }
}

/** The paths and settings that would point testcontainers at an engine, as found here. */
export function containerEngineHints(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
  exists: (path: string) => boolean = existsSync,
): string[] {
  const found: string[] = [];
  const propertiesFile = join(home, '.testcontainers.properties');
  if (exists(propertiesFile)) found.push(propertiesFile);
  if (env.DOCKER_HOST !== undefined) found.push('DOCKER_HOST');
  if (platform === 'win32') found.push('npipe:////./pipe/docker_engine');
  if (platform === 'linux' || platform === 'darwin') {
    const id = uid();
    const sockets = [
      '/var/run/docker.sock',
      env.XDG_RUNTIME_DIR === undefined ? undefined : join(env.XDG_RUNTIME_DIR, 'docker.sock'),
      join(home, '.docker', 'run', 'docker.sock'),
      join(home, '.docker', 'desktop', 'docker.sock'),
      id === undefined ? undefined : join('/run', 'user', String(id), 'docker.sock'),
    ];
    for (const socket of sockets) if (socket && exists(socket)) found.push(socket);
  }
  return found;
}

/** False only when testcontainers (of the version the hints come from) would find no engine. */
export function containerEngineMayRun(version: () => string = () => packageVersion('testcontainers')): boolean {
  let installed: string;
  try {
    installed = version();
  } catch {
    return true;
  }
  return installed !== HINTS_FROM_TESTCONTAINERS || containerEngineHints().length > 0;
}
