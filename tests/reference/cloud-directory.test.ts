import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../reference/clock.js';
import { Faults } from '../../reference/faults.js';
import { startCloudDirectory, type RunningCloudDirectory } from '../../reference/cloud-directory/server.js';
import { parseJsonArray, parseRoleItems, parseTags } from '../../reference/secrets/engines/cloud/roles.js';

let dir: RunningCloudDirectory;
const clock = new ControllableClock();

async function token(clientId: string, secret: string): Promise<Response> {
  return fetch(`${dir.addr}/${dir.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: secret }),
  });
}

beforeAll(async () => {
  dir = await startCloudDirectory({ clock, faults: new Faults(), seed: { roleNames: ['Reader'], groupNames: ['g1'] } });
});
afterAll(async () => {
  await dir.close();
  clock.close();
});

describe('simulated cloud directory', () => {
  it('authenticates the seeded root credentials and refuses a wrong secret or tenant', async () => {
    expect((await token(dir.rootClientId, dir.rootClientSecret)).status).toBe(200);
    expect((await token(dir.rootClientId, 'nope')).status).toBe(401);
    const wrongTenant = await fetch(`${dir.addr}/other/oauth2/v2.0/token`, {
      method: 'POST',
      body: JSON.stringify({ client_id: dir.rootClientId, client_secret: dir.rootClientSecret }),
    });
    expect(wrongTenant.status).toBe(400);
  });

  it('expires secrets on its clock and never shows secret digests', async () => {
    const app = dir.store.createApplication({ displayName: 'x' });
    dir.store.createServicePrincipal(app.appId);
    const { secretText } = dir.store.addPassword(app.id, { endDateTime: new Date(clock.now() + 60_000).toISOString() });
    expect((await token(app.appId, secretText)).status).toBe(200);
    await clock.advance(61_000);
    expect((await token(app.appId, secretText)).status, 'after endDateTime').toBe(401);
    const root = (await (await token(dir.rootClientId, dir.rootClientSecret)).json()) as { access_token: string };
    const view = await (
      await fetch(`${dir.addr}/applications/${app.id}`, { headers: { authorization: `Bearer ${root.access_token}` } })
    ).text();
    expect(view).not.toContain('digest');
    expect(view).not.toContain(secretText);
  });

  it('keeps role assignments to scopes of its subscription', () => {
    const app = dir.store.createApplication({ displayName: 'y' });
    const sp = dir.store.createServicePrincipal(app.appId);
    const def = [...dir.store.roleDefinitions.values()][0]!;
    expect(() =>
      dir.store.createRoleAssignment('a1', {
        roleDefinitionId: def.id,
        principalId: sp.id,
        scope: '/subscriptions/other',
      }),
    ).toThrow(/scope/);
    expect(
      dir.store.createRoleAssignment('a2', {
        roleDefinitionId: def.id,
        principalId: sp.id,
        scope: `/subscriptions/${dir.subscriptionId}/resourceGroups/rg`,
      }).scope,
    ).toContain(dir.subscriptionId);
  });
});

describe('cloud role field parsing', () => {
  it('takes cloud_roles only as a string holding a JSON array of items with scope and a role', () => {
    expect(() => parseJsonArray('cloud_roles', '{"a":1}')).toThrow();
    expect(() => parseJsonArray('cloud_roles', '[')).toThrow();
    expect(() => parseJsonArray('cloud_roles', [{}])).toThrow();
    expect(() => parseRoleItems([{ role_name: 'Reader' }], true)).toThrow(/scope/);
    expect(() => parseRoleItems([{ scope: '/s' }], true)).toThrow(/role_name or role_id/);
    expect(parseRoleItems(parseJsonArray('cloud_roles', '[{"role_name":"Reader","scope":"/s"}]'), true)).toEqual([
      { role_name: 'Reader', scope: '/s' },
    ]);
  });

  it('splits tags on commas and refuses blanks inside a tag', () => {
    expect(parseTags('a:1, b:2,a:1')).toEqual(['a:1', 'b:2']);
    expect(() => parseTags('a b')).toThrow();
  });
});
