/**
 * The faults of the cloud engine's credentials and their leases: what credentials create in the
 * directory, what they answer, and what a lease's end removes (and leaves), across the leases and
 * roles of one engine. Each breaks one catalogued rule (`breaks`) and names the statements it
 * contradicts.
 */
import { switchesOf } from '../../../../switches.js';
import type { CloudRules } from '../rules.js';

const { fault } = switchesOf<CloudRules>(['cloud']);
const S = (slug: string) => `doc.core.cloud.${slug}`;

/** How long a stale cache serves what was there before a change (ms). */
const STALE_MS = 2000;

export const credentialFaults = [
  fault('cloud.creds-drops-client-secret', {
    breaks: 'cloud.creds.response',
    statements: [S('creds-response-client-secret'), S('endpoint-creds')],
    description: 'GET /cloud/creds/:name answers data.client_id but no data.client_secret (it goes to data.password).',
    replace: () => ({ credentialsData: (clientId, secret) => ({ client_id: clientId, password: secret }) }),
  }),
  fault('cloud.creds-skip-assignments', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-roles-assigned')],
    description: 'Credentials create the principal without its role assignments.',
    replace: () => ({ assignmentsOf: () => [] }),
  }),
  fault('cloud.creds-skip-groups', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-groups-joined')],
    description: 'Credentials create the principal without its group memberships.',
    replace: () => ({ groupsOf: () => [] }),
  }),
  fault('cloud.creds-wrong-secret', {
    breaks: 'cloud.creds.secret-authenticates',
    statements: [S('creates-principal')],
    description: 'The returned client_secret is not the one registered in the directory.',
    replace: () => ({ returnedSecret: (secret) => `${secret}x` }),
  }),
  fault('cloud.revoke-keeps-principal', {
    breaks: 'cloud.creds.revoke-removes',
    statements: [S('role-persist-app-default')],
    description: 'Lease end leaves the application and service principal in place.',
    replace: () => ({ revokeRemovesPrincipal: false }),
  }),
  fault('cloud.revoke-keeps-assignments', {
    breaks: 'cloud.creds.revoke-removes',
    statements: [S('role-persist-app-default')],
    description: 'Lease end leaves the role assignments and group memberships in place.',
    replace: () => ({ revokeRemovesAssignments: false }),
  }),
  fault('cloud.app-object-uses-roles', {
    breaks: 'cloud.roles.app-object-ignores-roles',
    statements: [S('role-app-object-ignores-roles')],
    description:
      "With application_object_id the engine still assigns cloud_roles, to the existing application's principal.",
    // A role with persist_app keeps its own application; the bug concerns an existing one.
    replace: () => ({ staticAssignments: (role) => (role.managed ? [] : role.cloud_roles) }),
  }),
  fault('cloud.app-object-client-id-is-object-id', {
    // The client_id of a credential names its application (cloud.creds.response, as for a dynamic principal).
    breaks: 'cloud.creds.response',
    statements: [S('creds-response'), S('role-app-object-used')],
    description:
      "Credentials of an application_object_id role name the application's object id as client_id instead of its client id.",
    replace: (rules) => ({
      staticClientId: (role) => (role.managed ? rules.staticClientId(role) : role.application_object_id),
    }),
  }),
  fault('cloud.app-object-revoke-keeps-secret', {
    // An assumption of the suite (the documents do not say what a lease's end does to that secret).
    breaks: 'cloud.creds.lease-end-removes-secret',
    description: 'Lease end of an application_object_id or persist_app credential leaves its secret valid.',
    replace: () => ({ revokeRemovesAddedSecret: false }),
  }),
  fault('cloud.persist-app-ignored', {
    breaks: 'cloud.creds.persist-app',
    statements: [S('role-persist-app')],
    description: 'persist_app is ignored; each credential gets a new application.',
    replace: () => ({ persistApp: () => false }),
  }),
  fault('cloud.permanently-delete-ignored', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete')],
    description: 'permanently_delete is ignored; applications stay in deleted items.',
    replace: () => ({ permanentDelete: () => false }),
  }),
  // --- several items, the response and its lease ---
  fault('cloud.creds-first-role-only', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-roles-assigned')],
    description: 'Only the first cloud_roles item of a role is assigned to the created principal.',
    replace: (rules) => ({ assignmentsOf: (role) => rules.assignmentsOf(role).slice(0, 1) }),
  }),
  fault('cloud.creds-first-group-only', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-groups-joined')],
    description: 'The created principal joins only the first cloud_groups item of a role.',
    replace: (rules) => ({ groupsOf: (role) => rules.groupsOf(role).slice(0, 1) }),
  }),
  fault('cloud.creds-drops-client-id', {
    breaks: 'cloud.creds.response',
    statements: [S('creds-response')],
    description:
      'GET /cloud/creds/:name answers data.client_secret but names the client as data.app_id, not data.client_id.',
    replace: (rules) => ({
      credentialsData: (clientId, secret) => {
        const { client_id: _dropped, ...rest } = rules.credentialsData(clientId, secret);
        return { app_id: clientId, ...rest };
      },
    }),
  }),
  fault('cloud.creds-client-id-is-object-id', {
    breaks: 'cloud.creds.response',
    statements: [S('creds-response'), S('creates-principal')],
    description:
      "Credentials of a dynamic principal name the application's object id as client_id instead of its client id.",
    replace: () => ({ dynamicClientId: (p) => p.appObjectId }),
  }),
  fault('cloud.creds-no-lease', {
    breaks: 'cloud.creds.response',
    statements: [S('endpoint-creds'), S('role-ttl')],
    description:
      'GET /cloud/creds/:name answers without a lease (lease_id empty, lease_duration 0): nothing ever removes what it created.',
    replace: () => ({ credentialsLease: () => undefined }),
  }),
  fault('cloud.creds-stale-role-after-update', {
    breaks: 'cloud.roles.write-list',
    statements: [S('endpoint-role-write')],
    description: 'For 2 seconds after a role update, credentials for it follow the role as it was before the update.',
    replace: (rules) => ({
      roleForCredentials: (current, previous, since) =>
        previous && since < STALE_MS ? previous : rules.roleForCredentials(current, previous, since),
    }),
  }),
  fault('cloud.app-object-creates-extra-app', {
    // What shows the extra principal is the role's cloud_roles it holds (a stray application
    // without any cannot be told apart from another client's in a shared directory).
    breaks: 'cloud.roles.app-object-ignores-roles',
    statements: [S('role-app-object-used'), S('role-app-object-ignores-roles')],
    description:
      "Credentials of an application_object_id role add a secret to that application but also create a dynamic application and principal, holding the role's cloud_roles, left behind.",
    replace: () => ({ staticAlsoCreatesPrincipal: true }),
  }),
  // --- state across leases and roles ---
  fault('cloud.revoke-removes-latest-principal', {
    breaks: 'cloud.creds.revoke-removes',
    statements: [S('role-persist-app-default')],
    description:
      "A dynamic lease's end removes the principal of the role's latest credential instead of its own: with two leases, revoking the first removes the second's.",
    replace: () => ({ principalToRemove: (_own, latest) => latest }),
  }),
  fault('cloud.app-object-revoke-removes-newest-secret', {
    breaks: 'cloud.creds.app-object-adds-secret',
    statements: [S('role-app-object-used')],
    description:
      "The end of a lease of an application_object_id role removes the newest secret the engine added to the application, not its own: another live lease's secret stops working.",
    replace: (rules) => ({
      addedSecretToRemove: (own, added, persisted) =>
        persisted ? rules.addedSecretToRemove(own, added, persisted) : (added.at(-1) ?? own),
    }),
  }),
  fault('cloud.persist-app-revoke-removes-newest-secret', {
    breaks: 'cloud.creds.persist-app',
    statements: [S('role-persist-app')],
    description:
      "The end of a lease of a persist_app role removes the newest secret the engine added to the role's application, not its own: another live lease's secret stops working.",
    replace: (rules) => ({
      addedSecretToRemove: (own, added, persisted) =>
        persisted ? (added.at(-1) ?? own) : rules.addedSecretToRemove(own, added, persisted),
    }),
  }),
  fault('cloud.persist-app-lease-end-removes-principal', {
    breaks: 'cloud.creds.persist-app',
    statements: [S('role-persist-app-principal')],
    description:
      "The end of a persist_app credential's lease deletes the role's service principal (the application stays).",
    replace: () => ({ persistedLeaseEndRemoves: 'principal' }),
  }),
  fault('cloud.persist-app-lease-end-removes-app', {
    breaks: 'cloud.creds.persist-app',
    statements: [S('role-persist-app')],
    description:
      "The end of a persist_app credential's lease deletes the role's application and principal, as for a dynamic one.",
    replace: () => ({ persistedLeaseEndRemoves: 'application' }),
  }),
  fault('cloud.persist-app-role-delete-keeps-app', {
    breaks: 'cloud.creds.persist-app',
    statements: [S('role-persist-app-lifetime')],
    description: 'Deleting a persist_app role leaves its application and principal in the directory.',
    replace: () => ({ roleDeleteRemovesApp: false }),
  }),
  fault('cloud.permanently-delete-application-only', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete-principals')],
    description:
      'permanently_delete purges the deleted application but leaves the service principal among the deleted items.',
    replace: (rules) => ({
      permanentDelete: (permanently, kind) => kind === 'application' && rules.permanentDelete(permanently, kind),
    }),
  }),
  fault('cloud.permanently-delete-principal-only', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete')],
    description:
      'permanently_delete purges the deleted service principal but leaves the application among the deleted items.',
    replace: (rules) => ({
      permanentDelete: (permanently, kind) => kind === 'servicePrincipal' && rules.permanentDelete(permanently, kind),
    }),
  }),
  fault('cloud.permanently-delete-always', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete-default')],
    description:
      'Every lease end purges the application and principal, whatever permanently_delete says: without it they are not kept among the deleted items.',
    replace: () => ({ permanentDelete: () => true }),
  }),
];
