// Environment variables override the stored configuration: one test per CLOUD_* variable, each storing a value that cannot work and expecting the variable's to win.
import { randomUUID } from 'node:crypto';
import { suite, conformance, namesOf, type CloudEnvVar, type T } from '../../harness/index.js';
import { success } from '../../harness/checks/index.js';
import { issued, rootConfig, tryCredentials } from './config-helpers.js';
import { envMount } from './environment.js';
import { cloudConfig, fail, probe } from './helpers.js';

suite('cloud');

/**
 * On a mount whose engine sees `vars`, stores the root configuration changed by `wrong` (values that
 * cannot work) and expects credentials anyway: only the environment's values can make them work.
 */
async function overrides(
  t: T,
  vars: CloudEnvVar[],
  wrong: (body: Record<string, string>) => Record<string, string>,
): Promise<void> {
  probe(t);
  const { mount } = await envMount(t, { set: vars });
  t.check(await t.svc.post(`${mount}/config`, { body: wrong(rootConfig(t)) }), success);
  const result = await tryCredentials(t, mount);
  if (!issued(result)) {
    const names = vars.map((v) => namesOf('svc', t.config).envName(v)).join(' and ');
    fail(
      'env-override',
      `with a wrong stored value and ${names} set, the engine could not issue credentials`,
      { role: '2xx', creds: 200 },
      result,
    );
  }
}

conformance(
  {
    id: 'cloud.config.env-override',
    level: 'MUST',
    title: 'CLOUD_TENANT_ID of the service overrides tenant_id in /cloud/config',
  },
  (t) => overrides(t, ['CLOUD_TENANT_ID'], (b) => ({ ...b, tenant_id: randomUUID() })),
);

conformance(
  {
    id: 'cloud.config.env-override',
    level: 'MUST',
    title: 'CLOUD_SUBSCRIPTION_ID of the service overrides subscription_id in /cloud/config',
  },
  (t) => overrides(t, ['CLOUD_SUBSCRIPTION_ID'], (b) => ({ ...b, subscription_id: randomUUID() })),
);

conformance(
  {
    id: 'cloud.config.env-override',
    level: 'MUST',
    title: 'CLOUD_CLIENT_ID of the service overrides client_id in /cloud/config',
  },
  // The secret comes from CLOUD_CLIENT_SECRET too: the client id and secret of one application.
  (t) => overrides(t, ['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET'], (b) => ({ ...b, client_id: randomUUID() })),
);

conformance(
  {
    id: 'cloud.config.env-override',
    level: 'MUST',
    title: 'CLOUD_CLIENT_SECRET of the service overrides client_secret in /cloud/config',
  },
  (t) =>
    overrides(t, ['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET'], (b) => {
      const secret = `wrong-${randomUUID()}`;
      t.secret(secret);
      return { ...b, client_secret: secret };
    }),
);

conformance(
  {
    id: 'cloud.config.env-override',
    level: 'MUST',
    title: 'CLOUD_ENVIRONMENT of the service overrides environment in /cloud/config',
  },
  async (t) => {
    const other = cloudConfig(t).otherEnvironment;
    if (!other) t.skip('no other environment the target accepts is known', 'cloud.otherEnvironment');
    await overrides(t, ['CLOUD_ENVIRONMENT'], (b) => ({ ...b, environment: other! }));
  },
);
