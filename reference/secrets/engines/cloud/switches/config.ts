/**
 * The faults of the cloud engine's configuration, its environment variables and rotate-root: each
 * breaks one catalogued rule (`breaks`) and names the statements of the documents it contradicts.
 */
import { switchesOf } from '../../../../switches.js';
import { parseDuration } from '../../../duration.js';
import { badRequest } from '../../../errors.js';
import { type CloudEndpoints, getJson } from '../directory-client.js';
import { type CloudRules, ENV_OF, type StoredConfig, requireIds } from '../rules.js';

const { fault } = switchesOf<CloudRules>(['cloud']);
const S = (slug: string) => `doc.core.cloud.${slug}`;

const nothing = (): void => {};

/** How long a stale cache serves what was there before a change (ms). */
const STALE_MS = 2000;

/** `value` with its unit read otherwise: "Nd" as N hours, or "h" unknown. */
const misreadDuration = (value: unknown, how: 'days-as-hours' | 'no-hours'): number => {
  if (how === 'days-as-hours' && typeof value === 'string' && /^\d+d$/.test(value.trim()))
    return parseDuration(`${Number.parseInt(value, 10)}h`);
  if (how === 'no-hours' && typeof value === 'string' && /h/.test(value)) throw new Error('unknown unit h');
  return parseDuration(value);
};

/** Six calendar months after `now` (between 181 and 184 days). */
const sixMonthsAfter = (now: number): string => {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() + 6);
  return d.toISOString();
};

/** The environment without one CLOUD_* variable: the engine reads it from the configuration only. */
const without =
  (rules: CloudRules, field: keyof typeof ENV_OF) =>
  (env: Record<string, string | undefined>): Record<string, string | undefined> => {
    const { [ENV_OF[field]]: _ignored, ...rest } = rules.environment(env);
    return rest;
  };

/** The directory's tenant as the simulation's own status endpoint (`/health`) names it. */
async function discoveredTenant(endpoints: CloudEndpoints, ca?: string): Promise<string> {
  const body = (await getJson(`${endpoints.login}/health`, ca)) as { tenantId?: unknown } | undefined;
  return typeof body?.tenantId === 'string' ? body.tenantId : '';
}

