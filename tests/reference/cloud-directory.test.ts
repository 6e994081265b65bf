/**
 * The simulated cloud speaks the real cloud's APIs over HTTPS with its own CA: form-encoded tokens,
 * one per resource; Graph v1.0 shapes (passwordCredential wrappers, members/$ref with @odata.id,
 * typed deleted items, gzip request bodies); the resource manager with the scope in the path, fields
 * under `properties`, an api-version, scopes that must exist and writes its roles must allow.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../reference/clock.js';
import { Faults } from '../../reference/faults.js';
import { startCloudDirectory, type RunningCloudDirectory } from '../../reference/cloud-directory/server.js';
import { parseJsonArray, parseRoleItems, parseTags } from '../../reference/secrets/engines/cloud/roles.js';
import { httpsTransport, type HttpAnswer } from '../../suites/lib/cloud-directory.js';

let dir: RunningCloudDirectory;
const clock = new ControllableClock();
let send: ReturnType<typeof httpsTransport>;
const GRAPH = 'https://graph.microsoft.com/.default';
const ARM = 'https://management.azure.com/.default';
const V = 'api-version=2022-04-01';

function form(fields: Record<string, string>) {
  return { 'Content-Type': 'application/x-www-form-urlencoded', body: new URLSearchParams(fields).toString() };
}
async function token(clientId: string, secret: string, scope = GRAPH, tenant = dir.tenantId): Promise<HttpAnswer> {
  const { body, ...headers } = form({
    client_id: clientId,
    client_secret: secret,
    grant_type: 'client_credentials',
    scope,
  });
  return send({ method: 'POST', url: `${dir.addr}/${tenant}/oauth2/v2.0/token`, headers, body });
}
async function bearer(scope = GRAPH, id = dir.rootClientId, secret = dir.rootClientSecret): Promise<string> {
  const res = await token(id, secret, scope);
  expect(res.status, res.body).toBe(200);
  return (JSON.parse(res.body) as { access_token: string }).access_token;
}
async function call(
  method: string,
  path: string,
  tok: string,
  body?: unknown,
  gzip = false,
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field in expectations
): Promise<HttpAnswer & { json: any }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${tok}` };
  let raw: string | Buffer | undefined;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    raw = JSON.stringify(body);
    if (gzip) {
      raw = gzipSync(raw);
      headers['Content-Encoding'] = 'gzip';
    }
  }
  const res = await send({ method, url: `${dir.addr}${path}`, headers, body: raw as string | undefined });
  return { ...res, json: res.body ? JSON.parse(res.body) : undefined };
}

beforeAll(async () => {
  dir = await startCloudDirectory({ clock, faults: new Faults(), seed: { roleNames: ['Reader'], groupNames: ['g1'] } });
  send = httpsTransport(dir.ca);
});
afterAll(async () => {
  await dir.close();
  clock.close();
});

describe('simulated cloud: the token endpoint', () => {
  it('takes form-encoded client credentials for one resource, refusing a JSON body, a wrong secret or tenant', async () => {
    expect((await token(dir.rootClientId, dir.rootClientSecret)).status).toBe(200);
    expect((await token(dir.rootClientId, 'nope')).status).toBe(401);
    expect((await token(dir.rootClientId, dir.rootClientSecret, GRAPH, 'other')).status).toBe(400);
    expect((await token(dir.rootClientId, dir.rootClientSecret, 'https://example.org/.default')).status).toBe(400);
    const json = await send({
      method: 'POST',
      url: `${dir.addr}/${dir.tenantId}/oauth2/v2.0/token`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: dir.rootClientId,
        client_secret: dir.rootClientSecret,
        grant_type: 'client_credentials',
        scope: GRAPH,
      }),
    });
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body).error).toBe('invalid_request');
  });

  it('answers a token of one resource only there: a Graph token is refused by the resource manager', async () => {
    const graph = await bearer(GRAPH);
    expect(
      (
        await call(
          'GET',
          `/subscriptions/${dir.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions?${V}`,
          graph,
        )
      ).status,
    ).toBe(401);
    const arm = await bearer(ARM);
    expect(
      (
        await call(
          'GET',
          `/subscriptions/${dir.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions?${V}`,
          arm,
        )
      ).status,
    ).toBe(200);
    expect((await call('GET', '/v1.0/applications', arm)).status).toBe(401);
  });

  it('serves instance discovery and the tenant openid configuration at the host asked', async () => {
    const d = await send({
      method: 'GET',
      url: `${dir.addr}/common/discovery/instance?api-version=1.1&authorization_endpoint=https://login.microsoftonline.com/${dir.tenantId}/oauth2/v2.0/authorize`,
      headers: {},
    });
    expect(JSON.parse(d.body).tenant_discovery_endpoint).toContain(
      `/${dir.tenantId}/v2.0/.well-known/openid-configuration`,
    );
    const o = await send({
      method: 'GET',
      url: `${dir.addr}/${dir.tenantId}/v2.0/.well-known/openid-configuration`,
      headers: {},
    });
    expect(JSON.parse(o.body).token_endpoint).toBe(`${dir.addr}/${dir.tenantId}/oauth2/v2.0/token`);
  });
});

describe('simulated cloud: the directory (Graph v1.0)', () => {
  it('creates an application (gzip body) and principal; a secret of either authenticates until it expires; no digest shows', async () => {
    const tok = await bearer();
    const app = await call('POST', '/v1.0/applications', tok, { displayName: 'x', tags: ['a'] }, true);
    expect(app.status).toBe(201);
    const sp = await call('POST', '/v1.0/servicePrincipals', tok, { appId: app.json.appId });
    expect(sp.status).toBe(201);
    const end = new Date(clock.now() + 60_000).toISOString();
    const spSecret = await call(
      'POST',
      `/v1.0/servicePrincipals/${sp.json.id}/addPassword`,
      tok,
      { passwordCredential: { endDateTime: end } },
      true,
    );
    expect(spSecret.status).toBe(200);
    expect((await token(app.json.appId, spSecret.json.secretText)).status).toBe(200);
    const appSecret = await call('POST', `/v1.0/applications/${app.json.id}/addPassword`, tok, {
      passwordCredential: { displayName: 'd' },
    });
    expect((await token(app.json.appId, appSecret.json.secretText)).status).toBe(200);
    await clock.advance(61_000);
    expect((await token(app.json.appId, spSecret.json.secretText)).status, 'after endDateTime').toBe(401);
    const found = await call(
      'GET',
      `/v1.0/applications?$filter=${encodeURIComponent(`appId eq '${app.json.appId}'`)}`,
      await bearer(),
    );
    expect(found.json.value).toHaveLength(1);
    expect(found.body).not.toContain('digest');
    expect(found.body).not.toContain(appSecret.json.secretText);
    expect(
      (await call('POST', `/v1.0/applications/${app.json.id}/removePassword`, tok, { keyId: appSecret.json.keyId }))
        .status,
    ).toBe(204);
    expect((await token(app.json.appId, appSecret.json.secretText)).status).toBe(401);
  });

  it('adds members by @odata.id reference, lists memberOf, and keeps deleted objects until purged', async () => {
    const tok = await bearer();
    const app = (await call('POST', '/v1.0/applications', tok, { displayName: 'm' })).json;
    const sp = (await call('POST', '/v1.0/servicePrincipals', tok, { appId: app.appId })).json;
    const group = (await call('GET', `/v1.0/groups?$filter=${encodeURIComponent("displayName eq 'g1'")}`, tok)).json
      .value[0];
    const ref = { '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${sp.id}` };
    expect((await call('POST', `/v1.0/groups/${group.id}/members/$ref`, tok, ref)).status).toBe(204);
    expect((await call('GET', `/v1.0/servicePrincipals/${sp.id}/memberOf`, tok)).json.value[0]).toMatchObject({
      id: group.id,
      '@odata.type': '#microsoft.graph.group',
    });
    expect((await call('DELETE', `/v1.0/groups/${group.id}/members/${sp.id}/$ref`, tok)).status).toBe(204);
    expect((await call('DELETE', `/v1.0/applications/${app.id}`, tok)).status).toBe(204);
    const deleted = await call('GET', `/v1.0/directory/deletedItems/${app.id}`, tok);
    expect(deleted.json['@odata.type']).toBe('#microsoft.graph.application');
    expect((await call('GET', `/v1.0/directory/deletedItems/${sp.id}`, tok)).status, 'its principal went with it').toBe(
      200,
    );
    expect((await call('DELETE', `/v1.0/directory/deletedItems/${app.id}`, tok)).status).toBe(204);
    expect((await call('GET', `/v1.0/directory/deletedItems/${app.id}`, tok)).status).toBe(404);
  });

  it('refuses a caller without the application permission the call needs', async () => {
    const tok = await bearer();
    const app = (await call('POST', '/v1.0/applications', tok, { displayName: 'weak' })).json;
    await call('POST', '/v1.0/servicePrincipals', tok, { appId: app.appId });
    const secret = (await call('POST', `/v1.0/applications/${app.id}/addPassword`, tok, { passwordCredential: {} }))
      .json.secretText;
    const weak = await bearer(GRAPH, app.appId, secret);
    expect((await call('GET', '/v1.0/applications', weak)).status).toBe(403);
  });
});

describe('simulated cloud: the resource manager', () => {
  it('assigns roles only on scopes that exist, under the scope in the path, to callers allowed to', async () => {
    const tok = await bearer(ARM);
    const graph = await bearer();
    const app = (await call('POST', '/v1.0/applications', graph, { displayName: 'r' })).json;
    const sp = (await call('POST', '/v1.0/servicePrincipals', graph, { appId: app.appId })).json;
    const def = (
      await call(
        'GET',
        `/subscriptions/${dir.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions?$filter=${encodeURIComponent("roleName eq 'Reader'")}&${V}`,
        tok,
      )
    ).json.value[0];
    expect(def.properties.roleName).toBe('Reader');
    const body = { properties: { roleDefinitionId: def.id, principalId: sp.id } };
    const rg = `/subscriptions/${dir.subscriptionId}/resourceGroups/${dir.fixtures.resourceGroup}`;
    expect(
      (await call('PUT', `${rg}/providers/Microsoft.Authorization/roleAssignments/${crypto.randomUUID()}`, tok, body))
        .status,
      'no api-version',
    ).toBe(400);
    const missing = `/subscriptions/${dir.subscriptionId}/resourceGroups/nope`;
    expect(
      (
        await call(
          'PUT',
          `${missing}/providers/Microsoft.Authorization/roleAssignments/${crypto.randomUUID()}?${V}`,
          tok,
          body,
        )
      ).status,
    ).toBe(404);
    const scope = `${rg}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/s1`;
    expect((await call('PUT', `${scope}?api-version=2023-01-31`, tok, { location: 'westeurope' })).status).toBe(201);
    const made = await call(
      'PUT',
      `/${scope}/providers/Microsoft.Authorization/roleAssignments/${crypto.randomUUID()}?${V}`,
      tok,
      body,
    );
    expect(made.status).toBe(201);
    expect(made.json.properties).toMatchObject({ scope, principalId: sp.id, roleDefinitionId: def.id });
    const atScope = await call(
      'GET',
      `${scope}/providers/Microsoft.Authorization/roleAssignments?$filter=atScope()&${V}`,
      tok,
    );
    expect(atScope.json.value.map((a: { id: string }) => a.id)).toContain(made.json.id);
    // The principal holds Reader: it may not assign roles.
    const secret = (await call('POST', `/v1.0/applications/${app.id}/addPassword`, graph, { passwordCredential: {} }))
      .json.secretText;
    const weak = await bearer(ARM, app.appId, secret);
    expect(
      (
        await call(
          'PUT',
          `${scope}/providers/Microsoft.Authorization/roleAssignments/${crypto.randomUUID()}?${V}`,
          weak,
          body,
        )
      ).status,
    ).toBe(403);
    expect((await call('DELETE', `${made.json.id}?${V}`, tok)).status).toBe(200);
    expect((await call('DELETE', `${made.json.id}?${V}`, tok)).status, 'nothing left to delete').toBe(204);
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
