/** Sys routes contributed by engines (for example `sys/locked-users` from the userpass method). */
import type { SysRoute } from './sys.js';
import { lockedUsersRoutes } from './engines/userpass/locked-users.js';

export const sysExtensions: SysRoute[] = [...lockedUsersRoutes];
