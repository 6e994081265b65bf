/** What the release area adds to the reference core: sys routes and the login hook. */
import type { SysRoute } from '../sys.js';
import { metricsRoutes } from './expiration-metrics.js';
import { identityRoutes } from './identity.js';
import { pluginRoutes } from './plugins.js';
import { remountRoutes } from './remount.js';

export { afterLogin } from './identity.js';

export const releaseRoutes: SysRoute[] = [...metricsRoutes, ...remountRoutes, ...identityRoutes, ...pluginRoutes];
