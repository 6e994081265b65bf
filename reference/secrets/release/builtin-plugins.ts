/**
 * The built-in plugins of the reference's plugin catalog and their status at release 1.13
 * (secrets-service-core.md, Versioning 3: the standalone database engines and the app-id auth
 * method have status Removed). Data only: release/rules.ts reads it, release/plugins.ts serves it.
 */
/** The built-in plugins and their status, per catalog type. */
export const BUILTIN_PLUGINS: Readonly<Record<'secret' | 'auth', Readonly<Record<string, string>>>> = {
  secret: {
    kv: 'supported',
    cloud: 'supported',
    ldap: 'supported',
    transit: 'supported',
    aws: 'supported',
    // The standalone database engines, removed in 1.13 (the real product's type names).
    cassandra: 'removed',
    hana: 'removed',
    mongodb: 'removed',
    mssql: 'removed',
    mysql: 'removed',
    postgresql: 'removed',
  },
  auth: { userpass: 'supported', 'app-id': 'removed' },
};
