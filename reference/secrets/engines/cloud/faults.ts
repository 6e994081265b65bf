import { faultsOf } from '../../../faults.js';

const f = faultsOf(['cloud']);

export const faults = [
  f(
    'cloud.config-read-shows-secret',
    'cloud.config.client-secret-write-only',
    'GET /cloud/config includes client_secret.',
  ),
  f('cloud.config-read-drops-client-id', 'cloud.config.write-read', 'GET /cloud/config omits client_id.'),
  f(
    'cloud.env-ignored',
    'cloud.config.env-override',
    'CLOUD_* environment variables do not override the stored configuration.',
  ),
  f(
    'cloud.ids-not-required',
    'cloud.config.ids-required',
    'A configuration without subscription_id (and no env var) is accepted and used.',
  ),
  f(
    'cloud.root-password-ttl-default-wrong',
    'cloud.config.root-password-ttl-default',
    'root_password_ttl defaults to 90 days instead of 182.',
  ),
  f(
    'cloud.config-delete-kept',
    'cloud.config.delete',
    'DELETE /cloud/config answers success but keeps the configuration.',
  ),
  f(
    'cloud.rotate-root-keeps-old',
    'cloud.rotate-root.replaces-secret',
    'rotate-root adds a secret but leaves the old one valid.',
  ),
  f(
    'cloud.rotate-root-returns-secret',
    'cloud.rotate-root.secret-not-returned',
    'rotate-root returns the new client secret in data.',
  ),
  f(
    'cloud.rotate-root-ttl-ignored',
    'cloud.rotate-root.expiry',
    'rotate-root ignores root_password_ttl and uses a two-year expiry.',
  ),
  f(
    'cloud.roles-json-unchecked',
    'cloud.roles.cloud-roles-json-string',
    'cloud_roles that is not a JSON array is accepted (treated as empty).',
  ),
  f(
    'cloud.roles-item-shape-unchecked',
    'cloud.roles.item-shape',
    'cloud_roles items without scope are accepted and silently assigned at the whole subscription.',
  ),
  f(
    'cloud.roles-existence-unchecked',
    'cloud.roles.resources-must-exist',
    'Nonexistent role definitions and groups are accepted at role write.',
  ),
  f(
    'cloud.roles-empty-accepted',
    'cloud.roles.app-or-roles-required',
    'A role with neither application_object_id nor cloud_roles is accepted.',
  ),
  f(
    'cloud.app-object-uses-roles',
    'cloud.roles.app-object-ignores-roles',
    'With application_object_id the engine still creates a new application with cloud_roles.',
  ),
  f(
    'cloud.app-object-permanently-delete-accepted',
    'cloud.roles.app-object-forbids-permanently-delete',
    'permanently_delete with application_object_id is accepted.',
  ),
  f(
    'cloud.sign-in-audience-unchecked',
    'cloud.roles.sign-in-audience',
    'sign_in_audience is neither validated nor set on the application.',
  ),
  f('cloud.tags-dropped', 'cloud.roles.tags', 'tags are not attached to the created application.'),
  f('cloud.ttl-ignored', 'cloud.roles.ttl', 'The role ttl is ignored; leases get the engine default.'),
  f('cloud.max-ttl-ignored', 'cloud.roles.max-ttl', 'The role max_ttl does not cap the lease.'),
  f(
    'cloud.creds-skip-assignments',
    'cloud.creds.principal-created',
    'Credentials create the principal without its role assignments.',
  ),
  f(
    'cloud.creds-skip-groups',
    'cloud.creds.principal-created',
    'Credentials create the principal without its group memberships.',
  ),
  f(
    'cloud.creds-wrong-secret',
    'cloud.creds.secret-authenticates',
    'The returned client_secret is not the one registered in the directory.',
  ),
  f(
    'cloud.revoke-keeps-principal',
    'cloud.creds.revoke-removes',
    'Lease end leaves the application and service principal in place.',
  ),
  f(
    'cloud.revoke-keeps-assignments',
    'cloud.creds.revoke-removes',
    'Lease end leaves the role assignments and group memberships in place.',
  ),
  f(
    'cloud.app-object-revoke-keeps-secret',
    'cloud.creds.app-object-adds-secret',
    'Lease end of an application_object_id credential leaves its secret valid.',
  ),
  f(
    'cloud.persist-app-ignored',
    'cloud.creds.persist-app',
    'persist_app is ignored; each credential gets a new application.',
  ),
  f(
    'cloud.permanently-delete-ignored',
    'cloud.creds.permanently-delete',
    'permanently_delete is ignored; applications stay in deleted items.',
  ),
];
