/**
 * The cloud suite's reader (suites/lib/cloud-directory.ts) sends exactly the requests of the real
 * cloud's public APIs, so a vendor pointing it at a real tenant can trust what it reads and what
 * it creates. Every method is called against a recording transport, and each request it sends is
 * compared whole (method, URL with its query, headers, body) with the request the API's reference
 * documents (the page named beside each):
 * - token endpoint: learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
 *   (form-encoded, `scope=<resource>/.default`, one token per resource, reused);
 * - Graph v1.0: learn.microsoft.com/graph/api/<resource>-<verb> (application-list,
 *   serviceprincipal-list, application-addpassword, serviceprincipal-list-memberof,
 *   group-list-members, group-list, directory-deleteditems-get/-delete, application-post-applications,
 *   serviceprincipal-post-serviceprincipals, serviceprincipal-post-approleassignedto, ...);
 * - the resource manager: learn.microsoft.com/rest/api/authorization (role definitions list,
 *   role assignments list for scope, create, delete by id; api-version 2022-04-01), resource groups
 *   get (2021-04-01), user-assigned identities create/delete (2023-01-31).
 * Then the same reader runs against the simulated cloud, which refuses requests of other shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../reference/clock.js';
import { Faults } from '../../reference/faults.js';
import { startCloudDirectory, type RunningCloudDirectory } from '../../reference/cloud-directory/server.js';
import {
  CloudReader,
  type CloudReaderSettings,
  type HttpAnswer,
  type HttpRequest,
  httpsTransport,
} from '../../suites/lib/cloud-directory.js';

const LOGIN = 'https://login.microsoftonline.com';
const GRAPH = 'https://graph.microsoft.com';
const ARM = 'https://management.azure.com';
const TENANT = '11111111-1111-4111-8111-111111111111';
const SUB = '22222222-2222-4222-8222-222222222222';
const SP = '33333333-3333-4333-8333-333333333333';
const APP = '44444444-4444-4444-8444-444444444444';
const APP_ID = '55555555-5555-4555-8555-555555555555';
const GROUP = '66666666-6666-4666-8666-666666666666';
const GRAPH_SP = '77777777-7777-4777-8777-777777777777';
const RG = `/subscriptions/${SUB}/resourceGroups/conformance-rg`;
const SCOPE = `${RG}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/scope-1`;
const ASSIGNMENT = `${SCOPE}/providers/Microsoft.Authorization/roleAssignments/88888888-8888-4888-8888-888888888888`;
const DEF = `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/18d7d88d-d35e-4fb5-a5c3-7773c20a72d9`;

const settings: CloudReaderSettings = {
  loginEndpoint: LOGIN,
  graphEndpoint: GRAPH,
  managementEndpoint: ARM,
  graphScope: 'https://graph.microsoft.com/.default',
  managementScope: 'https://management.azure.com/.default',
  tenantId: TENANT,
  subscriptionId: SUB,
  clientId: 'reader-id',
  clientSecret: 'reader-secret',
  resourceGroup: 'conformance-rg',
};

/** A request as the test compares it: the body parsed (form fields or JSON). */
interface Shape {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

const form = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
const graphGet = { Authorization: 'Bearer graph-token', Accept: 'application/json' };
const graphSend = { ...graphGet, 'Content-Type': 'application/json' };
const armGet = { Authorization: 'Bearer arm-token', Accept: 'application/json' };
const armSend = { ...armGet, 'Content-Type': 'application/json' };
const tokenFor = (scope: string, id = 'reader-id', secret = 'reader-secret'): Shape => ({
  method: 'POST',
  url: `${LOGIN}/${TENANT}/oauth2/v2.0/token`,
  headers: form,
  body: { client_id: id, client_secret: secret, grant_type: 'client_credentials', scope },
});
const filter = (f: string) => `$filter=${encodeURIComponent(f)}`;

/** Canned answers of the real APIs, by request. */
function answer(r: HttpRequest): { status: number; body?: unknown } {
  const u = new URL(r.url);
  const p = decodeURIComponent(u.pathname);
  if (p.endsWith('/oauth2/v2.0/token'))
    return {
      status: 200,
      body: { token_type: 'Bearer', access_token: r.body?.includes('graph') ? 'graph-token' : 'arm-token' },
    };
  const app = {
    id: APP,
    appId: APP_ID,
    displayName: 'x',
    signInAudience: 'AzureADMyOrg',
    tags: [],
    passwordCredentials: [],
  };
  if (r.method === 'GET' && p === '/v1.0/applications') return { status: 200, body: { value: [app] } };
  if (r.method === 'POST' && p === '/v1.0/applications') return { status: 201, body: app };
  if (r.method === 'GET' && p === `/v1.0/applications/${APP}`) return { status: 200, body: app };
  if (p === '/v1.0/servicePrincipals' && r.method === 'GET') {
    const graph = u.searchParams.get('$filter')?.includes('00000003');
    return {
      status: 200,
      body: {
        value: [
          graph
            ? {
                id: GRAPH_SP,
                appId: '00000003-0000-0000-c000-000000000000',
                appRoles: ['Application.ReadWrite.All', 'Group.Read.All', 'GroupMember.ReadWrite.All'].map(
                  (value, i) => ({ id: `role-${i}`, value }),
                ),
              }
            : { id: SP, appId: APP_ID },
        ],
      },
    };
  }
  if (p === '/v1.0/servicePrincipals' && r.method === 'POST') return { status: 201, body: { id: SP, appId: APP_ID } };
  if (p.endsWith('/addPassword')) return { status: 200, body: { keyId: 'k', secretText: 'fresh-secret' } };
  if (p.endsWith('/appRoleAssignedTo')) return { status: 201, body: {} };
  if (p.endsWith('/memberOf'))
    return { status: 200, body: { value: [{ '@odata.type': '#microsoft.graph.group', id: GROUP, displayName: 'g' }] } };
  if (p.endsWith('/members')) return { status: 200, body: { value: [{ id: SP }] } };
  if (p === '/v1.0/groups') return { status: 200, body: { value: [{ id: GROUP, displayName: 'g' }] } };
  if (p.startsWith('/v1.0/directory/deletedItems/'))
    return r.method === 'GET'
      ? { status: 404, body: { error: { code: 'Request_ResourceNotFound' } } }
      : { status: 204 };
  if (r.method === 'DELETE' && p.startsWith('/v1.0/')) return { status: 204 };
  if (p.endsWith('/roleDefinitions'))
    return {
      status: 200,
      body: { value: [{ id: DEF, name: DEF.split('/').pop(), properties: { roleName: 'User Access Administrator' } }] },
    };
  if (p.endsWith('/roleAssignments'))
    return {
      status: 200,
      body: {
        value: [{ id: ASSIGNMENT, name: 'a', properties: { scope: SCOPE, roleDefinitionId: DEF, principalId: SP } }],
      },
    };
  if (r.method === 'PUT' && p.includes('/roleAssignments/'))
    return {
      status: 201,
      body: {
        id: `${RG}/providers/Microsoft.Authorization/roleAssignments/x`,
        name: 'x',
        properties: { scope: RG, roleDefinitionId: DEF, principalId: SP },
      },
    };
  if (r.method === 'GET' && p === RG) return { status: 200, body: { id: RG, location: 'westeurope' } };
  if (r.method === 'PUT' && p === SCOPE) return { status: 201, body: { id: SCOPE } };
  if (r.method === 'DELETE') return { status: 200, body: {} };
  return { status: 400, body: { error: { code: 'unexpected', message: `${r.method} ${r.url}` } } };
}

function recorder(): { reader: CloudReader; sent: Shape[] } {
  const sent: Shape[] = [];
  const transport = async (r: HttpRequest): Promise<HttpAnswer> => {
    const type = r.headers['Content-Type'];
    const body =
      r.body === undefined
        ? undefined
        : type === 'application/x-www-form-urlencoded'
          ? Object.fromEntries(new URLSearchParams(r.body))
          : JSON.parse(r.body);
    sent.push({ method: r.method, url: r.url, headers: r.headers, ...(body === undefined ? {} : { body }) });
    const a = answer(r);
    return {
      status: a.status,
      headers: { date: 'Sat, 28 Nov 2026 12:00:00 GMT' },
      body: a.body === undefined ? '' : JSON.stringify(a.body),
    };
  };
  return { reader: new CloudReader(settings, transport), sent };
}

describe('the cloud reader sends the real APIs requests', () => {
  it('asks the token endpoint with form-encoded client credentials, one token per resource, reused', async () => {
    const { reader, sent } = recorder();
    expect(await reader.loginStatus('client', 'secret')).toBe(200);
    await reader.appByClientId(APP_ID);
    await reader.spByClientId(APP_ID);
    await reader.roleDefinitions('Reader');
    await reader.assignmentsOf(SP);
    expect(sent).toEqual([
      tokenFor('https://graph.microsoft.com/.default', 'client', 'secret'),
      tokenFor('https://graph.microsoft.com/.default'),
      { method: 'GET', url: `${GRAPH}/v1.0/applications?${filter(`appId eq '${APP_ID}'`)}`, headers: graphGet },
      { method: 'GET', url: `${GRAPH}/v1.0/servicePrincipals?${filter(`appId eq '${APP_ID}'`)}`, headers: graphGet },
      tokenFor('https://management.azure.com/.default'),
      {
        method: 'GET',
        url: `${ARM}/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions?${filter("roleName eq 'Reader'")}&api-version=2022-04-01`,
        headers: armGet,
      },
      {
        method: 'GET',
        url: `${ARM}/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments?${filter(`principalId eq '${SP}'`)}&api-version=2022-04-01`,
        headers: armGet,
      },
    ]);
  });

  it('reads memberships, group members, groups by name, deleted items; purges; adds a password', async () => {
    const { reader, sent } = recorder();
    await reader.groupsOf(SP);
    await reader.groupsListing(SP, [GROUP]);
    await reader.groupsNamed("o'brien");
    await reader.someGroups(2);
    await reader.deletedItem(APP);
    await reader.purge(APP);
    await reader.addAppPassword(APP, 'suite-extra');
    await reader.assignmentsAt(SCOPE);
    expect(sent.slice(1)).toEqual([
      { method: 'GET', url: `${GRAPH}/v1.0/servicePrincipals/${SP}/memberOf`, headers: graphGet },
      { method: 'GET', url: `${GRAPH}/v1.0/groups/${GROUP}/members?$select=id`, headers: graphGet },
      { method: 'GET', url: `${GRAPH}/v1.0/groups?${filter("displayName eq 'o''brien'")}`, headers: graphGet },
      { method: 'GET', url: `${GRAPH}/v1.0/groups?$top=2&$select=id,displayName`, headers: graphGet },
      { method: 'GET', url: `${GRAPH}/v1.0/directory/deletedItems/${APP}`, headers: graphGet },
      { method: 'DELETE', url: `${GRAPH}/v1.0/directory/deletedItems/${APP}`, headers: graphGet },
      {
        method: 'POST',
        url: `${GRAPH}/v1.0/applications/${APP}/addPassword`,
        headers: graphSend,
        body: { passwordCredential: { displayName: 'suite-extra' } },
      },
      tokenFor('https://management.azure.com/.default'),
      {
        method: 'GET',
        url: `${ARM}${SCOPE}/providers/Microsoft.Authorization/roleAssignments?${filter('atScope()')}&api-version=2022-04-01`,
        headers: armGet,
      },
    ]);
  });

  it('creates an engine application with its grants, and removes it with everything it holds', async () => {
    const { reader, sent } = recorder();
    await reader.createApp('engine-root', { admin: true, withSecret: true });
    const grant = (appRoleId: string) => ({
      method: 'POST',
      url: `${GRAPH}/v1.0/servicePrincipals/${GRAPH_SP}/appRoleAssignedTo`,
      headers: graphSend,
      body: { principalId: SP, resourceId: GRAPH_SP, appRoleId },
    });
    const put = sent.find((r) => r.method === 'PUT')!;
    expect(put.url).toMatch(
      new RegExp(
        `^${ARM}${RG}/providers/Microsoft\\.Authorization/roleAssignments/[0-9a-f-]{36}\\?api-version=2022-04-01$`,
      ),
    );
    expect(sent.slice(1)).toEqual([
      { method: 'POST', url: `${GRAPH}/v1.0/applications`, headers: graphSend, body: { displayName: 'engine-root' } },
      { method: 'POST', url: `${GRAPH}/v1.0/servicePrincipals`, headers: graphSend, body: { appId: APP_ID } },
      {
        method: 'GET',
        url: `${GRAPH}/v1.0/servicePrincipals?${filter("appId eq '00000003-0000-0000-c000-000000000000'")}`,
        headers: graphGet,
      },
      grant('role-0'),
      grant('role-1'),
      grant('role-2'),
      tokenFor('https://management.azure.com/.default'),
      {
        method: 'GET',
        url: `${ARM}/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions?${filter("roleName eq 'User Access Administrator'")}&api-version=2022-04-01`,
        headers: armGet,
      },
      {
        method: 'PUT',
        url: put.url,
        headers: armSend,
        body: { properties: { roleDefinitionId: DEF, principalId: SP, principalType: 'ServicePrincipal' } },
      },
      {
        method: 'POST',
        url: `${GRAPH}/v1.0/applications/${APP}/addPassword`,
        headers: graphSend,
        body: { passwordCredential: { displayName: 'conformance suite' } },
      },
      { method: 'GET', url: `${GRAPH}/v1.0/applications/${APP}`, headers: graphGet },
    ]);

    sent.length = 0;
    await reader.deleteApp({ id: APP, appId: APP_ID });
    expect(sent).toEqual([
      { method: 'GET', url: `${GRAPH}/v1.0/servicePrincipals?${filter(`appId eq '${APP_ID}'`)}`, headers: graphGet },
      {
        method: 'GET',
        url: `${ARM}/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments?${filter(`principalId eq '${SP}'`)}&api-version=2022-04-01`,
        headers: armGet,
      },
      { method: 'DELETE', url: `${ARM}${ASSIGNMENT}?api-version=2022-04-01`, headers: armGet },
      { method: 'DELETE', url: `${GRAPH}/v1.0/servicePrincipals/${SP}`, headers: graphGet },
      { method: 'DELETE', url: `${GRAPH}/v1.0/directory/deletedItems/${SP}`, headers: graphGet },
      { method: 'GET', url: `${GRAPH}/v1.0/applications/${APP}`, headers: graphGet },
      { method: 'DELETE', url: `${GRAPH}/v1.0/applications/${APP}`, headers: graphGet },
      { method: 'DELETE', url: `${GRAPH}/v1.0/directory/deletedItems/${APP}`, headers: graphGet },
    ]);
  });

  it('makes a scope in the named resource group, in its location, and removes it with its assignments', async () => {
    const { reader, sent } = recorder();
    expect(await reader.createScope('scope-1')).toBe(SCOPE);
    await reader.deleteScope(SCOPE);
    expect(sent).toEqual([
      tokenFor('https://management.azure.com/.default'),
      { method: 'GET', url: `${ARM}${RG}?api-version=2021-04-01`, headers: armGet },
      {
        method: 'PUT',
        url: `${ARM}${SCOPE}?api-version=2023-01-31`,
        headers: armSend,
        body: { location: 'westeurope' },
      },
      {
        method: 'GET',
        url: `${ARM}${SCOPE}/providers/Microsoft.Authorization/roleAssignments?api-version=2022-04-01`,
        headers: armGet,
      },
      { method: 'DELETE', url: `${ARM}${ASSIGNMENT}?api-version=2022-04-01`, headers: armGet },
      { method: 'DELETE', url: `${ARM}${SCOPE}?api-version=2023-01-31`, headers: armGet },
    ]);
  });

  it('reads the cloud time from the Date of a directory answer', async () => {
    const { reader, sent } = recorder();
    expect(await reader.now()).toBe(Date.parse('Sat, 28 Nov 2026 12:00:00 GMT'));
    expect(sent[1]).toEqual({ method: 'GET', url: `${GRAPH}/v1.0/applications?$top=1&$select=id`, headers: graphGet });
  });
});

describe('the cloud reader against the simulated cloud (which refuses other shapes)', () => {
  let dir: RunningCloudDirectory;
  const clock = new ControllableClock();
  beforeAll(async () => {
    dir = await startCloudDirectory({ clock, faults: new Faults() });
  });
  afterAll(async () => {
    await dir.close();
    clock.close();
  });

  it('reads, creates and removes through every method', async () => {
    const reader = new CloudReader(
      {
        ...settings,
        loginEndpoint: dir.addr,
        graphEndpoint: dir.addr,
        managementEndpoint: dir.addr,
        tenantId: dir.tenantId,
        subscriptionId: dir.subscriptionId,
        clientId: dir.rootClientId,
        clientSecret: dir.rootClientSecret,
        resourceGroup: dir.fixtures.resourceGroup,
      },
      httpsTransport(dir.ca),
    );
    const { app, secret } = await reader.createApp('engine-root', { admin: true, withSecret: true });
    expect(await reader.loginStatus(app.appId, secret!)).toBe(200);
    const sp = (await reader.spByClientId(app.appId))!;
    expect((await reader.assignmentsOf(sp.id)).map((a) => a.scope)).toEqual([reader.resourceGroupScope()]);
    const scope = await reader.createScope('scope-1');
    expect(await reader.assignmentsAt(scope)).toEqual([]);
    const group = (await reader.groupsNamed(dir.fixtures.groupNames[0]!))[0]!;
    expect(await reader.groupsListing(sp.id, [group.id])).toEqual([]);
    expect((await reader.roleDefinitions('Reader'))[0]?.roleName).toBe('Reader');
    await reader.deleteScope(scope);
    await reader.deleteApp(app);
    expect(await reader.appByClientId(app.appId)).toBeUndefined();
    expect(await reader.deletedItem(app.id)).toBeUndefined();
    expect(await reader.loginStatus(app.appId, secret!)).not.toBe(200);
    expect(Math.abs((await reader.now()) - clock.now())).toBeLessThan(2000);
  });
});
