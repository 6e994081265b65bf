// Credentials that use an application the role keeps: application_object_id (an existing one) and persist_app (one the engine keeps for the role).
import { suite, conformance, type T } from '../../harness/index.js';
import { success } from '../../harness/checks/index.js';
import {
  cloudMount,
  eventually,
  fail,
  fixtureRoleName,
  loginsEventually,
  probe,
  propagation,
  requireConfigured,
  revokeLease,
  scopeFor,
} from './helpers.js';
import { existingApp, readCreds, rolesAndGroups, writeRole } from './leases.js';

const s = suite('cloud');
const cloud = cloudMount(s);

conformance(
  {
    id: 'cloud.creds.app-object-adds-secret',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title:
      'GET /cloud/creds/:name of an application_object_id role returns a client secret of that application, named by its client id',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const app = await existingApp(t, p);
    const role = await writeRole(t, cloud.path, { application_object_id: app.id });
    const c = await readCreds(t, cloud.path, role);
    if (c.clientId !== app.appId)
      fail('client-id', 'credentials of an application_object_id role name another application', app.appId, c.clientId);
    // How the engine gets the secret (one added per lease, say) is not shown: only that it is the application's.
    if (!(await loginsEventually(t, p, c.clientId, c.clientSecret, true)))
      fail('secret-authenticates', 'the returned secret does not authenticate as the application', 200, 'refused');
  },
);

conformance(
  {
    id: 'cloud.creds.app-object-adds-secret',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title:
      'two credentials of an application_object_id role are two secrets of that application: revoking one leaves the other working',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const app = await existingApp(t, p);
    const role = await writeRole(t, cloud.path, { application_object_id: app.id });
    const first = await readCreds(t, cloud.path, role, { track: false });
    const second = await readCreds(t, cloud.path, role);
    // Both work before the revocation: the check after it can tell a removed secret apart.
    for (const c of [first, second])
      if (!(await loginsEventually(t, p, app.appId, c.clientSecret, true)))
        fail('secret-authenticates', 'a returned secret does not authenticate as the application', 200, 'refused');
    t.check(await revokeLease(t, first.leaseId), success);
    // What the end of the first lease does to its own secret is an assumption (lease-end-removes-secret).
    if (!(await loginsEventually(t, p, app.appId, second.clientSecret, true)))
      fail(
        'other-secret',
        'revoking one lease of an application_object_id role made the other lease secret stop working',
        200,
        'refused',
      );
  },
);

conformance(
  {
    id: 'cloud.roles.app-object-ignores-roles',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'GET /cloud/creds/:name of a role with application_object_id ignores cloud_roles',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const app = await existingApp(t, p);
    const scope = await scopeFor(t);
    const role = await writeRole(t, cloud.path, {
      application_object_id: app.id,
      cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope }]),
    });
    await readCreds(t, cloud.path, role);
    // Nobody may hold an assignment on the role's run-unique scope: not the application, not a new principal.
    const assignments = await p.assignmentsAt(scope);
    if (assignments.length)
      fail(
        'no-assignments',
        'cloud_roles were assigned although application_object_id was set',
        [],
        assignments.map((a) => a.principalId),
      );
  },
);

conformance(
  {
    id: 'cloud.creds.persist-app',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'with persist_app the application outlives its leases and lives as long as the role',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const role = await writeRole(t, cloud.path, { ...body, persist_app: true });
    const first = await readCreds(t, cloud.path, role, { track: false });
    const second = await readCreds(t, cloud.path, role);
    if (first.clientId !== second.clientId)
      fail(
        'same-app',
        'two credentials of a persist_app role name different applications',
        first.clientId,
        second.clientId,
      );
    t.check(await revokeLease(t, first.leaseId), success);
    if (!(await p.appByClientId(first.clientId)))
      fail('app-persists', 'revoking one lease deleted the persisted application', 'present', undefined);
    if (!(await loginsEventually(t, p, second.clientId, second.clientSecret, true)))
      fail('other-secret', 'the other lease secret stopped working', 200, 'refused');
    t.check(await revokeLease(t, second.leaseId), success);
    t.check(await t.svc.delete(`${cloud.path}/roles/${role}`), success);
    const gone = await eventually(propagation(t), async () => !(await p.appByClientId(first.clientId)));
    if (!gone)
      fail(
        'app-removed-with-role',
        'the persisted application remains after the role was deleted',
        'removed',
        'present',
      );
  },
);

/**
 * Revokes the lease of `c` (a secret of the application whose client id is `appId`) and expects the
 * secret refused within the propagation bound and the application kept; `keptBy` names the rule
 * that keeps the application, where the test names one.
 */
async function leaseEndRemovesSecret(
  t: T,
  p: ReturnType<typeof probe>,
  appId: string,
  c: { clientSecret: string; leaseId: string },
  keptBy?: string,
): Promise<void> {
  t.check(await revokeLease(t, c.leaseId), success);
  if (!(await loginsEventually(t, p, appId, c.clientSecret, false)))
    fail('secret-removed', 'the secret still authenticates after its lease was revoked', 'refused', 200);
  const kept = async () => {
    if (!(await p.appByClientId(appId)))
      fail('app-kept', "revoking the lease deleted the role's application", 'present', undefined);
  };
  await (keptBy ? t.proving(keptBy, kept) : kept());
}

conformance(
  {
    id: 'cloud.creds.lease-end-removes-secret',
    also: ['cloud.creds.response', 'cloud.creds.app-object-adds-secret'],
    level: 'SHOULD',
    title: 'revoking a lease of an application_object_id role removes its secret and keeps the application',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const app = await existingApp(t, p);
    const role = await writeRole(t, cloud.path, { application_object_id: app.id });
    const c = await readCreds(t, cloud.path, role, { track: false });
    // That the existing application stays is the rule of application_object_id, not the assumption.
    await leaseEndRemovesSecret(t, p, app.appId, c, 'cloud.creds.app-object-adds-secret');
  },
);

conformance(
  {
    id: 'cloud.creds.lease-end-removes-secret',
    also: ['cloud.creds.response', 'cloud.creds.persist-app'],
    level: 'SHOULD',
    title: 'revoking a lease of a persist_app role removes its secret and keeps the application',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const role = await writeRole(t, cloud.path, { ...body, persist_app: true });
    const c = await readCreds(t, cloud.path, role, { track: false });
    // That the application outlives the lease is persist_app's own rule.
    await leaseEndRemovesSecret(t, p, c.clientId, c, 'cloud.creds.persist-app');
  },
);
