/**
 * State of the simulated cloud directory: applications with password credentials, service
 * principals, role definitions and assignments on scopes, groups and their members, deleted
 * items, and access tokens. Secrets are kept only as SHA-256 digests so a dump of the state
 * (or a log line) never shows one.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { type DirectoryRules, directoryRules } from './rules.js';

export interface PasswordCredential {
  keyId: string;
  displayName: string;
  startDateTime: string;
  endDateTime: string;
  /** First three characters of the secret, as the real directory shows. */
  hint: string;
  digest: Buffer;
}

export interface Application {
  id: string;
  appId: string;
  displayName: string;
  signInAudience: string;
  tags: string[];
  createdDateTime: string;
  passwordCredentials: PasswordCredential[];
  /** Simulation only: may manage the directory (the engine's root application). */
  directoryAdmin: boolean;
}

export interface ServicePrincipal {
  id: string;
  appId: string;
  displayName: string;
  createdDateTime: string;
}

export interface RoleDefinition {
  /** Full id: `/subscriptions/<sub>/providers/Microsoft.Authorization/roleDefinitions/<name>`. */
  id: string;
  name: string;
  roleName: string;
  description: string;
}

export interface RoleAssignment {
  id: string;
  name: string;
  roleDefinitionId: string;
  principalId: string;
  scope: string;
  createdOn: string;
}

export interface Group {
  id: string;
  displayName: string;
  members: Set<string>;
}

export interface DeletedItem {
  id: string;
  kind: 'application' | 'servicePrincipal';
  deletedDateTime: string;
  object: Application | ServicePrincipal;
}

/** An error the directory answers with (Graph-style `{error: {code, message}}`). */
export class DirectoryError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const SIGN_IN_AUDIENCES = [
  'CloudADMyOrg',
  'CloudADMultipleOrgs',
  'CloudADandPersonalAccount',
  'PersonalAccount',
] as const;

const digestOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

export class DirectoryStore {
  readonly applications = new Map<string, Application>();
  readonly servicePrincipals = new Map<string, ServicePrincipal>();
  readonly roleDefinitions = new Map<string, RoleDefinition>();
  readonly roleAssignments = new Map<string, RoleAssignment>();
  readonly groups = new Map<string, Group>();
  readonly deletedItems = new Map<string, DeletedItem>();
  private readonly accessTokens = new Map<string, { appId: string; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    readonly tenantId: string,
    readonly subscriptionId: string,
    private readonly rules: DirectoryRules = directoryRules,
  ) {}

  private iso(ms = this.clock.now()): string {
    return new Date(ms).toISOString();
  }

  // --- applications and secrets ------------------------------------------------------------

  createApplication(input: {
    displayName: string;
    signInAudience?: string;
    tags?: string[];
    directoryAdmin?: boolean;
    appId?: string;
  }): Application {
    const audience = input.signInAudience || 'CloudADMyOrg';
    if (!(SIGN_IN_AUDIENCES as readonly string[]).includes(audience)) {
      throw new DirectoryError(
        400,
        'Request_BadRequest',
        `signInAudience must be one of ${SIGN_IN_AUDIENCES.join(', ')}`,
      );
    }
    const app: Application = {
      id: randomUUID(),
      appId: input.appId ?? this.rules.newClientId(),
      displayName: input.displayName,
      signInAudience: audience,
      tags: [...(input.tags ?? [])],
      createdDateTime: this.iso(),
      passwordCredentials: [],
      directoryAdmin: input.directoryAdmin ?? false,
    };
    this.applications.set(app.id, app);
    return app;
  }

