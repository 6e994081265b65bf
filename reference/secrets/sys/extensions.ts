/** Sys routes contributed by engines (for example `sys/locked-users` from the userpass method). */
import type { SysRoute } from '../sys.js';
import { lockedUsersRoutes } from '../engines/userpass/locked-users.js';
import { releaseRoutes } from '../release/index.js';

export const sysExtensions: SysRoute[] = [...lockedUsersRoutes, ...releaseRoutes];
