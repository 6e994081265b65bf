import { randomUUID } from 'node:crypto';
import { suite, conformance, namesOf, type T } from '../../harness/index.js';
import { bodyAt, statusBetween, statusIs, success, errorMessage } from '../../harness/checks/index.js';
import { runCases } from '../lib/cases.js';
import {
  cloudConfig,
  cloudMount,
  fail,
  fixtureGroupName,
  fixtureRoleName,
  fixtureRoleNames,
  probe,
  requireConfigured,
  revokeLease,
  sameDefinition,
  sameScope,
  scopeFor,
  purgeAfterTest,
} from './helpers.js';
import { configuredCloudMount } from './mounts.js';

const s = suite('cloud');
const cloud = cloudMount(s);

/** Replaces `{{name}}` in every string of `value` (deeply). Unknown names are left as they are. */
function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (m, k: string) => vars[k] ?? m);
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
}

runCases(new URL('./roles.cases.yaml', import.meta.url), {
  'cloud-role': {
    // A refused role is looked for in LIST /cloud/roles, which answers 404 on a mount holding no
    // role and 200 once another test's role is there: run alone, each sees the same mount.
    sequential: "lists the mount's roles, which the file's other tests add to",
    async run(t, c) {
      requireConfigured(t, cloud);
      const vars: Record<string, string> = {
        missing: `svc-missing-${t.unique('x')}`,
        // A well-formed object id (a GUID) that names no directory object.
        missingId: randomUUID(),
      };
      // A scope is a resource made for the test: only a case whose body names one gets it.
      const sent = JSON.stringify(c.request.body);
      if (sent.includes('{{scope}}')) vars.scope = await scopeFor(t);
      // A second definition, for cases with two items: only a case naming one gets it.
      if (sent.includes('{{roleName2}}')) vars.roleName2 = (await fixtureRoleNames(t, 2))[1]!;
      for (const n of c.given?.needs ?? []) {
        if (n === 'roleName') vars.roleName = await fixtureRoleName(t);
        if (n === 'groupName') vars.groupName = await fixtureGroupName(t);
        if (n === 'appObjectId' && cloudConfig(t).applicationObjectId) {
          vars.appObjectId = cloudConfig(t).applicationObjectId!;
        } else if (n === 'appObjectId') {
          const p = probe(t);
          const { app } = await p.createApp(t.unique('app'));
          t.track(`application ${app.displayName}`, () => p.deleteApp(app));
          vars.appObjectId = app.id;
        }
      }
      const name = t.unique('role');
      const ex = await t.svc.post(`${cloud.path}/roles/${name}`, {
        body: fill(c.request.body, vars) as Record<string, unknown>,
      });
      t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
      if (c.expect.outcome === 'refused-or-unusable' && ex.response.status < 400) {
        // The document describes the item's shape without saying the write checks it: a role the
        // engine stored must then fail to issue credentials (never silently widen or drop the item).
        const creds = await t.svc.get(`${cloud.path}/creds/${name}`);
        const issued = creds.response.body as { lease_id?: string; data?: { client_id?: string } } | undefined;
        const leaseId = issued?.lease_id;
        if (leaseId) t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId));
        if (leaseId && typeof issued?.data?.client_id === 'string') await purgeAfterTest(t, issued.data.client_id);
        t.check(creds, statusBetween(400, 599), errorMessage);
        return;
      }
      t.check(ex, c.expect.outcome === 'invalid' ? statusIs(400) : statusBetween(400, 599), errorMessage);
      const list = await t.svc.list(`${cloud.path}/roles`);
      t.check(list, statusIs(200, 404));
      const keys = (list.response.body as { data?: { keys?: string[] } } | undefined)?.data?.keys ?? [];
      if (keys.includes(name))
        fail('role-not-stored', `the refused role ${name} is listed by LIST /cloud/roles`, 'absent', 'listed');
    },
  },
});

/** The role names of LIST /cloud/roles (an empty list may answer 404). */
async function listed(t: T): Promise<string[]> {
  const list = await t.svc.list(`${cloud.path}/roles`);
  t.check(list, statusIs(200, 404));
  return (list.response.body as { data?: { keys?: string[] } } | undefined)?.data?.keys ?? [];
}