export const configFaults = [
  // --- configuration ---
  fault('cloud.config-read-shows-secret', {
    breaks: 'cloud.config.client-secret-write-only',
    statements: [S('config-client-secret-omitted'), S('config-read-never-secret'), S('client-secret-write-only')],
    description: 'GET /cloud/config includes client_secret.',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), client_secret: c?.client_secret ?? '' }),
    }),
  }),
  fault('cloud.config-read-drops-client-id', {
    breaks: 'cloud.config.write-read',
    statements: [S('config-read-client-id'), S('config-client-id')],
    description: 'GET /cloud/config omits client_id.',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), client_id: undefined }),
    }),
  }),
  fault('cloud.config-read-drops-tenant-id', {
    breaks: 'cloud.config.write-read',
    statements: [S('config-read-tenant-id'), S('config-tenant-id')],
    description: 'GET /cloud/config omits tenant_id.',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), tenant_id: undefined }),
    }),
  }),
  fault('cloud.config-read-subscription-is-tenant', {
    breaks: 'cloud.config.write-read',
    statements: [S('config-read-subscription-id'), S('config-subscription-id')],
    description: 'GET /cloud/config reports the tenant id as subscription_id (the two fields mixed up).',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), subscription_id: c?.tenant_id ?? '' }),
    }),
  }),
  fault('cloud.config-environment-not-stored', {
    breaks: 'cloud.config.write-read',
    statements: [S('config-read-environment'), S('config-environment')],
    description: 'POST /cloud/config accepts environment but does not keep it: reads show it empty.',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), environment: '' }),
    }),
  }),
  fault('cloud.config-read-no-data', {
    breaks: 'cloud.config.write-read',
    statements: [S('endpoint-config-read')],
    description: 'GET /cloud/config answers 204 without data.',
    // No data makes the answer a 204.
    replace: () => ({ configRead: () => undefined as unknown as Record<string, unknown> }),
  }),
  fault('cloud.config-update-ignored', {
    breaks: 'cloud.config.write-read',
    statements: [S('holds-credentials'), S('endpoint-config-write')],
    description: 'POST /cloud/config on a configured mount answers success but keeps the first configuration.',
    replace: () => ({ configAfterWrite: (previous: StoredConfig | undefined, next) => previous ?? next }),
  }),
  fault('cloud.client-id-default-null', {
    breaks: 'cloud.config.optional-fields',
    statements: [S('config-client-id-default')],
    description: 'A configuration written without client_id reads client_id as null instead of empty.',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), client_id: c?.client_id || null }),
    }),
  }),
  fault('cloud.client-secret-required', {
    breaks: 'cloud.config.optional-fields',
    statements: [S('config-client-secret-default')],
    description: 'POST /cloud/config without client_secret is refused (400) although the field is optional.',
    replace: (rules) => ({
      checkIdsAtWrite: (next, env) => {
        rules.checkIdsAtWrite(next, env);
        if (!next.client_secret && !env[ENV_OF.client_secret]) throw badRequest('client_secret is required');
      },
    }),
  }),
  fault('cloud.environment-default-named', {
    breaks: 'cloud.config.optional-fields',
    statements: [S('config-environment-default')],
    description:
      "A configuration written without environment reads environment as the public cloud's name instead of empty.",
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), environment: c?.environment || 'CloudPublicCloud' }),
    }),
  }),
  fault('cloud.config-delete-kept', {
    breaks: 'cloud.config.delete',
    statements: [S('endpoint-config-delete')],
    description: 'DELETE /cloud/config answers success but keeps the configuration.',
    replace: () => ({ configAfterDelete: (c) => c }),
  }),
  fault('cloud.config-update-keeps-client-secret', {
    breaks: 'cloud.config.write-read',
    statements: [S('config-client-secret')],
    description:
      'POST /cloud/config on a configured mount ignores a new client_secret: the engine keeps logging in with the one written first.',
    replace: (rules) => ({
      configAfterWrite: (previous, next, sent) => {
        const written = rules.configAfterWrite(previous, next, sent);
        return previous ? { ...written, client_secret: previous.client_secret } : written;
      },
    }),
  }),
  fault('cloud.config-read-stale-after-write', {
    breaks: 'cloud.config.write-read',
    statements: [S('endpoint-config-read'), S('endpoint-config-write')],
    description: 'For 2 seconds after POST /cloud/config, GET /cloud/config serves the configuration as it was before.',
    replace: (rules) => ({
      configToRead: (current, previous, since) =>
        current && since < STALE_MS ? rules.configToRead(previous ?? current, undefined, since) : current,
    }),
  }),
  fault('cloud.config-read-stale-after-delete', {
    breaks: 'cloud.config.delete',
    statements: [S('endpoint-config-delete')],
    description: 'For 2 seconds after DELETE /cloud/config, GET /cloud/config serves the deleted configuration.',
    replace: (rules) => ({
      configToRead: (current, previous, since) =>
        !current && since < STALE_MS ? previous : rules.configToRead(current, previous, since),
    }),
  }),
  fault('cloud.config-delete-keeps-credentials', {
    breaks: 'cloud.config.delete',
    statements: [S('endpoint-config-delete-credentials')],
    description:
      'DELETE /cloud/config empties what reads show, but the engine keeps the deleted client credentials and goes on issuing credentials for the roles it holds.',
    replace: () => ({ credentialsAfterDelete: (c) => c }),
  }),
  fault('cloud.config-update-names-environment', {
    breaks: 'cloud.config.optional-fields',
    statements: [S('config-environment-default')],
    description:
      "A configuration update that omits environment, on a mount whose environment is empty, stores the public cloud's name: reads then show it instead of empty.",
    replace: (rules) => ({
      configAfterWrite: (previous, next, sent) => {
        const written = rules.configAfterWrite(previous, next, sent);
        return previous && sent.environment === undefined && !written.environment
          ? { ...written, environment: 'CloudPublicCloud' }
          : written;
      },
    }),
  }),
  // --- environment variables ---
  fault('cloud.env-ignored', {
    breaks: 'cloud.config.env-override',
    statements: [S('config-env-overrides')],
    description: 'CLOUD_* environment variables do not override the stored configuration.',
    replace: () => ({ environment: () => ({}) }),
  }),
  fault('cloud.env-subscription-id-ignored', {
    breaks: 'cloud.config.env-override',
    statements: [S('config-subscription-id-env')],
    description: 'CLOUD_SUBSCRIPTION_ID does not override the stored subscription_id.',
    replace: (rules) => ({ environment: without(rules, 'subscription_id') }),
  }),
  fault('cloud.env-tenant-id-ignored', {
    breaks: 'cloud.config.env-override',
    statements: [S('config-tenant-id-env')],
    description: 'CLOUD_TENANT_ID does not override the stored tenant_id.',
    replace: (rules) => ({ environment: without(rules, 'tenant_id') }),
  }),
  fault('cloud.env-client-id-ignored', {
    breaks: 'cloud.config.env-override',
    statements: [S('config-client-id-env')],
    description: 'CLOUD_CLIENT_ID does not override the stored client_id.',
    replace: (rules) => ({ environment: without(rules, 'client_id') }),
  }),
  fault('cloud.env-client-secret-ignored', {
    breaks: 'cloud.config.env-override',
    statements: [S('config-client-secret-env')],
    description: 'CLOUD_CLIENT_SECRET does not override the stored client_secret.',
    replace: (rules) => ({ environment: without(rules, 'client_secret') }),
  }),
  fault('cloud.env-environment-ignored', {
    breaks: 'cloud.config.env-override',
    statements: [S('config-environment-env')],
    description: 'CLOUD_ENVIRONMENT does not override the stored environment.',
    replace: (rules) => ({ environment: without(rules, 'environment') }),
  }),
  fault('cloud.ids-not-required', {
    breaks: 'cloud.config.ids-required',
    statements: [S('config-subscription-id-required')],
    description:
      'A configuration without subscription_id (and no env var) is accepted and used: role definitions are then looked up in every subscription.',
    replace: () => ({ checkIdsAtWrite: (next, env) => requireIds(next, env, ['tenant_id']), checkIdsAtUse: nothing }),
  }),
  fault('cloud.tenant-id-discovered', {
    breaks: 'cloud.config.ids-required',
    statements: [S('config-tenant-id-required')],
    description:
      "A configuration without tenant_id (and no env var) is accepted; the engine then logs in to the tenant the directory's discovery endpoint names.",
    replace: () => ({
      checkIdsAtWrite: (next, env) => requireIds(next, env, ['subscription_id']),
      checkIdsAtUse: nothing,
      tenantWhenMissing: discoveredTenant,
    }),
  }),
  fault('cloud.root-password-ttl-default-wrong', {
    breaks: 'cloud.config.root-password-ttl-default',
    statements: [S('config-root-password-ttl-default'), S('limit-root-password-ttl-default')],
    description: 'root_password_ttl defaults to 90 days instead of 182.',
    replace: () => ({ rootPasswordTtlDefault: 90 * 86400 }),
  }),
  fault('cloud.config-update-drops-root-password-ttl', {
    breaks: 'cloud.config.root-password-ttl-default',
    statements: [S('config-root-password-ttl-default')],
    description:
      "A configuration update that omits root_password_ttl clears it: rotate-root then gives the new secret no end date (the directory's own two years) instead of 182d.",
    replace: (rules) => ({
      configAfterWrite: (previous, next, sent) => {
        const written = rules.configAfterWrite(previous, next, sent);
        return previous && sent.root_password_ttl === undefined ? { ...written, root_password_ttl: 0 } : written;
      },
      rootSecretExpiry: (now, ttl) => (ttl > 0 ? rules.rootSecretExpiry(now, ttl) : {}),
    }),
  }),
  fault('cloud.root-password-ttl-default-six-months', {
    breaks: 'cloud.config.root-password-ttl-default',
    statements: [S('config-root-password-ttl-default'), S('limit-root-password-ttl-default')],
    description:
      'The 182d default is computed as six calendar months from the rotation (181 to 184 days), not 182 days.',
    replace: (rules) => ({
      rootSecretExpiry: (now, ttl) =>
        ttl === rules.rootPasswordTtlDefault ? { endDateTime: sixMonthsAfter(now) } : rules.rootSecretExpiry(now, ttl),
    }),
  }),
  fault('cloud.root-password-ttl-days-as-hours', {
    breaks: 'cloud.rotate-root.expiry',
    statements: [S('config-root-password-ttl-type')],
    description: 'A root_password_ttl written in days ("30d") is read as that many hours.',
    replace: () => ({ rootPasswordTtlOf: (value) => misreadDuration(value, 'days-as-hours') }),
  }),
  fault('cloud.root-password-ttl-hours-refused', {
    breaks: 'cloud.rotate-root.expiry',
    statements: [S('config-root-password-ttl-type')],
    description: 'A root_password_ttl written in hours ("720h") is refused: only days and seconds are understood.',
    replace: () => ({ rootPasswordTtlOf: (value) => misreadDuration(value, 'no-hours') }),
  }),
  // --- rotate-root ---
  fault('cloud.rotate-root-keeps-old', {
    breaks: 'cloud.rotate-root.replaces-secret',
    statements: [S('rotates-root-secret')],
    description: 'rotate-root adds a secret but leaves the old one valid.',
    replace: () => ({ oldRootSecrets: () => [] }),
  }),
  fault('cloud.rotate-root-removes-only-latest-old', {
    breaks: 'cloud.rotate-root.replaces-secret',
    statements: [S('rotates-root-secret')],
    description:
      'rotate-root removes only the most recently added old secret of the application: when it holds several, the configured secret stays valid.',
    replace: (rules) => ({
      oldRootSecrets: (credentials, newKeyId) => rules.oldRootSecrets(credentials, newKeyId).slice(-1),
    }),
  }),
  fault('cloud.rotate-root-keeps-generated', {
    breaks: 'cloud.rotate-root.replaces-secret',
    statements: [S('rotates-root-secret')],
    description:
      'rotate-root removes only the secrets it did not generate itself: after a second rotation the secret of the first stays valid.',
    replace: (rules) => ({
      oldRootSecrets: (credentials, newKeyId) =>
        rules.oldRootSecrets(
          credentials.filter((c) => !c.displayName?.startsWith('svc-root-')),
          newKeyId,
        ),
    }),
  }),
  fault('cloud.rotate-root-noop', {
    breaks: 'cloud.rotate-root.replaces-secret',
    statements: [S('endpoint-rotate-root')],
    description: 'rotate-root answers 204 and generates nothing.',
    replace: () => ({ generatesRootSecret: false }),
  }),
  fault('cloud.rotate-root-wants-parameters', {
    breaks: 'cloud.rotate-root.replaces-secret',
    statements: [S('endpoint-rotate-root-no-parameters')],
    description: 'rotate-root without a body is refused (400, "client_id is required").',
    replace: () => ({
      checkRotateRootBody: (body) => {
        if (!Object.keys(body).length) throw badRequest('client_id is required');
      },
    }),
  }),
  fault('cloud.rotate-root-returns-secret', {
    breaks: 'cloud.rotate-root.secret-not-returned',
    statements: [S('endpoint-rotate-root-known-only')],
    description: 'rotate-root returns the new client secret in data.',
    replace: () => ({
      rotateRootResponse: (secret) => ({ data: { client_secret: secret } }),
    }),
  }),
  fault('cloud.config-read-shows-rotated-secret', {
    breaks: 'cloud.rotate-root.secret-not-returned',
    statements: [S('root-password-write-only')],
    description: 'After rotate-root, GET /cloud/config includes the generated client secret.',
    replace: (rules) => ({
      configRead: (c) =>
        c?.rotated ? { ...rules.configRead(c), client_secret: c.client_secret } : rules.configRead(c),
    }),
  }),
  fault('cloud.rotate-root-ttl-ignored', {
    breaks: 'cloud.rotate-root.expiry',
    statements: [S('config-root-password-ttl')],
    description: 'rotate-root ignores the configured root_password_ttl and always uses the 182-day default.',
    replace: (rules) => ({ rootSecretExpiry: (now) => rules.rootSecretExpiry(now, rules.rootPasswordTtlDefault) }),
  }),
];
