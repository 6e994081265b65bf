// size: the directory's objects with the rules real clients meet (propagation, soft deletion, app-role rights, one token per resource), kept together; views.ts shows them
/**
 * The directory half of the simulated cloud: applications and service principals with their
 * password credentials, the app roles granted to principals (application permissions), groups and
 * their members, deleted items (soft deletion; purged for good on request), and the access tokens
 * of the token endpoint, one per resource. Secrets are kept only as SHA-256 digests so a dump of
 * the state (or a log line) never shows one. The resource manager's half is resources.ts.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { type DirectoryRules, directoryRules } from './rules.js';
import { GRAPH_APP_ID, GRAPH_APP_ROLES, GRAPH_NEEDS, type GraphNeed, type Resource } from './well-known.js';

export interface PasswordCredential {
  keyId: string;
  displayName: string;
  startDateTime: string;
  endDateTime: string;
  /** First three characters of the secret, as the real directory shows. */
  hint: string;
  digest: Buffer;
  /** When the secret starts to authenticate (the directory's propagation of a new secret). */
  usableFrom: number;
}

export interface Application {
  id: string;
  appId: string;
  displayName: string;
  signInAudience: string;
  tags: string[];
  createdDateTime: string;
  passwordCredentials: PasswordCredential[];
}

export interface AppRole {
  id: string;
  value: string;
  displayName: string;
  description: string;
  allowedMemberTypes: string[];
  isEnabled: boolean;
}

export interface ServicePrincipal {
  id: string;
  appId: string;
  displayName: string;
  createdDateTime: string;
  servicePrincipalType: string;
  passwordCredentials: PasswordCredential[];
  appRoles: AppRole[];
}

export interface AppRoleAssignment {
  id: string;
  principalId: string;
  principalDisplayName: string;
  principalType: string;
  resourceId: string;
  resourceDisplayName: string;
  appRoleId: string;
  createdDateTime: string;
}

export interface Group {
  id: string;
  displayName: string;
  createdDateTime: string;
  members: Set<string>;
}

export interface DeletedItem {
  id: string;
  kind: 'application' | 'servicePrincipal';
  deletedDateTime: string;
  object: Application | ServicePrincipal;
}

