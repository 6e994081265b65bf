import { suite, conformance, namesOf } from '../../harness/index.js';
import { bodyAt, statusBetween, statusIs, success, errorMessage } from '../../harness/checks/index.js';
import { runCases } from '../lib/cases.js';
import {
  cloudConfig,
  cloudMount,
  fail,
  fixtureGroupName,
  fixtureRoleName,
  probe,
  requireConfigured,
  revokeLease,
  scopeFor,
} from './helpers.js';

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
      const vars: Record<string, string> = { scope: scopeFor(t), missing: `svc-missing-${t.unique('x')}` };
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
        const leaseId = (creds.response.body as { lease_id?: string } | undefined)?.lease_id;
        if (leaseId) t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId));
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

conformance(
  {
    id: 'cloud.roles.write-list',
    level: 'MUST',
    title: 'POST /cloud/roles/:name creates a role that LIST /cloud/roles returns in data.keys',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const name = t.unique('role');
    const roleName = await fixtureRoleName(t);
    const body = { cloud_roles: JSON.stringify([{ role_name: roleName, scope: scopeFor(t) }]) };
    t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body }), success);
    t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
    const list = await t.svc.list(`${cloud.path}/roles`);
    t.check(
      list,
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(name), `includes ${name}`),
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
      cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: scopeFor(t) }]),
      cloud_groups: JSON.stringify([{ group_name: await fixtureGroupName(t) }]),
    };
    t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body }), success);
    t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
  },
);

/** Writes a role, reads credentials and returns the created application as the directory shows it. */
async function appOfRole(t: Parameters<Parameters<typeof conformance>[1]>[0], extra: Record<string, unknown>) {
  const p = probe(t);
  const name = t.unique('role');
  const body = { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: scopeFor(t) }]), ...extra };
  t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body }), success);
  t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
  const creds = await t.svc.get(`${cloud.path}/creds/${name}`);
  t.check(creds, statusIs(200));
  const { data, lease_id: leaseId } = creds.response.body as { data: { client_id: string }; lease_id: string };
  t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
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

conformance(
  {
    id: 'cloud.roles.sign-in-audience',
    level: 'MUST',
    title: 'GET /cloud/creds/:name creates the application with the role sign_in_audience',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const app = await appOfRole(t, { sign_in_audience: 'CloudADMultipleOrgs' });
    // The directory is read directly, so it shows the target's own value (dialect.names).
    const want = namesOf('svc', t.config).value('cloud', 'sign_in_audience', 'CloudADMultipleOrgs');
    if (app.signInAudience !== want)
      fail(
        'sign-in-audience',
        'the created application has another sign-in audience than the role names',
        want,
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
