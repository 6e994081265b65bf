// The cloud engine's configuration: what a write stores and a read shows, its optional fields, the required ids and DELETE.
import { randomUUID } from 'node:crypto';
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, lacksField, statusBetween, statusIs, success } from '../../harness/checks/index.js';
import { issued, rootConfig, tryCredentials } from './config-helpers.js';
import { envMount } from './environment.js';
import { cloudConfig, fail, fixtureRoleName, probe, revokeLease, scopeFor, purgeAfterTest } from './helpers.js';
import { freshCloudMount } from './mounts.js';

suite('cloud');

/** Random values for the four string fields of a configuration (nothing reaches the directory). */
function randomConfig(t: T): { [field: string]: string; client_secret: string } {
  const written = {
    subscription_id: randomUUID(),
    tenant_id: randomUUID(),
    client_id: randomUUID(),
    client_secret: `s-${randomUUID()}`,
  };
  t.secret(written.client_secret);
  return written;
}

function readsBack(written: Record<string, string>) {
  return [
    statusIs(200),
    bodyAt('/data/subscription_id', written.subscription_id, 'is the written subscription_id'),
    bodyAt('/data/tenant_id', written.tenant_id, 'is the written tenant_id'),
    bodyAt('/data/client_id', written.client_id, 'is the written client_id'),
    written.environment === undefined
      ? bodyAt('/data/environment', (v: unknown) => typeof v === 'string', 'is a string')
      : bodyAt('/data/environment', written.environment, 'is the written environment'),
  ];
}

conformance(
  {
    id: 'cloud.config.write-read',
    level: 'MUST',
    title:
      'POST /cloud/config stores the configuration and GET /cloud/config returns subscription_id, tenant_id, client_id and environment',
  },
  async (t) => {
    const mount = await freshCloudMount(t);
    const first = randomConfig(t);
    t.check(await t.svc.post(`${mount}/config`, { body: first }), success);
    t.check(await t.svc.get(`${mount}/config`), ...readsBack(first));
    // A second write with other values (and an environment, where the target's names one) replaces them.
    const second: Record<string, string> = randomConfig(t);
    const environment = cloudConfig(t).environment;
    if (environment) second.environment = environment;
    else t.note('the environment field is read back only with cloud.environment set');
    t.check(await t.svc.post(`${mount}/config`, { body: second }), success);
    t.check(await t.svc.get(`${mount}/config`), ...readsBack(second));
  },
);

conformance(
  {
    id: 'cloud.config.client-secret-write-only',
    also: ['auth.write-only.client-secret', 'cloud.config.write-read'],
    level: 'MUST',
    title: 'GET /cloud/config never returns client_secret',
  },
  async (t) => {
    const mount = await freshCloudMount(t);
    const written = randomConfig(t);
    t.check(await t.svc.post(`${mount}/config`, { body: written }), success);
    const read = await t.svc.get(`${mount}/config`);
    // That the read answers is the rule of write-read; this test is about what it leaves out.
    t.as('cloud.config.write-read').check(read, statusIs(200));
    t.check(read, lacksField('/data/client_secret'));
    if (read.response.text.includes(written.client_secret))
      fail('write-only', 'the configuration read contains the client secret', 'absent', '[present]');
  },
);

conformance(
  {
    id: 'cloud.config.optional-fields',
    also: ['cloud.config.write-read'],
    level: 'MUST',
    title:
      'POST /cloud/config without client_id, client_secret and environment is accepted and reads show client_id and environment empty',
  },
  async (t) => {
    // A read may show what the environment supplies: the engine must see none of the three variables.
    const { mount } = await envMount(t, { unset: ['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET', 'CLOUD_ENVIRONMENT'] });
    const body = { subscription_id: randomUUID(), tenant_id: randomUUID() };
    t.check(await t.svc.post(`${mount}/config`, { body }), success);
    const read = await t.svc.get(`${mount}/config`);
    // That the read answers with both fields is the rule of write-read; this test is about their values.
    t.as('cloud.config.write-read').check(read, statusIs(200));
    const data = (read.response.body as { data?: Record<string, unknown> } | undefined)?.data ?? {};
    t.proving('cloud.config.write-read', () => {
      for (const field of ['client_id', 'environment'])
        if (!(field in data)) fail('read-fields', `GET /cloud/config lacks ${field}`, 'present', undefined);
    });
    t.check(
      read,
      bodyAt('/data/client_id', '', 'is empty (the default)'),
      bodyAt('/data/environment', '', 'is empty (the default: the public cloud)'),
    );
  },
);

