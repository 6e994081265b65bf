/**
 * The resource manager half of the simulated cloud: one subscription with its resource groups and
 * the resources created in them (the scopes role assignments may name), role definitions, and role
 * assignments with their scope. Writes are authorized as the real resource manager does: the
 * caller's principal must hold, at the scope or above, a role that allows them.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { DirectoryError, type DirectoryStore } from './store.js';
import { ASSIGNS_ROLES, BUILT_IN_ROLES, WRITES_RESOURCES } from './well-known.js';

export interface RoleDefinition {
  /** `/subscriptions/<sub>/providers/Microsoft.Authorization/roleDefinitions/<name>`. */
  id: string;
  name: string;
  roleName: string;
  description: string;
}

export interface RoleAssignment {
  id: string;
  name: string;
  scope: string;
  roleDefinitionId: string;
  principalId: string;
  createdOn: string;
}

export interface ArmResource {
  id: string;
  name: string;
  type: string;
  location: string;
  tags: Record<string, string>;
}

const lower = (s: string) => s.toLowerCase();
/** Whether `scope` is `parent` or lies below it (ids compare case-insensitively). */
export const within = (scope: string, parent: string) =>
  parent === '/' || lower(scope) === lower(parent) || lower(scope).startsWith(`${lower(parent)}/`);

export class ResourceManager {
  readonly roleDefinitions = new Map<string, RoleDefinition>();
  readonly roleAssignments = new Map<string, RoleAssignment>();
  readonly resourceGroups = new Map<string, ArmResource>();
  readonly resources = new Map<string, ArmResource>();

  constructor(
    private readonly clock: Clock,
    private readonly directory: DirectoryStore,
    readonly subscriptionId: string,
  ) {}

  get subscriptionScope(): string {
    return `/subscriptions/${this.subscriptionId}`;
  }

  // --- role definitions ---------------------------------------------------------------------

  addRoleDefinition(roleName: string, description = ''): RoleDefinition {
    const name = BUILT_IN_ROLES[roleName] ?? randomUUID();
    const def: RoleDefinition = {
      id: `${this.subscriptionScope}/providers/Microsoft.Authorization/roleDefinitions/${name}`,
      name,
      roleName,
      description,
    };
    this.roleDefinitions.set(lower(name), def);
    return def;
  }

  /** By full id (of any scope prefix) or by its name (GUID). */
  roleDefinition(idOrName: string): RoleDefinition | undefined {
    const m = /\/providers\/Microsoft\.Authorization\/roleDefinitions\/([^/]+)$/i.exec(idOrName);
    if (m && !this.prefixKnown(idOrName.slice(0, m.index))) return undefined;
    return this.roleDefinitions.get(lower(m ? m[1]! : idOrName));
  }

  /** A role definition id's scope part: the tenant (empty) or this subscription. */
  private prefixKnown(prefix: string): boolean {
    const p = prefix.replace(/\/+$/, '');
    return p === '' || lower(p) === lower(this.subscriptionScope);
  }

  roleDefinitionByName(roleName: string): RoleDefinition | undefined {
    return [...this.roleDefinitions.values()].find((d) => d.roleName === roleName);
  }

  // --- resource groups and resources ----------------------------------------------------------

  addResourceGroup(name: string, location: string): ArmResource {
    const rg: ArmResource = {
      id: `${this.subscriptionScope}/resourceGroups/${name}`,
      name,
      type: 'Microsoft.Resources/resourceGroups',
      location,
      tags: {},
    };
    this.resourceGroups.set(lower(name), rg);
    return rg;
  }

  resourceGroup(name: string): ArmResource {
    const rg = this.resourceGroups.get(lower(name));
    if (!rg) throw new DirectoryError(404, 'ResourceGroupNotFound', `Resource group '${name}' could not be found.`);
    return rg;
  }

