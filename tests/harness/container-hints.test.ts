import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  containerEngineHints,
  containerEngineMayRun,
  HINTS_FROM_TESTCONTAINERS,
} from '../../harness/directory/container-hints.js';

const none = () => false;
const only =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe('container engine hints (testcontainers left unloaded when it would find no engine)', () => {
  it('none on a machine without an engine, settings or sockets', () => {
    expect(containerEngineHints({}, 'linux', '/home/u', none)).toEqual([]);
  });

  it('each place testcontainers looks counts', () => {
    const home = '/home/u';
    expect(containerEngineHints({ DOCKER_HOST: 'tcp://x:2375' }, 'linux', home, none)).toEqual(['DOCKER_HOST']);
    expect(containerEngineHints({}, 'linux', home, only(join(home, '.testcontainers.properties')))).toHaveLength(1);
    for (const socket of [
      '/var/run/docker.sock',
      '/xdg/docker.sock',
      join(home, '.docker', 'run', 'docker.sock'),
      join(home, '.docker', 'desktop', 'docker.sock'),
    ])
      expect(containerEngineHints({ XDG_RUNTIME_DIR: '/xdg' }, 'darwin', home, only(socket)), socket).toEqual([socket]);
    expect(containerEngineHints({}, 'win32', home, none), 'the named pipe is always tried on Windows').toHaveLength(1);
  });

  it('another testcontainers version, or none found, leaves the decision to testcontainers', () => {
    expect(containerEngineMayRun(() => '99.0.0')).toBe(true);
    expect(
      containerEngineMayRun(() => {
        throw new Error('not installed');
      }),
    ).toBe(true);
  });

  it('the hints are those of the installed testcontainers: its strategies are the ones listed', () => {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve('testcontainers/package.json');
    expect((require(pkg) as { version: string }).version, 'update container-hints.ts with testcontainers').toBe(
      HINTS_FROM_TESTCONTAINERS,
    );
    const client = readFileSync(join(dirname(pkg), 'build/container-runtime/clients/client.js'), 'utf8');
    const strategies = [...client.matchAll(/new \w+\.(\w+Strategy)\(\)/g)].map((m) => m[1]);
    expect(strategies).toEqual([
      'TestcontainersHostStrategy',
      'ConfigurationStrategy',
      'UnixSocketStrategy',
      'RootlessUnixSocketStrategy',
      'NpipeSocketStrategy',
    ]);
  });
});