conformance(
  {
    id: 'cloud.config.optional-fields',
    also: ['cloud.config.write-read'],
    level: 'MUST',
    title:
      'a later POST /cloud/config that again omits client_id and environment leaves them empty (their default), not filled in',
  },
  async (t) => {
    const { mount } = await envMount(t, { unset: ['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET', 'CLOUD_ENVIRONMENT'] });
    for (const body of [
      { subscription_id: randomUUID(), tenant_id: randomUUID() },
      { subscription_id: randomUUID(), tenant_id: randomUUID() },
    ])
      t.as('cloud.config.write-read').check(await t.svc.post(`${mount}/config`, { body }), success);
    const read = await t.svc.get(`${mount}/config`);
    t.as('cloud.config.write-read').check(read, statusIs(200));
    t.check(
      read,
      bodyAt('/data/client_id', '', 'is still empty (the default)'),
      bodyAt('/data/environment', '', 'is still empty (the default: the public cloud)'),
    );
  },
);

conformance(
  {
    id: 'cloud.config.write-read',
    level: 'MUST',
    title: 'a later POST /cloud/config replaces the client_secret: the engine then works with the new one',
  },
  async (t) => {
    probe(t);
    // Client credentials from the environment would stand in for the written ones.
    const { mount } = await envMount(t, { unset: ['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET'] });
    const right = rootConfig(t);
    const wrong = `wrong-${randomUUID()}`;
    t.secret(wrong);
    t.check(await t.svc.post(`${mount}/config`, { body: { ...right, client_secret: wrong } }), success);
    t.check(await t.svc.post(`${mount}/config`, { body: right }), success);
    const result = await tryCredentials(t, mount);
    if (!issued(result))
      fail(
        'client-secret-replaced',
        'after a configuration write with the working client_secret the engine could not issue credentials: it kept the earlier one',
        { role: '2xx', creds: 200 },
        result,
      );
  },
);

/** Without one required id the configuration is refused (4xx) or the engine cannot issue credentials. */
async function refusedOrUnusable(t: T, mount: string, omitted: 'subscription_id' | 'tenant_id'): Promise<void> {
  const { [omitted]: _omitted, ...body } = rootConfig(t);
  const write = await t.svc.post(`${mount}/config`, { body });
  if (write.response.status >= 400) {
    t.check(write, statusBetween(400, 499));
    return;
  }
  const result = await tryCredentials(t, mount);
  if (issued(result))
    fail(
      'ids-required',
      `a configuration without ${omitted} was accepted and issued credentials`,
      'refused or failing',
      result,
    );
}

conformance(
  {
    id: 'cloud.config.ids-required',
    level: 'MUST',
    title:
      'without subscription_id (in /cloud/config or CLOUD_SUBSCRIPTION_ID) the engine refuses the configuration or cannot issue credentials',
  },
  async (t) => {
    probe(t);
    const { mount } = await envMount(t, { unset: ['CLOUD_SUBSCRIPTION_ID'] });
    await refusedOrUnusable(t, mount, 'subscription_id');
  },
);

conformance(
  {
    id: 'cloud.config.ids-required',
    level: 'MUST',
    title:
      'without tenant_id (in /cloud/config or CLOUD_TENANT_ID) the engine refuses the configuration or cannot issue credentials',
  },
  async (t) => {
    probe(t);
    const { mount } = await envMount(t, { unset: ['CLOUD_TENANT_ID'] });
    await refusedOrUnusable(t, mount, 'tenant_id');
  },
);

conformance(
  {
    id: 'cloud.config.delete',
    level: 'MUST',
    title: 'DELETE /cloud/config removes the configuration: reads show no stored values and credentials fail',
  },
  async (t) => {
    probe(t);
    // Client credentials from the environment would outlive the deleted configuration.
    const { mount } = await envMount(t, { unset: ['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET'] });
    t.check(await t.svc.post(`${mount}/config`, { body: rootConfig(t) }), success);
    const name = t.unique('role');
    t.check(
      await t.svc.post(`${mount}/roles/${name}`, {
        body: { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]) },
      }),
      success,
    );
    t.check(await t.svc.delete(`${mount}/config`), success);
    const read = await t.svc.get(`${mount}/config`);
    // No stored values: empty ones, nothing (204) or 404; which one is not shown.
    if (read.response.status === 200) {
      t.check(read, lacksField('/data/client_id'), lacksField('/data/subscription_id'));
    } else {
      t.check(read, statusIs(204, 404));
    }
    const creds = await t.svc.get(`${mount}/creds/${name}`);
    const issued = creds.response.body as { lease_id?: string; data?: { client_id?: string } } | undefined;
    const leaseId = issued?.lease_id;
    if (leaseId) t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
    if (leaseId) await purgeAfterTest(t, issued?.data?.client_id);
    t.check(creds, statusBetween(400, 599));
  },
);
