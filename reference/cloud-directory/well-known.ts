/**
 * What the simulated cloud directory knows the way the real cloud does: the resources a token can
 * be asked for (one token per resource), the directory's own API application (Microsoft Graph) with
 * the application permissions (app roles) that give a client its rights, and the built-in role
 * definitions of the resource manager, under their public ids.
 */

/** The two resources the engine and the suite call, besides the token endpoint itself. */
export type Resource = 'graph' | 'management';

/**
 * The resource a client-credentials `scope` names (`<resource identifier>/.default`), as the real
 * token endpoint reads it: the public cloud's identifiers, whatever address the simulation serves.
 */
export function resourceOfScope(scope: string): Resource | undefined {
  for (const item of scope.split(/\s+/).filter(Boolean)) {
    const m = /^(https:\/\/[^/]+)\/+\.default$/i.exec(item);
    if (!m) continue;
    const id = m[1]!.toLowerCase();
    if (id === 'https://graph.microsoft.com') return 'graph';
    if (id === 'https://management.azure.com' || id === 'https://management.core.windows.net') return 'management';
  }
  return undefined;
}

/** The audience a token of a resource carries (what a real access token's `aud` says). */
export const AUDIENCE: Record<Resource, string> = {
  graph: 'https://graph.microsoft.com',
  management: 'https://management.core.windows.net/',
};

/** The application id of Microsoft Graph: its service principal holds the app roles below. */
export const GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

/** Application permissions of Microsoft Graph the simulation checks (their public ids). */
export const GRAPH_APP_ROLES = {
  'Application.Read.All': '9a5d68dd-52b0-4cc2-bd40-abcf44ac3a30',
  'Application.ReadWrite.All': '1bfefb4e-e0b5-418b-a88f-73c46d2cc8e9',
  'AppRoleAssignment.ReadWrite.All': '06b708a9-e830-4db3-a914-8e69da51d44f',
  'Directory.Read.All': '7ab1d382-f21e-4acd-a863-ba3e13f7da61',
  'Directory.ReadWrite.All': '19dbc75e-c2e2-444c-a770-ec69d8559fc7',
  'Group.Read.All': '5b567255-7703-4780-807c-7be8301ae99b',
  'GroupMember.ReadWrite.All': 'dbaae8cf-10b5-4b86-a4a1-f871c94c1695',
} as const;
export type GraphPermission = keyof typeof GRAPH_APP_ROLES;

/** What each kind of Graph call needs: any one of the permissions listed. */
export const GRAPH_NEEDS = {
  readApplications: [
    'Application.Read.All',
    'Application.ReadWrite.All',
    'Directory.Read.All',
    'Directory.ReadWrite.All',
  ],
  writeApplications: ['Application.ReadWrite.All', 'Directory.ReadWrite.All'],
  readGroups: ['Group.Read.All', 'GroupMember.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  writeMembers: ['GroupMember.ReadWrite.All', 'Directory.ReadWrite.All'],
  grantAppRoles: ['AppRoleAssignment.ReadWrite.All'],
} as const satisfies Record<string, readonly GraphPermission[]>;
export type GraphNeed = keyof typeof GRAPH_NEEDS;

/** Built-in role definitions under their public names (the id's last segment). */
export const BUILT_IN_ROLES: Record<string, string> = {
  Owner: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635',
  Contributor: 'b24988ac-6180-42a0-ab88-20f7382dd24c',
  Reader: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
  'User Access Administrator': '18d7d88d-d35e-4fb5-a5c3-7773c20a72d9',
  'Storage Blob Data Reader': '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
};

/** Roles whose holders may write role assignments at their scope and below. */
export const ASSIGNS_ROLES = ['Owner', 'User Access Administrator'];
/** Roles whose holders may create and delete resources at their scope and below. */
export const WRITES_RESOURCES = ['Owner', 'Contributor'];
