/**
 * The plugin catalog of the reference, as far as the release notes need it (secrets-service-core.md,
 * States and transitions: "the status `removed` is named for built-in plugins"; Versioning: the
 * standalone database engines and the app-id auth method have status Removed in 1.13). The path is
 * the real product's: GET sys/plugins/catalog/:type/:name answers the built-in plugin's
 * `deprecation_status`. Which plugins are built in, and their status, are release rules (rules.ts).
 */
import { methodNotAllowed, notFound } from '../errors.js';
import type { SysRoute } from '../sys.js';
import { requireCap } from '../sys/helpers.js';

export const pluginRoutes: SysRoute[] = [
  {
    pattern: /^sys\/plugins\/catalog\/(secret|auth)\/([^/]+)$/,
    async handle(ctx, m) {
      if (ctx.method !== 'GET') throw methodNotAllowed();
      requireCap(ctx, 'read');
      const type = m[1] as 'secret' | 'auth';
      const name = m[2]!;
      const status = ctx.core.release.pluginStatus(type, name);
      if (!status) throw notFound(`no plugin ${name} of type ${type} in the catalog`);
      return {
        data: {
          name,
          type,
          builtin: true,
          deprecation_status: status,
          version: `v${String(ctx.core.options.settings.version ?? '1.13.10')}+builtin`,
          sha256: '',
          command: '',
          args: [],
        },
      };
    },
  },
];
