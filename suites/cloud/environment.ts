/**
 * Cloud mounts whose engine sees (or does not see) chosen CLOUD_* environment variables, for the
 * rules of environment precedence and for the tests a variable would change. A target started with
 * the variables is used as it is (`cloud.envOverrides` says which); the reference instead gives the
 * test's own mount the variables it needs (`sys/reference/environment`, where `referenceControl`
 * is on), standing for a service started with them. Otherwise the test is skipped, naming the
 * setting.
 */
import { namesOf, type T } from '../../harness/index.js';
import { statusIs } from '../../harness/checks/index.js';
import type { CloudEnvVar } from '../../harness/index.js';
import { cloudConfig } from './helpers.js';
import { freshCloudMount } from './mounts.js';

export interface EnvMount {
  mount: string;
  /** The values of the variables the engine sees, where known (a started target may leave a secret's out). */
  env: Partial<Record<CloudEnvVar, string>>;
}

/** The values the suite gives the variables on the reference: those of its own fixtures. */
function fixtureValues(t: T): Partial<Record<CloudEnvVar, string>> {
  const c = cloudConfig(t);
  const out: Partial<Record<CloudEnvVar, string>> = {
    CLOUD_SUBSCRIPTION_ID: c.subscriptionId,
    CLOUD_TENANT_ID: c.tenantId,
    CLOUD_CLIENT_ID: c.rootClientId,
    CLOUD_CLIENT_SECRET: c.rootClientSecret,
    CLOUD_ENVIRONMENT: c.environment,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v)) as Partial<Record<CloudEnvVar, string>>;
}

/**
 * A fresh cloud mount whose engine sees every variable of `set` and none of `unset`: the
 * target's own when it was started that way, else (on the reference) set for this mount alone.
 */
export async function envMount(t: T, want: { set?: CloudEnvVar[]; unset?: CloudEnvVar[] }): Promise<EnvMount> {
  const set = want.set ?? [];
  const unset = want.unset ?? [];
  const started = cloudConfig(t).envOverrides ?? {};
  const has = (k: CloudEnvVar) => started[k] !== undefined;
  if (set.every(has) && !unset.some(has)) return { mount: await freshCloudMount(t), env: { ...started } };

  const envName = (k: CloudEnvVar) => namesOf('svc', t.config).envName(k);
  const wrong = [
    ...set.filter((k) => !has(k)).map((k) => `without ${envName(k)}`),
    ...unset.filter(has).map((k) => `with ${envName(k)}`),
  ];
  if (!t.config.capabilities.referenceControl)
    t.skip(`the target was started ${wrong.join(' and ')}`, 'cloud.envOverrides');
  const values = fixtureValues(t);
  const missing = set.filter((k) => !values[k]);
  if (missing.length)
    t.skip(`no value is known for ${missing.join(', ')}`, 'cloud settings (rootClientId, tenantId, environment, ...)', {
      prerequisite: true,
    });
  const env = Object.fromEntries(set.map((k) => [k, values[k]!])) as Partial<Record<CloudEnvVar, string>>;
  const mount = await freshCloudMount(t);
  // The reference's control: this mount's engine sees exactly these variables.
  t.precondition(
    await t.svc.post('sys/reference/environment', { body: { mount, variables: env }, validate: false }),
    statusIs(200),
  );
  return { mount, env };
}