conformance(
  {
    id: 'cloud.roles.write-list',
    level: 'MUST',
    title: 'POST /cloud/roles/:name creates roles that LIST /cloud/roles all returns in data.keys',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const names = [t.unique('role-b'), t.unique('role-a')];
    for (const name of names) {
      const body = { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]) };
      t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body }), success);
      t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
    }
    // No order is given: the names are compared as a set.
    const list = await t.svc.list(`${cloud.path}/roles`);
    t.check(
      list,
      statusIs(200),
      bodyAt(
        '/data/keys',
        (v: unknown) => Array.isArray(v) && names.every((n) => v.includes(n)),
        `includes ${names.join(' and ')}`,
      ),
    );
  },
);

conformance(
  {
    id: 'cloud.roles.write-list',
    level: 'MUST',
    title: 'POST /cloud/roles/:name on an existing role updates it: its credentials follow the new ttl, listed once',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const name = t.unique('role');
    const body = { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]) };
    t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body: { ...body, ttl: 600 } }), success);
    t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
    t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body: { ...body, ttl: 1200 } }), success);
    const creds = await t.svc.get(`${cloud.path}/creds/${name}`);
    t.check(creds, statusIs(200));
    const {
      lease_id: leaseId,
      lease_duration: duration,
      data: issued,
    } = creds.response.body as {
      data: { client_id: string };
      lease_id: string;
      lease_duration: number;
    };
    t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
    await purgeAfterTest(t, issued.client_id);
    // lease_duration counts whole seconds left: a tick of the clock may show one second less.
    if (duration !== 1200 && duration !== 1199)
      fail('role-updated', 'credentials of the updated role do not follow its new ttl (1200)', 1200, duration);
    const keys = await listed(t);
    if (keys.filter((k) => k === name).length !== 1)
      fail(
        'listed-once',
        `LIST /cloud/roles does not name the updated role exactly once`,
        1,
        keys.filter((k) => k === name).length,
      );
  },
);

conformance(
  {
    id: 'cloud.roles.item-shape',
    level: 'MUST',
    title: 'a cloud_roles item naming an existing role definition by role_name is accepted and assigned',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const roleName = await fixtureRoleName(t);
    const def = (await p.roleDefinitions(roleName))[0];
    if (!def) return t.skip(`the directory lists no role definition ${roleName}`, 'cloud.roleNames');
    const scope = await scopeFor(t);
    const name = t.unique('role');
    t.check(
      await t.svc.post(`${cloud.path}/roles/${name}`, {
        body: { cloud_roles: JSON.stringify([{ role_name: roleName, scope }]) },
      }),
      success,
    );
    t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
    const creds = await t.svc.get(`${cloud.path}/creds/${name}`);
    t.check(creds, statusIs(200));
    const { data, lease_id: leaseId } = creds.response.body as { data: { client_id: string }; lease_id: string };
    t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
    await purgeAfterTest(t, data.client_id);
    const sp = await p.spByClientId(data.client_id);
    const assignments = sp ? await p.assignmentsOf(sp.id) : [];
    if (!assignments.some((a) => sameScope(a.scope, scope) && sameDefinition(a.roleDefinitionId, def.id)))
      fail(
        'role-name-assigned',
        `the principal lacks the assignment of role_name ${roleName} on ${scope}`,
        { scope },
        assignments,
      );
  },
);

conformance(
  {
    id: 'cloud.roles.item-shape',
    level: 'MUST',
    title: 'a cloud_roles item naming an existing role definition by role_id is accepted and assigned',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const roleName = await fixtureRoleName(t);
    const def = (await p.roleDefinitions(roleName))[0];
    if (!def) return t.skip(`the directory lists no role definition ${roleName}`, 'cloud.roleNames');
    const scope = await scopeFor(t);
    const name = t.unique('role');
    t.check(
      await t.svc.post(`${cloud.path}/roles/${name}`, {
        body: { cloud_roles: JSON.stringify([{ role_id: def.id, scope }]) },
      }),
      success,
    );
    t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
    const creds = await t.svc.get(`${cloud.path}/creds/${name}`);
    t.check(creds, statusIs(200));
    const { data, lease_id: leaseId } = creds.response.body as { data: { client_id: string }; lease_id: string };
    t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
    await purgeAfterTest(t, data.client_id);
    const sp = await p.spByClientId(data.client_id);
    const assignments = sp ? await p.assignmentsOf(sp.id) : [];
    if (!assignments.some((a) => sameScope(a.scope, scope) && sameDefinition(a.roleDefinitionId, def.id)))
      fail(
        'role-id-assigned',
        `the principal lacks the assignment of role_id ${def.id} on ${scope}`,
        { scope },
        assignments,
      );
  },
);

