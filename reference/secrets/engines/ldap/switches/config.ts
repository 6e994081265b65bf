/**
 * Faults of the directory engine's configuration (`/ldap/config`): required fields, defaults,
 * the search, TLS, timeouts and rotate-root (password generation: ./passwords.ts). Each replaces rules of
 * ../rules.ts and names the statements of secrets-service-core.md it breaks.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import { DEFAULT_URL } from '../config.js';
import type { LdapRules } from '../rules.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.ldap-config';

export const configSwitches = [
  // Required fields, defaults and the write/read/delete of the configuration.
  fault('ldap.config-binddn-optional', {
    breaks: 'ldap.config.required-fields',
    statements: [`${S}.binddn-required`],
    description: 'A first configuration without binddn is accepted.',
    replace: () => ({ configRequired: ['bindpass'] }),
  }),
  fault('ldap.config-bindpass-optional', {
    breaks: 'ldap.config.required-fields',
    statements: [`${S}.bindpass-required`],
    description: 'A first configuration without bindpass is accepted.',
    replace: () => ({ configRequired: ['binddn'] }),
  }),
  fault('ldap.config-url-default-localhost', {
    breaks: 'ldap.config.url-default',
    statements: [`${S}.url-default`],
    description: 'Without url the configuration stores ldap://localhost:10389.',
    replace: () => ({ defaultUrl: 'ldap://localhost:10389' }),
  }),
  fault('ldap.config-schema-racf-refused', {
    breaks: 'ldap.config.schema-default',
    statements: [`${S}.schema-values`],
    description: 'schema racf is refused (only openldap and ad are known).',
    replace: () => ({ schemas: ['openldap', 'ad'] }),
  }),
  fault('ldap.config-schema-default-unread', {
    breaks: 'ldap.config.schema-default',
    statements: [`${S}.schema-default`, `${S}.read-schema`],
    description: 'The read leaves out schema when it is openldap (the default is not reported).',
    replace: (d) => ({
      configRead: (cfg) => {
        const { schema, ...rest } = d.configRead(cfg);
        return cfg.schema === 'openldap' ? rest : { ...rest, schema };
      },
    }),
  }),
  fault('ldap.config-read-drops-tls-versions', {
    breaks: 'ldap.config.write-read',
    statements: [`${S}.read-tls-max-version`, `${S}.read-tls-min-version`, `${S}.endpoint-read`],
    description: 'The config read leaves out tls_min_version and tls_max_version.',
    replace: (d) => ({
      configRead: (cfg) => {
        const { tls_min_version: _min, tls_max_version: _max, ...rest } = d.configRead(cfg);
        return rest;
      },
    }),
  }),
  fault('ldap.config-update-keeps-url', {
    breaks: 'ldap.config.write-read',
    statements: [`${S}.endpoint-write`],
    description: 'A write on an existing configuration answers success but keeps the stored url.',
    replace: (d) => ({
      mergeConfig: (prev, next) => d.mergeConfig(prev, prev ? { ...next, urls: prev.urls } : next),
    }),
  }),
  fault('ldap.config-binddn-update-ignored', {
    breaks: 'ldap.config.write-read',
    statements: [`${S}.binddn`, `${S}.read-binddn`],
    description: 'After a write changing binddn the engine keeps binding as the first binddn.',
    replace: (d) => ({
      mergeConfig: (prev, next) => d.mergeConfig(prev, prev ? { ...next, binddn: prev.binddn } : next),
    }),
  }),
  fault('ldap.config-bindpass-update-ignored', {
    breaks: 'ldap.config.bindpass-update',
    statements: [`${S}.bindpass`],
    description: 'After a write changing bindpass the engine keeps binding with the first password.',
    replace: (d) => ({
      mergeConfig: (prev, next) => d.mergeConfig(prev, prev ? { ...next, bindpass: prev.bindpass } : next),
    }),
  }),
  fault('ldap.config-delete-ignored', {
    breaks: 'ldap.config.delete',
    statements: [`${S}.endpoint-delete`],
    description: 'DELETE /ldap/config answers success but keeps the configuration.',
    replace: () => ({ configDeleteRemoves: false }),
  }),
  fault('ldap.config-bindpass-readable', {
    breaks: 'ldap.config.bindpass-write-only',
    statements: [`${S}.bindpass-write-only`, `${S}.root-password-write-only`],
    description: 'GET /ldap/config returns the bind password.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), bindpass: cfg.bindpass }) }),
  }),
  fault('ldap.config-skip-import-default-true', {
    breaks: 'ldap.static.import-rotation',
    statements: [`${S}.skip-import-default`],
    description: 'skip_static_role_import_rotation defaults to true, so new roles are not rotated.',
    replace: () => ({ defaultSkipStaticImport: true }),
  }),
  // The search: userdn, userattr and its defaults by schema.
  fault('ldap.config-userattr-default-uid', {
    breaks: 'ldap.config.userattr-default',
    statements: [`${S}.userattr-default-openldap`],
    description: 'The openldap schema searches by uid instead of cn when userattr is not set.',
    replace: (d) => ({ defaultUserAttr: (schema) => (schema === 'openldap' ? 'uid' : d.defaultUserAttr(schema)) }),
  }),
  fault('ldap.config-userattr-default-ad-wrong', {
    breaks: 'ldap.config.userattr-default',
    statements: [`${S}.userattr-default-ad`],
    description: 'The ad schema searches by sAMAccountName instead of userPrincipalName when userattr is not set.',
    replace: (d) => ({ defaultUserAttr: (schema) => (schema === 'ad' ? 'sAMAccountName' : d.defaultUserAttr(schema)) }),
  }),
  fault('ldap.config-userattr-default-racf-wrong', {
    breaks: 'ldap.config.userattr-default',
    statements: [`${S}.userattr-default-racf`],
    description: 'The racf schema searches by cn instead of racfid when userattr is not set.',
    replace: (d) => ({ defaultUserAttr: (schema) => (schema === 'racf' ? 'cn' : d.defaultUserAttr(schema)) }),
  }),
  fault('ldap.config-userattr-ignored', {
    breaks: 'ldap.config.userattr',
    statements: [`${S}.userattr`, 'doc.core.ldap-static.username-search'],
    description: 'A configured userattr is ignored; the schema default attribute is searched.',
    replace: () => ({ configuredUserAttr: () => undefined }),
  }),
  fault('ldap.search-above-userdn', {
    breaks: 'ldap.static.username-must-exist',
    statements: [`${S}.userdn-static`],
    description: 'Accounts are searched from the parent of userdn, so entries outside userdn are found.',
    replace: (d) => ({ searchBase: (userdn) => d.searchBase(userdn.split(',').slice(1).join(',') || userdn) }),
  }),
  fault('ldap.upndomain-ignored', {
    breaks: 'ldap.config.upndomain',
    statements: [`${S}.upndomain`],
    description: 'upndomain is stored but the engine binds with the plain binddn.',
    replace: (d) => ({ session: (cfg) => ({ ...d.session(cfg), bindName: cfg.binddn }) }),
  }),
  fault('ldap.url-no-failover', {
    breaks: 'ldap.config.url-failover',
    statements: [`${S}.url-failover`],
    description: 'Only the first URL of the list is tried.',
    replace: () => ({ urlsToTry: (urls) => urls.slice(0, 1) }),
  }),
  // TLS.
  fault('ldap.starttls-not-issued', {
    breaks: 'ldap.config.starttls',
    statements: [`${S}.starttls-effect`],
    description: 'starttls is stored but the engine never issues StartTLS.',
    replace: (d) => ({ session: (cfg) => ({ ...d.session(cfg), starttls: false }) }),
  }),
  fault('ldap.config-starttls-read-false', {
    breaks: 'ldap.config.tls-fields',
    statements: [`${S}.starttls`, `${S}.read-starttls`],
    description: 'The config read reports starttls false whatever was written.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), starttls: false }) }),
  }),
  fault('ldap.config-insecure-tls-read-false', {
    breaks: 'ldap.config.tls-fields',
    statements: [`${S}.insecure-tls`, `${S}.read-insecure-tls`],
    description: 'The config read reports insecure_tls false whatever was written.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), insecure_tls: false }) }),
  }),
  fault('ldap.config-certificate-unread', {
    breaks: 'ldap.config.tls-fields',
    statements: [`${S}.certificate`, `${S}.read-certificate`],
    description: 'The config read reports an empty certificate whatever was written.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), certificate: '' }) }),
  }),
  fault('ldap.insecure-tls-ignored', {
    breaks: 'ldap.config.insecure-tls',
    statements: [`${S}.insecure-tls-effect`],
    description: 'insecure_tls is stored but the server certificate is always verified.',
    replace: (d) => ({ session: (cfg) => ({ ...d.session(cfg), verifyServer: true }) }),
  }),
  fault('ldap.tls-certificate-ignored', {
    breaks: 'ldap.config.certificate',
    statements: [`${S}.certificate`],
    description: 'The configured CA certificate is not trusted; only the system CAs are.',
    replace: (d) => ({ session: (cfg) => ({ ...d.session(cfg), ca: undefined }) }),
  }),
  fault('ldap.tls-client-cert-ignored', {
    breaks: 'ldap.config.client-certificate',
    statements: [`${S}.client-tls-cert`],
    description: 'client_tls_cert is stored but no client certificate is presented.',
    replace: (d) => ({ session: (cfg) => ({ ...d.session(cfg), clientCert: undefined }) }),
  }),
  fault('ldap.tls-client-key-ignored', {
    breaks: 'ldap.config.client-certificate',
    statements: [`${S}.client-tls-key`],
    description: 'client_tls_key is not used, so the client certificate cannot be presented.',
    replace: (d) => ({ session: (cfg) => ({ ...d.session(cfg), clientKey: undefined }) }),
  }),
  // Timeouts.
  fault('ldap.config-request-timeout-string-refused', {
    breaks: 'ldap.config.request-timeout',
    statements: [`${S}.request-timeout-formats`],
    description: 'request_timeout given as a duration string ("90s") is refused; only integers are taken.',
    replace: (d) => ({
      configDuration: (key, value) => {
        if (key === 'request_timeout' && typeof value === 'string' && !/^\d+$/.test(value))
          throw badRequest('request_timeout must be an integer');
        return d.configDuration(key, value);
      },
    }),
  }),
  fault('ldap.config-connection-timeout-string-refused', {
    breaks: 'ldap.config.connection-timeout',
    statements: [`${S}.connection-timeout-formats`],
    description: 'connection_timeout given as a duration string ("30s") is refused; only integers are taken.',
    replace: (d) => ({
      configDuration: (key, value) => {
        if (key === 'connection_timeout' && typeof value === 'string' && !/^\d+$/.test(value))
          throw badRequest('connection_timeout must be an integer');
        return d.configDuration(key, value);
      },
    }),
  }),
  fault('ldap.request-timeout-ignored', {
    breaks: 'ldap.config.request-timeout-applies',
    statements: [`${S}.request-timeout`],
    description: 'request_timeout is stored but requests wait the default 90 seconds.',
    replace: (d) => ({
      session: (cfg) => ({
        ...d.session(cfg),
        requestTimeout: 90,
        connectTimeout: Math.min(cfg.connectionTimeout, 90),
      }),
    }),
  }),
  fault('ldap.request-timeout-default-60', {
    breaks: 'ldap.config.request-timeout-default',
    statements: [`${S}.request-timeout-default`, `${S}.limit-request-timeout-default`],
    description: 'request_timeout defaults to 60 seconds instead of 90.',
    replace: () => ({ defaultRequestTimeout: 60 }),
  }),
  fault('ldap.connection-timeout-ignored', {
    breaks: 'ldap.config.connection-timeout-applies',
    statements: [`${S}.connection-timeout`],
    description: 'connection_timeout is stored but the next URL is tried only after the default 30 seconds.',
    replace: (d) => ({
      session: (cfg) => ({ ...d.session(cfg), connectTimeout: Math.min(30, cfg.requestTimeout) }),
    }),
  }),
  fault('ldap.connection-timeout-default-90', {
    breaks: 'ldap.config.connection-timeout-default',
    statements: [`${S}.connection-timeout-default`, `${S}.limit-connection-timeout-default`],
    description: 'connection_timeout defaults to 90 seconds instead of 30.',
    replace: () => ({ defaultConnectionTimeout: 90 }),
  }),
  fault('ldap.timeouts-larger-applies', {
    breaks: 'ldap.config.timeouts-smaller-applies',
    statements: [`${S}.timeouts-smaller-applies`],
    description: 'With both timeouts set, connecting waits connection_timeout even when request_timeout is smaller.',
    replace: (d) => ({ session: (cfg) => ({ ...d.session(cfg), connectTimeout: cfg.connectionTimeout }) }),
  }),
  // rotate-root.
  fault('ldap.rotate-root-not-applied', {
    breaks: 'ldap.rotate-root.changes-bind-password',
    statements: [`${S}.rotates-bind-password`, `${S}.endpoint-rotate-root`],
    description: 'rotate-root stores a new bind password without changing it in the directory.',
    replace: () => ({ rotateRootChangesDirectory: false }),
  }),
  fault('ldap.rotate-root-returns-password', {
    breaks: 'ldap.rotate-root.not-returned',
    statements: [`${S}.endpoint-rotate-root-known-only`],
    description: 'rotate-root answers the new bind password in data.password.',
    replace: () => ({ rotateRootAnswer: (password) => ({ data: { password } }) }),
  }),
  // Blind faults of issue 36: one clause each, written from the documents and the reference.
  fault('ldap.url-list-reversed', {
    breaks: 'ldap.config.url-order',
    statements: [`${S}.url-order`],
    description: 'The URLs of the list are tried from the last to the first.',
    replace: (d) => ({ urlsToTry: (urls) => d.urlsToTry([...urls].reverse()) }),
  }),
  fault('ldap.url-list-two-tried', {
    breaks: 'ldap.config.url-failover',
    statements: [`${S}.url-list`],
    description: 'Of a list of three or more URLs only the first two are tried.',
    replace: (d) => ({ urlsToTry: (urls) => d.urlsToTry(urls.slice(0, 2)) }),
  }),
  fault('ldap.config-schema-ad-refused', {
    breaks: 'ldap.config.schema-default',
    statements: [`${S}.schema-values`],
    description: 'schema ad is refused (only openldap and racf are known).',
    replace: () => ({ schemas: ['openldap', 'racf'] }),
  }),
  fault('ldap.config-schema-unknown-accepted', {
    breaks: 'ldap.config.schema-default',
    statements: [`${S}.schema-values`],
    description: 'A schema other than openldap, ad and racf is accepted and stored.',
    replace: () => ({ unknownSchemaRefused: false }),
  }),
  fault('ldap.config-url-default-lost-on-update', {
    breaks: 'ldap.config.url-default',
    statements: [`${S}.url-default`],
    description: 'A later write that omits url, on a configuration whose url is the default, stores no url.',
    replace: (d) => ({
      mergeConfig: (prev, next) =>
        d.mergeConfig(
          prev,
          prev && next.urls.length === 1 && next.urls[0] === DEFAULT_URL ? { ...next, urls: [] } : next,
        ),
    }),
  }),
  fault('ldap.config-read-case-sensitive-string', {
    breaks: 'ldap.config.write-read',
    statements: [`${S}.read-case-sensitive-names`],
    description: 'The config read gives case_sensitive_names as a string ("false"), not a boolean.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), case_sensitive_names: 'false' }) }),
  }),
  fault('ldap.config-read-length-string', {
    breaks: 'ldap.config.write-read',
    statements: [`${S}.read-length`],
    description: 'The config read gives length as a string ("64"), not an integer.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), length: String(d.configRead(cfg).length) }) }),
  }),
  fault('ldap.config-read-url-first-only', {
    breaks: 'ldap.config.write-read',
    statements: [`${S}.read-url`],
    description: 'The config read gives only the first URL of a list.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), url: cfg.urls[0] ?? '' }) }),
  }),
  fault('ldap.config-request-timeout-minutes-as-seconds', {
    breaks: 'ldap.config.request-timeout',
    statements: [`${S}.request-timeout-formats`],
    description: 'request_timeout written in minutes ("2m") is read as that many seconds.',
    replace: (d) => ({
      configDuration: (key, value) =>
        key === 'request_timeout' && typeof value === 'string' && /^\d+m$/.test(value)
          ? Number(value.slice(0, -1))
          : d.configDuration(key, value),
    }),
  }),
  fault('ldap.config-request-timeout-integer-as-minutes', {
    breaks: 'ldap.config.request-timeout',
    statements: [`${S}.request-timeout-seconds`],
    description: 'request_timeout written as integer seconds is read as minutes.',
    replace: (d) => ({
      configDuration: (key, value) =>
        key === 'request_timeout' && typeof value === 'number' ? value * 60 : d.configDuration(key, value),
    }),
  }),
  fault('ldap.config-connection-timeout-integer-as-minutes', {
    breaks: 'ldap.config.connection-timeout',
    statements: [`${S}.connection-timeout-seconds`],
    description: 'connection_timeout written as integer seconds is read as minutes.',
    replace: (d) => ({
      configDuration: (key, value) =>
        key === 'connection_timeout' && typeof value === 'number' ? value * 60 : d.configDuration(key, value),
    }),
  }),
  fault('ldap.library-search-above-userdn', {
    breaks: 'ldap.library.accounts-must-exist',
    statements: [`${S}.userdn-library`],
    description: 'Library accounts are searched from the parent of userdn, so an account outside userdn joins a set.',
    replace: (d) => ({ librarySearchBase: (base) => d.librarySearchBase(base.split(',').slice(1).join(',') || base) }),
  }),
];
