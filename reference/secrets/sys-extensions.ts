/** Sys routes contributed by engines (for example `sys/locked-users` from the userpass method). */
import type { SysRoute } from './sys.js';

export const sysExtensions: SysRoute[] = [];