  application(id: string): Application {
    const app = this.applications.get(id);
    if (!app) throw new DirectoryError(404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
    return app;
  }

  /** Adds a password credential; the secret text is returned once and never stored. */
  addPassword(
    appObjectId: string,
    input: { displayName?: string; endDateTime?: string },
    chosenSecret?: string,
  ): { credential: PasswordCredential; secretText: string } {
    const app = this.application(appObjectId);
    const now = this.clock.now();
    let end = now + 2 * 365 * 86400_000;
    if (input.endDateTime !== undefined) {
      end = Date.parse(input.endDateTime);
      if (!Number.isFinite(end)) throw new DirectoryError(400, 'Request_BadRequest', 'endDateTime is not a valid date');
      if (end <= now) throw new DirectoryError(400, 'Request_BadRequest', 'endDateTime must be in the future');
    }
    // A chosen secret is for seeding only (reproducible restarts); the API always generates one.
    const secretText = chosenSecret ?? this.rules.newSecretText();
    const credential: PasswordCredential = {
      keyId: randomUUID(),
      displayName: input.displayName ?? '',
      startDateTime: this.iso(now),
      endDateTime: this.iso(end),
      hint: secretText.slice(0, 3),
      digest: digestOf(secretText),
    };
    app.passwordCredentials.push(credential);
    return { credential, secretText };
  }

  removePassword(appObjectId: string, keyId: string): void {
    const app = this.application(appObjectId);
    const before = app.passwordCredentials.length;
    app.passwordCredentials = app.passwordCredentials.filter((c) => c.keyId !== keyId);
    if (app.passwordCredentials.length === before) {
      throw new DirectoryError(404, 'Request_ResourceNotFound', `No password credential with keyId '${keyId}'.`);
    }
  }

  /** Soft delete: the application moves to deleted items; `purgeDeleted` removes it for good. */
  deleteApplication(id: string): void {
    const app = this.application(id);
    this.applications.delete(id);
    this.deletedItems.set(id, { id, kind: 'application', deletedDateTime: this.iso(), object: app });
  }

  // --- service principals -------------------------------------------------------------------

  createServicePrincipal(appId: string): ServicePrincipal {
    const app = [...this.applications.values()].find((a) => a.appId === appId);
    if (!app) throw new DirectoryError(400, 'Request_BadRequest', `No application with appId '${appId}'.`);
    if ([...this.servicePrincipals.values()].some((s) => s.appId === appId)) {
      throw new DirectoryError(
        409,
        'Request_MultipleObjectsWithSameKeyValue',
        'The application already has a service principal.',
      );
    }
    const sp: ServicePrincipal = { id: randomUUID(), appId, displayName: app.displayName, createdDateTime: this.iso() };
    this.servicePrincipals.set(sp.id, sp);
    return sp;
  }

  servicePrincipal(id: string): ServicePrincipal {
    const sp = this.servicePrincipals.get(id);
    if (!sp) throw new DirectoryError(404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
    return sp;
  }

  deleteServicePrincipal(id: string): void {
    const sp = this.servicePrincipal(id);
    this.servicePrincipals.delete(id);
    this.deletedItems.set(id, { id, kind: 'servicePrincipal', deletedDateTime: this.iso(), object: sp });
  }

  purgeDeleted(id: string): void {
    if (!this.deletedItems.delete(id))
      throw new DirectoryError(404, 'Request_ResourceNotFound', `Deleted item '${id}' does not exist.`);
  }

  // --- roles and assignments ----------------------------------------------------------------

  addRoleDefinition(roleName: string, description = ''): RoleDefinition {
    const name = randomUUID();
    const def: RoleDefinition = {
      id: `/subscriptions/${this.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${name}`,
      name,
      roleName,
      description,
    };
    this.roleDefinitions.set(def.id, def);
    return def;
  }

  /** By full id, or by the trailing name (GUID) alone. */
  roleDefinition(idOrName: string): RoleDefinition | undefined {
    return this.roleDefinitions.get(idOrName) ?? [...this.roleDefinitions.values()].find((d) => d.name === idOrName);
  }

  createRoleAssignment(
    name: string,
    input: { roleDefinitionId: string; principalId: string; scope: string },
  ): RoleAssignment {
    if (this.roleAssignments.has(name))
      throw new DirectoryError(409, 'RoleAssignmentExists', 'The role assignment already exists.');
    const def = this.roleDefinition(input.roleDefinitionId);
    if (!def)
      throw new DirectoryError(404, 'RoleDefinitionDoesNotExist', 'The specified role definition does not exist.');
    if (!this.servicePrincipals.has(input.principalId))
      throw new DirectoryError(
        400,
        'PrincipalNotFound',
        `Principal ${input.principalId} does not exist in the directory.`,
      );
    if (typeof input.scope !== 'string' || !this.knowsScope(input.scope)) {
      throw new DirectoryError(
        404,
        'SubscriptionNotFound',
        `The scope '${String(input.scope)}' is not under a known subscription.`,
      );
    }
    const assignment: RoleAssignment = {
      id: `${input.scope}/providers/Microsoft.Authorization/roleAssignments/${name}`,
      name,
      roleDefinitionId: def.id,
      principalId: input.principalId,
      scope: input.scope,
      createdOn: this.iso(),
    };
    this.roleAssignments.set(name, assignment);
    return assignment;
  }

  /** Whether a scope lies in the directory's subscription (the subscription itself or below it). */
  knowsScope(scope: string): boolean {
    const subscriptionScope = `/subscriptions/${this.subscriptionId}`;
    return scope === subscriptionScope || scope.startsWith(`${subscriptionScope}/`);
  }

  deleteRoleAssignment(name: string): RoleAssignment {
    const a = this.roleAssignments.get(name);
    if (!a) throw new DirectoryError(404, 'RoleAssignmentNotFound', `Role assignment '${name}' does not exist.`);
    this.roleAssignments.delete(name);
    return a;
  }

  // --- groups -------------------------------------------------------------------------------

  addGroup(displayName: string): Group {
    const g: Group = { id: randomUUID(), displayName, members: new Set() };
    this.groups.set(g.id, g);
    return g;
  }

  group(id: string): Group {
    const g = this.groups.get(id);
    if (!g) throw new DirectoryError(404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
    return g;
  }

  addMember(groupId: string, memberId: string): void {
    const g = this.group(groupId);
    if (!this.servicePrincipals.has(memberId))
      throw new DirectoryError(404, 'Request_ResourceNotFound', `Resource '${memberId}' does not exist.`);
    if (g.members.has(memberId))
      throw new DirectoryError(400, 'Request_BadRequest', 'One or more added object references already exist.');
    g.members.add(memberId);
  }

  removeMember(groupId: string, memberId: string): void {
    const g = this.group(groupId);
    if (!g.members.delete(memberId))
      throw new DirectoryError(404, 'Request_ResourceNotFound', `'${memberId}' is not a member.`);
  }

  // --- authentication -----------------------------------------------------------------------

  /** Client credentials grant: the app must exist, have a principal and an unexpired matching secret. */
  authenticate(tenantId: string, clientId: string, clientSecret: string): { accessToken: string; expiresIn: number } {
    if (tenantId !== this.tenantId) throw new DirectoryError(400, 'invalid_tenant', `Tenant '${tenantId}' not found.`);
    const app = [...this.applications.values()].find((a) => a.appId === clientId);
    const sp = app && [...this.servicePrincipals.values()].find((s) => s.appId === clientId);
    if (!app || !sp)
      throw new DirectoryError(
        400,
        'unauthorized_client',
        `Application with identifier '${clientId}' was not found in the directory.`,
      );
    const now = this.clock.now();
    const given = digestOf(clientSecret);
    const match = app.passwordCredentials.find(
      (c) => timingSafeEqual(c.digest, given) && Date.parse(c.endDateTime) > now,
    );
    if (!match) throw new DirectoryError(401, 'invalid_client', 'Invalid client secret provided.');
    const accessToken = randomBytes(32).toString('base64url');
    const expiresIn = 3600;
    this.accessTokens.set(accessToken, { appId: clientId, expiresAt: now + expiresIn * 1000 });
    return { accessToken, expiresIn };
  }

  /** The application a bearer token was issued to, or undefined when unknown or expired. */
  caller(accessToken: string): Application | undefined {
    const entry = this.accessTokens.get(accessToken);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.accessTokens.delete(accessToken);
      return undefined;
    }
    return [...this.applications.values()].find((a) => a.appId === entry.appId);
  }
}

/** What the API shows of an application: credentials without their digests. */
export function applicationView(app: Application): Record<string, unknown> {
  return {
    id: app.id,
    appId: app.appId,
    displayName: app.displayName,
    signInAudience: app.signInAudience,
    tags: app.tags,
    createdDateTime: app.createdDateTime,
    passwordCredentials: app.passwordCredentials.map(({ digest: _digest, ...rest }) => rest),
  };
}