  /** Creates or replaces a resource `/subscriptions/<sub>/resourceGroups/<rg>/providers/<ns>/<type>/<name>`. */
  putResource(caller: string, id: string, body: Record<string, unknown>): { resource: ArmResource; created: boolean } {
    const m = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/([^/]+\/[^/]+)\/([^/]+)$/i.exec(id);
    if (!m)
      throw new DirectoryError(
        400,
        'InvalidResourceId',
        `The resource id '${id}' is not a resource of a resource group.`,
      );
    this.requireSubscription(m[1]!);
    const rg = this.resourceGroup(m[2]!);
    this.authorize(caller, rg.id, WRITES_RESOURCES, `${m[3]}/write`);
    if (typeof body.location !== 'string' || !body.location)
      throw new DirectoryError(400, 'LocationRequired', 'The location property is required for this definition.');
    const created = !this.resources.has(lower(id));
    const resource: ArmResource = {
      id: `${rg.id}/providers/${m[3]}/${m[4]}`,
      name: m[4]!,
      type: m[3]!,
      location: body.location,
      tags: body.tags && typeof body.tags === 'object' ? (body.tags as Record<string, string>) : {},
    };
    this.resources.set(lower(id), resource);
    return { resource, created };
  }

  getResource(id: string): ArmResource | undefined {
    return this.resources.get(lower(id));
  }

  /** Deletes a resource and the role assignments at or below it; false when there was none. */
  deleteResource(caller: string, id: string): boolean {
    const r = this.resources.get(lower(id));
    if (!r) return false;
    this.authorize(caller, r.id, WRITES_RESOURCES, `${r.type}/delete`);
    this.resources.delete(lower(id));
    for (const [k, a] of this.roleAssignments) if (within(a.scope, r.id)) this.roleAssignments.delete(k);
    return true;
  }

  private requireSubscription(sub: string): void {
    if (lower(sub) !== lower(this.subscriptionId))
      throw new DirectoryError(404, 'SubscriptionNotFound', `The subscription '${sub}' could not be found.`);
  }

  /** Throws unless `scope` exists: the subscription, one of its resource groups or a resource in one. */
  requireScope(scope: string): void {
    const m = /^\/subscriptions\/([^/]+)(?:\/resourceGroups\/([^/]+)(\/providers\/.+)?)?$/i.exec(scope);
    if (!m) throw new DirectoryError(400, 'InvalidRoleAssignmentScope', `The scope '${scope}' is not valid.`);
    this.requireSubscription(m[1]!);
    if (m[2]) this.resourceGroup(m[2]);
    if (m[3] && !this.resources.has(lower(scope)))
      throw new DirectoryError(
        404,
        'ResourceNotFound',
        `The Resource '${m[3].replace(/^\/providers\//, '')}' under resource group '${m[2]}' was not found.`,
      );
  }

  // --- role assignments ---------------------------------------------------------------------

  /** The role assignments the principal of `appId` holds at `scope` or above it. */
  private heldAbove(appId: string, scope: string): string[] {
    const sp = this.directory.principalOfApp(appId);
    if (!sp) return [];
    return [...this.roleAssignments.values()]
      .filter((a) => a.principalId === sp.id && within(scope, a.scope))
      .map((a) => this.roleDefinition(a.roleDefinitionId)?.roleName ?? '');
  }

  /** A write the caller's roles at the scope allow, or 403 AuthorizationFailed. */
  authorize(callerAppId: string, scope: string, roles: string[], action: string): void {
    if (this.heldAbove(callerAppId, scope).some((r) => roles.includes(r))) return;
    const sp = this.directory.principalOfApp(callerAppId);
    throw new DirectoryError(
      403,
      'AuthorizationFailed',
      `The client '${callerAppId}' with object id '${sp?.id ?? ''}' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid.`,
    );
  }