conformance(
  {
    id: 'cloud.roles.cloud-roles-json-string',
    level: 'MUST',
    title: 'POST /cloud/roles/:name accepts cloud_roles and cloud_groups as escaped JSON array strings',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const name = t.unique('role');
    const body = {
      cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]),
      cloud_groups: JSON.stringify([{ group_name: await fixtureGroupName(t) }]),
    };
    t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body }), success);
    t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
  },
);

/** Writes a role, reads credentials and returns the created application as the directory shows it. */
async function appOfRole(
  t: Parameters<Parameters<typeof conformance>[1]>[0],
  extra: Record<string, unknown>,
  mount = cloud.path,
) {
  const p = probe(t);
  const name = t.unique('role');
  const body = {
    cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]),
    ...extra,
  };
  t.check(await t.svc.post(`${mount}/roles/${name}`, { body }), success);
  t.track(`role ${name}`, () => t.svc.delete(`${mount}/roles/${name}`));
  const creds = await t.svc.get(`${mount}/creds/${name}`);
  t.check(creds, statusIs(200));
  const { data, lease_id: leaseId } = creds.response.body as { data: { client_id: string }; lease_id: string };
  t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
  await purgeAfterTest(t, data.client_id);
  const app = await p.appByClientId(data.client_id);
  if (!app)
    fail(
      'directory-app',
      `no application with the returned client_id ${data.client_id} exists in the directory`,
      'an application',
      undefined,
    );
  return app;
}

const AUDIENCES = ['CloudADMyOrg', 'CloudADMultipleOrgs', 'CloudADandPersonalAccount', 'PersonalAccount'];

conformance(
  {
    id: 'cloud.roles.sign-in-audience',
    level: 'MUST',
    title: 'GET /cloud/creds/:name creates the application with the role sign_in_audience, each of the four values',
  },
  async (t) => {
    requireConfigured(t, cloud);
    for (const audience of AUDIENCES) {
      const app = await appOfRole(t, { sign_in_audience: audience });
      // The directory is read directly, so it shows the target's own value (dialect.names).
      const want = namesOf('svc', t.config).value('cloud', 'sign_in_audience', audience);
      if (app.signInAudience !== want)
        fail(
          'sign-in-audience',
          `the created application has another sign-in audience than the role names (${audience})`,
          want,
          app.signInAudience,
        );
    }
  },
);

conformance(
  {
    id: 'cloud.roles.sign-in-audience',
    level: 'MUST',
    title:
      "a role without sign_in_audience creates applications with the directory's own default, even right after a role with one",
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    // What the directory gives an application nobody chose an audience for.
    const { app: plain } = await p.createApp(t.unique('plain'));
    t.track(`application ${plain.displayName}`, () => p.deleteApp(plain));
    const other = AUDIENCES.find(
      (a) => namesOf('svc', t.config).value('cloud', 'sign_in_audience', a) !== plain.signInAudience,
    )!;
    // On a mount of the test's own, the role written just before is the test's.
    const mount = await configuredCloudMount(t);
    await appOfRole(t, { sign_in_audience: other }, mount);
    const app = await appOfRole(t, {}, mount);
    if (app.signInAudience !== plain.signInAudience)
      fail(
        'sign-in-audience-default',
        "a role without sign_in_audience created an application with another audience than the directory's default",
        plain.signInAudience,
        app.signInAudience,
      );
  },
);

conformance(
  {
    id: 'cloud.roles.tags',
    level: 'MUST',
    title: 'GET /cloud/creds/:name attaches the role comma-separated tags to the application',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const app = await appOfRole(t, { tags: 'team:platform,env:test' });
    const tags = [...app.tags].sort();
    if (tags.join(',') !== 'env:test,team:platform')
      fail('tags', 'the created application does not carry the role tags', ['env:test', 'team:platform'], tags);
  },
);

conformance(
  {
    id: 'cloud.roles.tags',
    level: 'MUST',
    title: 'a role without tags creates applications without tags, even right after a role with tags',
  },
  async (t) => {
    requireConfigured(t, cloud);
    // On a mount of the test's own, the role written just before is the test's.
    const mount = await configuredCloudMount(t);
    await appOfRole(t, { tags: 'team:platform' }, mount);
    const app = await appOfRole(t, {}, mount);
    if (app.tags.length) fail('no-tags', 'a role without tags created an application with tags', [], app.tags);
  },
);
