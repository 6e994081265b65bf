/** The public key of a key version, as the key read returns it, for checks made locally. */
import type { KeyObject } from 'node:crypto';
import { expectThat } from '../../../harness/checks/index.js';
import type { MountRef, T } from '../../../harness/index.js';
import { readKey } from './api.js';
import { publicKeyFrom } from './local-crypto.js';

export async function publicKeyOf(t: T, mount: MountRef, name: string, version = 1): Promise<KeyObject> {
  const key = await readKey(t, mount, name);
  const info = key.keys?.[String(version)];
  expectThat(
    typeof info?.public_key === 'string',
    'public-key',
    info,
    'a public key',
    `the key read of ${name} has keys.${version}.public_key`,
  );
  return publicKeyFrom(info.public_key);
}