  /** A role assignment the caller makes (`null`: the simulation's own seeding, not authorized). */
  createRoleAssignment(
    callerAppId: string | null,
    scope: string,
    name: string,
    input: { roleDefinitionId: string; principalId: string },
  ): RoleAssignment {
    const action = 'Microsoft.Authorization/roleAssignments/write';
    if (callerAppId !== null && (scope === '' || !scope.startsWith('/subscriptions/')))
      this.authorize(callerAppId, scope || '/', ASSIGNS_ROLES, action);
    this.requireScope(scope);
    if (callerAppId !== null) this.authorize(callerAppId, scope, ASSIGNS_ROLES, action);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(name))
      throw new DirectoryError(
        400,
        'InvalidRoleAssignmentId',
        `The role assignment ID '${name}' is not valid. The role assignment ID must be a GUID.`,
      );
    const def = this.roleDefinition(input.roleDefinitionId);
    if (!def)
      throw new DirectoryError(
        400,
        'RoleDefinitionDoesNotExist',
        `The specified role definition with ID '${input.roleDefinitionId}' does not exist.`,
      );
    if (!this.directory.servicePrincipals.has(input.principalId))
      throw new DirectoryError(
        400,
        'PrincipalNotFound',
        `Principal ${input.principalId.replace(/-/g, '')} does not exist in the directory ${this.directory.tenantId}. Check that you have the correct principal ID.`,
      );
    const existing = this.roleAssignments.get(lower(name));
    if (existing) {
      if (
        lower(existing.scope) === lower(scope) &&
        existing.principalId === input.principalId &&
        existing.roleDefinitionId === def.id
      )
        return existing;
      throw new DirectoryError(
        409,
        'RoleAssignmentUpdateNotPermitted',
        'Tenant ID, application ID, principal ID, and scope are not allowed to be updated.',
      );
    }
    if (
      [...this.roleAssignments.values()].some(
        (a) => lower(a.scope) === lower(scope) && a.principalId === input.principalId && a.roleDefinitionId === def.id,
      )
    )
      throw new DirectoryError(409, 'RoleAssignmentExists', 'The role assignment already exists.');
    const assignment: RoleAssignment = {
      id: `${scope}/providers/Microsoft.Authorization/roleAssignments/${name}`,
      name,
      scope,
      roleDefinitionId: def.id,
      principalId: input.principalId,
      createdOn: new Date(this.clock.now()).toISOString(),
    };
    this.roleAssignments.set(lower(name), assignment);
    return assignment;
  }

  /** Deletes by full id; undefined when none had that id (the resource manager then answers 204). */
  deleteRoleAssignment(callerAppId: string, id: string): RoleAssignment | undefined {
    const m = /^(.*)\/providers\/Microsoft\.Authorization\/roleAssignments\/([^/]+)$/i.exec(id);
    if (!m) throw new DirectoryError(400, 'InvalidRoleAssignmentId', `The role assignment ID '${id}' is not valid.`);
    const a = this.roleAssignments.get(lower(m[2]!));
    if (!a || lower(a.scope) !== lower(m[1]!)) return undefined;
    this.authorize(callerAppId, a.scope, ASSIGNS_ROLES, 'Microsoft.Authorization/roleAssignments/delete');
    this.roleAssignments.delete(lower(m[2]!));
    return a;
  }

  /** Assignments seen from `scope`: at it, above it and (unless `atScope`) below it. */
  assignmentsFrom(scope: string, opts: { atScope?: boolean; principalId?: string }): RoleAssignment[] {
    return [...this.roleAssignments.values()].filter(
      (a) =>
        (within(scope, a.scope) || (!opts.atScope && within(a.scope, scope))) &&
        (!opts.principalId || lower(a.principalId) === lower(opts.principalId)),
    );
  }
}

/** A role definition as the resource manager shows it. */
export function definitionView(d: RoleDefinition): Record<string, unknown> {
  return {
    id: d.id,
    name: d.name,
    type: 'Microsoft.Authorization/roleDefinitions',
    properties: {
      roleName: d.roleName,
      type: 'BuiltInRole',
      description: d.description,
      assignableScopes: ['/'],
      permissions: [{ actions: ['*'], notActions: [], dataActions: [], notDataActions: [] }],
    },
  };
}

/** A role assignment as the resource manager shows it. */
export function assignmentView(a: RoleAssignment): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    type: 'Microsoft.Authorization/roleAssignments',
    properties: {
      roleDefinitionId: a.roleDefinitionId,
      principalId: a.principalId,
      principalType: 'ServicePrincipal',
      scope: a.scope,
      condition: null,
      conditionVersion: null,
      createdOn: a.createdOn,
      updatedOn: a.createdOn,
      createdBy: null,
      updatedBy: null,
      delegatedManagedIdentityResourceId: null,
      description: null,
    },
  };
}

/** A resource (or resource group) as the resource manager shows it. */
export function resourceView(r: ArmResource): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    location: r.location,
    tags: r.tags,
    properties: { provisioningState: 'Succeeded' },
  };
}