/** An error the directory answers with: its status, code and message (each API words its body). */
export class DirectoryError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const digestOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();
const notFound = (id: string) =>
  new DirectoryError(
    404,
    'Request_ResourceNotFound',
    `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
  );

export interface DirectoryOptions {
  /** The sign-in audiences applications may have; the first is the default. */
  audiences: readonly string[];
}

export class DirectoryStore {
  readonly applications = new Map<string, Application>();
  readonly servicePrincipals = new Map<string, ServicePrincipal>();
  readonly appRoleAssignments = new Map<string, AppRoleAssignment>();
  readonly groups = new Map<string, Group>();
  readonly deletedItems = new Map<string, DeletedItem>();
  private readonly accessTokens = new Map<string, { appId: string; resource: Resource; expiresAt: number }>();
  /** Microsoft Graph's own service principal: the resource of the app roles that give rights. */
  readonly graph: ServicePrincipal;

  constructor(
    private readonly clock: Clock,
    readonly tenantId: string,
    private readonly options: DirectoryOptions,
    private readonly rules: DirectoryRules = directoryRules,
  ) {
    const graphApp = this.createApplication({ displayName: 'Microsoft Graph', appId: GRAPH_APP_ID });
    this.graph = this.createServicePrincipal(graphApp.appId);
    this.graph.appRoles = Object.entries(GRAPH_APP_ROLES).map(([value, id]) => ({
      id,
      value,
      displayName: value,
      description: `Application permission ${value}`,
      allowedMemberTypes: ['Application'],
      isEnabled: true,
    }));
  }

  iso(ms = this.clock.now()): string {
    return new Date(ms).toISOString();
  }

  get audiences(): readonly string[] {
    return this.options.audiences;
  }

  // --- applications and secrets ------------------------------------------------------------

  createApplication(input: {
    displayName: string;
    signInAudience?: string;
    tags?: string[];
    appId?: string;
  }): Application {
    const audience = input.signInAudience || this.options.audiences[0]!;
    if (!this.options.audiences.includes(audience)) {
      throw new DirectoryError(
        400,
        'Request_BadRequest',
        `Property 'signInAudience' has an invalid value; it must be one of ${this.options.audiences.join(', ')}.`,
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
    };
    this.applications.set(app.id, app);
    return app;
  }

  application(id: string): Application {
    const app = this.applications.get(id);
    if (!app) throw notFound(id);
    return app;
  }

  applicationByAppId(appId: string): Application | undefined {
    return [...this.applications.values()].find((a) => a.appId === appId);
  }

  /**
   * Adds a password credential to an application or service principal; the secret text is
   * returned once and never stored. `seed` is the simulation's own seeding (a secret it may choose,
   * for reproducible restarts), usable at once as if added long before.
   */
  addPassword(
    owner: { passwordCredentials: PasswordCredential[] },
    input: { displayName?: string; startDateTime?: string; endDateTime?: string },
    seed?: { secret?: string },
  ): { credential: PasswordCredential; secretText: string } {
    const now = this.clock.now();
    const date = (field: 'startDateTime' | 'endDateTime', fallback: number) => {
      const raw = input[field];
      if (raw === undefined || raw === null) return fallback;
      const ms = Date.parse(raw);
      if (!Number.isFinite(ms))
        throw new DirectoryError(400, 'Request_BadRequest', `Invalid value specified for property '${field}'.`);
      return ms;
    };
    const start = date('startDateTime', now);
    const end = date('endDateTime', now + 2 * 365 * 86400_000);
    if (end <= start)
      throw new DirectoryError(400, 'Request_BadRequest', 'The endDateTime must be after the startDateTime.');
    const secretText = seed?.secret ?? this.rules.newSecretText();
    const credential: PasswordCredential = {
      keyId: randomUUID(),
      displayName: input.displayName ?? '',
      startDateTime: this.iso(start),
      endDateTime: this.iso(end),
      hint: secretText.slice(0, 3),
      digest: digestOf(secretText),
      usableFrom: seed ? 0 : now + this.rules.secretPropagationMs,
    };
    owner.passwordCredentials.push(credential);
    return { credential, secretText };
  }

  removePassword(owner: { passwordCredentials: PasswordCredential[] }, keyId: string): void {
    const before = owner.passwordCredentials.length;
    owner.passwordCredentials = owner.passwordCredentials.filter((c) => c.keyId.toLowerCase() !== keyId.toLowerCase());
    if (owner.passwordCredentials.length === before)
      throw new DirectoryError(404, 'Request_ResourceNotFound', `No password credential found with keyId '${keyId}'.`);
  }

  /** Soft delete: the application (and its service principal) move to deleted items. */
  deleteApplication(id: string): void {
    const app = this.application(id);
    this.applications.delete(id);
    this.deletedItems.set(id, { id, kind: 'application', deletedDateTime: this.iso(), object: app });
    const sp = this.principalOfApp(app.appId);
    if (sp) this.deleteServicePrincipal(sp.id);
  }

  // --- service principals -------------------------------------------------------------------

  createServicePrincipal(appId: string): ServicePrincipal {
    const app = this.applicationByAppId(appId);
    if (!app)
      throw new DirectoryError(
        400,
        'Request_BadRequest',
        `The appId '${appId}' of the service principal does not reference a valid application object.`,
      );
    if (this.principalOfApp(appId))
      throw new DirectoryError(
        409,
        'Request_MultipleObjectsWithSameKeyValue',
        'Another object with the same value for property servicePrincipalNames already exists.',
      );
    const sp: ServicePrincipal = {
      id: randomUUID(),
      appId,
      displayName: app.displayName,
      createdDateTime: this.iso(),
      servicePrincipalType: 'Application',
      passwordCredentials: [],
      appRoles: [],
    };
    this.servicePrincipals.set(sp.id, sp);
    return sp;
  }

  servicePrincipal(id: string): ServicePrincipal {
    const sp = this.servicePrincipals.get(id);
    if (!sp) throw notFound(id);
    return sp;
  }

  principalOfApp(appId: string): ServicePrincipal | undefined {
    return [...this.servicePrincipals.values()].find((s) => s.appId === appId);
  }

  /** Soft delete: the principal moves to deleted items, leaving its groups and app roles. */
  deleteServicePrincipal(id: string): void {
    const sp = this.servicePrincipal(id);
    this.servicePrincipals.delete(id);
    for (const g of this.groups.values()) g.members.delete(id);
    for (const [k, a] of this.appRoleAssignments) if (a.principalId === id) this.appRoleAssignments.delete(k);
    this.deletedItems.set(id, { id, kind: 'servicePrincipal', deletedDateTime: this.iso(), object: sp });
  }

  purgeDeleted(id: string): void {
    if (!this.deletedItems.delete(id)) throw notFound(id);
  }

  // --- app role assignments (application permissions) ---------------------------------------

  grantAppRole(input: { principalId: string; resourceId: string; appRoleId: string }): AppRoleAssignment {
    const principal = this.servicePrincipal(input.principalId);
    const resource = this.servicePrincipal(input.resourceId);
    if (!resource.appRoles.some((r) => r.id === input.appRoleId))
      throw new DirectoryError(
        400,
        'Request_BadRequest',
        `Permission being assigned was not found on application '${resource.appId}'.`,
      );
    const existing = [...this.appRoleAssignments.values()].find(
      (a) => a.principalId === principal.id && a.resourceId === resource.id && a.appRoleId === input.appRoleId,
    );
    if (existing)
      throw new DirectoryError(400, 'Request_BadRequest', 'Permission being assigned already exists on the object.');
    const a: AppRoleAssignment = {
      id: randomBytes(32).toString('base64url').slice(0, 43),
      principalId: principal.id,
      principalDisplayName: principal.displayName,
      principalType: 'ServicePrincipal',
      resourceId: resource.id,
      resourceDisplayName: resource.displayName,
      appRoleId: input.appRoleId,
      createdDateTime: this.iso(),
    };
    this.appRoleAssignments.set(a.id, a);
    return a;
  }

  /** Grants Microsoft Graph permissions by name (seeding). */
  grantGraph(principalId: string, permissions: (keyof typeof GRAPH_APP_ROLES)[]): void {
    for (const p of permissions)
      this.grantAppRole({ principalId, resourceId: this.graph.id, appRoleId: GRAPH_APP_ROLES[p] });
  }

  /** Whether the application may make a Graph call of this kind (a 403 otherwise). */
  requireGraph(app: Application, need: GraphNeed): void {
    const sp = this.principalOfApp(app.appId);
    const held = new Set(
      [...this.appRoleAssignments.values()]
        .filter((a) => sp && a.principalId === sp.id && a.resourceId === this.graph.id)
        .map((a) => a.appRoleId),
    );
    if (!GRAPH_NEEDS[need].some((p) => held.has(GRAPH_APP_ROLES[p])))
      throw new DirectoryError(
        403,
        'Authorization_RequestDenied',
        'Insufficient privileges to complete the operation.',
      );
  }

  // --- groups -------------------------------------------------------------------------------

  addGroup(displayName: string): Group {
    const g: Group = { id: randomUUID(), displayName, createdDateTime: this.iso(), members: new Set() };
    this.groups.set(g.id, g);
    return g;
  }

  group(id: string): Group {
    const g = this.groups.get(id);
    if (!g) throw notFound(id);
    return g;
  }

  addMember(groupId: string, memberId: string): void {
    const g = this.group(groupId);
    if (!this.servicePrincipals.has(memberId)) throw notFound(memberId);
    if (g.members.has(memberId))
      throw new DirectoryError(
        400,
        'Request_BadRequest',
        "One or more added object references already exist for the following modified properties: 'members'.",
      );
    g.members.add(memberId);
  }

  removeMember(groupId: string, memberId: string): void {
    const g = this.group(groupId);
    if (!g.members.delete(memberId)) throw notFound(memberId);
  }

  // --- the token endpoint -------------------------------------------------------------------

  /**
   * Client credentials grant for one resource: the application must exist, have a service
   * principal and an unexpired, propagated secret of its own or of its principal.
   */
  authenticate(
    tenantId: string,
    clientId: string,
    clientSecret: string,
    resource: Resource,
  ): { accessToken: string; expiresIn: number } {
    if (tenantId.toLowerCase() !== this.tenantId.toLowerCase())
      throw new DirectoryError(400, 'invalid_request', `AADSTS90002: Tenant '${tenantId}' not found.`);
    const app = this.applicationByAppId(clientId);
    const sp = app && this.principalOfApp(clientId);
    if (!app || !sp)
      throw new DirectoryError(
        400,
        'unauthorized_client',
        `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${tenantId}'.`,
      );
    const now = this.clock.now();
    const given = digestOf(clientSecret);
    const match = [...app.passwordCredentials, ...sp.passwordCredentials].find((c) => timingSafeEqual(c.digest, given));
    if (!match || match.usableFrom > now || Date.parse(match.startDateTime) > now)
      throw new DirectoryError(
        401,
        'invalid_client',
        `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
      );
    if (Date.parse(match.endDateTime) <= now)
      throw new DirectoryError(
        401,
        'invalid_client',
        `AADSTS7000222: The provided client secret keys for app '${clientId}' are expired.`,
      );
    const accessToken = randomBytes(32).toString('base64url');
    const expiresIn = 3599;
    this.accessTokens.set(accessToken, { appId: clientId, resource, expiresAt: now + expiresIn * 1000 });
    return { accessToken, expiresIn };
  }

  /** The application a bearer token for `resource` was issued to; undefined when unknown, expired or for another resource. */
  caller(accessToken: string, resource: Resource): Application | undefined {
    const entry = this.accessTokens.get(accessToken);
    if (!entry || entry.resource !== resource) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.accessTokens.delete(accessToken);
      return undefined;
    }
    return this.applicationByAppId(entry.appId);
  }
}
