import { randomUUID } from 'node:crypto';
import { suite, conformance, namesOf, type T } from '../../harness/index.js';
import { bodyAt, lacksField, statusBetween, statusIs, success } from '../../harness/checks/index.js';
import { cloudConfig, fail, fixtureRoleName, need, probe, revokeLease, scopeFor } from './helpers.js';
import { freshCloudMount } from './mounts.js';

suite('cloud');

function rootConfig(t: T): Record<string, string> {
  const c = need(t, 'rootClientId', 'rootClientSecret', 'tenantId', 'subscriptionId');
  t.secret(c.rootClientSecret);
  return {
    subscription_id: c.subscriptionId,
    tenant_id: c.tenantId,
    client_id: c.rootClientId,
    client_secret: c.rootClientSecret,
  };
}

/** Writes a role and reads credentials; returns the two exchanges' statuses (credentials revoked after). */
async function tryCredentials(t: T, mount: string): Promise<{ role: number; creds: number; clientId?: string }> {
  const name = t.unique('role');
  const role = await t.svc.post(`${mount}/roles/${name}`, {
    body: { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: scopeFor(t) }]) },
  });
  if (role.response.status >= 400) return { role: role.response.status, creds: 0 };
  t.track(`role ${name}`, () => t.svc.delete(`${mount}/roles/${name}`));
  const creds = await t.svc.get(`${mount}/creds/${name}`);
  const b = creds.response.body as
    | { lease_id?: string; data?: { client_id?: string; client_secret?: string } }
    | undefined;
  if (creds.response.status === 200 && b?.lease_id) {
    t.secret(b.data?.client_secret);
    t.track(`lease ${b.lease_id}`, () => revokeLease(t, b.lease_id!), 'revoke');
  }
  return { role: role.response.status, creds: creds.response.status, clientId: b?.data?.client_id };
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
    const written = {
      subscription_id: randomUUID(),
      tenant_id: randomUUID(),
      client_id: randomUUID(),
      client_secret: `s-${randomUUID()}`,
    };
    t.secret(written.client_secret);
    t.check(await t.svc.post(`${mount}/config`, { body: written }), success);
    const read = await t.svc.get(`${mount}/config`);
    t.check(
      read,
      statusIs(200),
      bodyAt('/data/subscription_id', written.subscription_id, 'is the written subscription_id'),
      bodyAt('/data/tenant_id', written.tenant_id, 'is the written tenant_id'),
      bodyAt('/data/client_id', written.client_id, 'is the written client_id'),
      bodyAt('/data/environment', (v: unknown) => typeof v === 'string', 'is a string (empty means the public cloud)'),
    );
  },
);

conformance(
  {
    id: 'cloud.config.client-secret-write-only',
    also: ['auth.write-only.client-secret'],
    level: 'MUST',
    title: 'GET /cloud/config never returns client_secret',
  },
  async (t) => {
    const mount = await freshCloudMount(t);
    const secret = `s-${randomUUID()}`;
    t.secret(secret);
    t.check(
      await t.svc.post(`${mount}/config`, {
        body: {
          subscription_id: randomUUID(),
          tenant_id: randomUUID(),
          client_id: randomUUID(),
          client_secret: secret,
        },
      }),
      success,
    );
    const read = await t.svc.get(`${mount}/config`);
    t.check(read, statusIs(200), lacksField('/data/client_secret'));
    if (read.response.text.includes(secret))
      fail('write-only', 'the configuration read contains the client secret', 'absent', '[present]');
  },
);

conformance(
  {
    id: 'cloud.config.env-override',
    level: 'MUST',
    title: 'a CLOUD_* environment variable of the service overrides the value in /cloud/config',
  },
  async (t) => {
    const env = cloudConfig(t).envOverrides ?? {};
    const envName = (doc: string) => namesOf('svc', t.config).envName(doc);
    const overridden = (['CLOUD_TENANT_ID', 'CLOUD_CLIENT_ID'] as const).find((k) => env[k]);
    if (!overridden)
      t.skip(
        `the target was not started with ${envName('CLOUD_TENANT_ID')} or ${envName('CLOUD_CLIENT_ID')} set`,
        'cloud.envOverrides',
      );
    probe(t);
    const mount = await freshCloudMount(t);
    const body = rootConfig(t);
    // A stored value that cannot work: credentials succeed only if the environment's value wins.
    if (overridden === 'CLOUD_TENANT_ID') body.tenant_id = randomUUID();
    else body.client_id = randomUUID();
    t.check(await t.svc.post(`${mount}/config`, { body }), success);
    const result = await tryCredentials(t, mount);
    if (result.role >= 400 || result.creds !== 200)
      fail(
        'env-override',
        `with a wrong stored value and ${envName(overridden!)} set, the engine could not issue credentials`,
        { role: '2xx', creds: 200 },
        result,
      );
  },
);

conformance(
  {
    id: 'cloud.config.ids-required',
    level: 'MUST',
    title:
      'without subscription_id (in /cloud/config or CLOUD_SUBSCRIPTION_ID) the engine refuses the configuration or cannot issue credentials',
  },
  async (t) => {
    if (cloudConfig(t).envOverrides?.CLOUD_SUBSCRIPTION_ID)
      t.skip(
        `the target was started with ${namesOf('svc', t.config).envName('CLOUD_SUBSCRIPTION_ID')}, which supplies the value`,
        'cloud.envOverrides',
      );
    probe(t);
    const mount = await freshCloudMount(t);
    const { subscription_id: _omitted, ...body } = rootConfig(t);
    const write = await t.svc.post(`${mount}/config`, { body });
    if (write.response.status >= 400) {
      t.check(write, statusBetween(400, 499));
      return;
    }
    const result = await tryCredentials(t, mount);
    if (result.role < 400 && result.creds === 200)
      fail(
        'ids-required',
        'a configuration without subscription_id was accepted and issued credentials',
        'refused or failing',
        result,
      );
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
    const mount = await freshCloudMount(t);
    t.check(await t.svc.post(`${mount}/config`, { body: rootConfig(t) }), success);
    const name = t.unique('role');
    t.check(
      await t.svc.post(`${mount}/roles/${name}`, {
        body: { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: scopeFor(t) }]) },
      }),
      success,
    );
    t.check(await t.svc.delete(`${mount}/config`), success);
    const read = await t.svc.get(`${mount}/config`);
    if (read.response.status === 200) {
      t.check(read, lacksField('/data/client_id'), lacksField('/data/subscription_id'));
    } else {
      t.check(read, statusIs(404));
    }
    const creds = await t.svc.get(`${mount}/creds/${name}`);
    const leaseId = (creds.response.body as { lease_id?: string } | undefined)?.lease_id;
    if (leaseId) t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
    t.check(creds, statusBetween(400, 599));
  },
);
