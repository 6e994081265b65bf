/** Engine types the reference can mount (`sys/mounts/:path` with `type`). */
import type { EngineFactory } from '../engine.js';
import { factory as kv } from './kv/index.js';
import { factory as transit } from './transit/index.js';
import { factory as ldap } from './ldap/index.js';
import { factory as cloud } from './cloud/index.js';
import { factory as userpass } from './userpass/index.js';
import { factory as aws } from '../release/sts-engine.js';

export const secretEngines: Record<string, EngineFactory> = { kv, transit, ldap, cloud, aws };
export const authMethods: Record<string, EngineFactory> = { userpass };
