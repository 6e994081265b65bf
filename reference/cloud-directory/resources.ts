/**
 * The simulated cloud directory's resources, served to an application with directory rights:
 * applications and their passwords, service principals, deleted items, role definitions, role
 * assignments and groups with their members (the routes are listed in server.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJson, requireString, send } from './http.js';
import { applicationView, type DirectoryStore } from './store.js';

/** The request as the resource routes see it. */
export interface ResourceRequest {
  method: string;
  /** The path's segments, decoded. */
  parts: string[];
  query: URLSearchParams;
  pathname: string;
}

/** Serves one resource request; a path and method no route serves is a 404. */
export async function serveResource(
  store: DirectoryStore,
  req: IncomingMessage,
  res: ServerResponse,
  { method, parts, query: q, pathname }: ResourceRequest,
): Promise<void> {
  const [top, id, sub, subId] = parts;

  switch (top) {
    case 'applications': {
      if (!id) {
        if (method === 'GET') {
          const apps = [...store.applications.values()].filter(
            (a) =>
              (!q.get('appId') || a.appId === q.get('appId')) &&
              (!q.get('displayName') || a.displayName === q.get('displayName')),
          );
          return send(res, 200, { value: apps.map(applicationView) });
        }
        if (method === 'POST') {
          const body = await readJson(req);
          const tags = body.tags === undefined ? [] : body.tags;
          if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
            throw new HttpError(400, 'Request_BadRequest', '"tags" must be a list of strings');
          const app = store.createApplication({
            displayName: requireString(body, 'displayName'),
            signInAudience: typeof body.signInAudience === 'string' ? body.signInAudience : undefined,
            tags: tags as string[],
            directoryAdmin: body.directoryAdmin === true,
          });
          return send(res, 201, applicationView(app));
        }
        break;
      }
      if (!sub && method === 'GET') return send(res, 200, applicationView(store.application(id)));
      if (!sub && method === 'DELETE') {
        store.deleteApplication(id);
        return send(res, 204);
      }
      if (sub === 'addPassword' && method === 'POST') {
        const body = await readJson(req);
        const cred = (
          body.passwordCredential && typeof body.passwordCredential === 'object' ? body.passwordCredential : body
        ) as Record<string, unknown>;
        const out = store.addPassword(id, {
          displayName: typeof cred.displayName === 'string' ? cred.displayName : undefined,
          endDateTime: typeof cred.endDateTime === 'string' ? cred.endDateTime : undefined,
        });
        const { digest: _d, ...view } = out.credential;
        return send(res, 200, { ...view, secretText: out.secretText });
      }
      if (sub === 'removePassword' && method === 'POST') {
        const body = await readJson(req);
        store.removePassword(id, requireString(body, 'keyId'));
        return send(res, 204);
      }
      break;
    }
    case 'servicePrincipals': {
      if (!id) {
        if (method === 'GET')
          return send(res, 200, {
            value: [...store.servicePrincipals.values()].filter((s) => !q.get('appId') || s.appId === q.get('appId')),
          });
        if (method === 'POST') {
          const body = await readJson(req);
          return send(res, 201, store.createServicePrincipal(requireString(body, 'appId')));
        }
        break;
      }
      if (!sub && method === 'GET') return send(res, 200, store.servicePrincipal(id));
      if (!sub && method === 'DELETE') {
        store.deleteServicePrincipal(id);
        return send(res, 204);
      }
      if (sub === 'memberOf' && method === 'GET') {
        store.servicePrincipal(id);
        const groups = [...store.groups.values()]
          .filter((g) => g.members.has(id))
          .map((g) => ({ id: g.id, displayName: g.displayName }));
        return send(res, 200, { value: groups });
      }
      break;
    }
    case 'directory': {
      if (id !== 'deletedItems') break;
      if (!sub && method === 'GET')
        return send(res, 200, {
          value: [...store.deletedItems.values()].map((d) => ({
            id: d.id,
            kind: d.kind,
            deletedDateTime: d.deletedDateTime,
            displayName: d.object.displayName,
            appId: d.object.appId,
          })),
        });
      if (sub && !subId && method === 'GET') {
        const item = store.deletedItems.get(sub);
        if (!item) throw new HttpError(404, 'Request_ResourceNotFound', `Deleted item '${sub}' does not exist.`);
        return send(res, 200, {
          id: item.id,
          kind: item.kind,
          deletedDateTime: item.deletedDateTime,
          displayName: item.object.displayName,
          appId: item.object.appId,
        });
      }
      if (sub && !subId && method === 'DELETE') {
        store.purgeDeleted(sub);
        return send(res, 204);
      }
      break;
    }
    case 'roleDefinitions': {
      if (!id && method === 'GET') {
        // Definitions live in a subscription: a lookup scoped to another one finds nothing there.
        const scope = q.get('scope');
        if (scope && !store.knowsScope(scope))
          throw new HttpError(404, 'SubscriptionNotFound', `The subscription of scope '${scope}' could not be found.`);
        const defs = [...store.roleDefinitions.values()].filter(
          (d) =>
            (!q.get('roleName') || d.roleName === q.get('roleName')) &&
            (!q.get('id') || d.id === q.get('id')) &&
            (!scope || d.id.startsWith(`${scope.replace(/\/+$/, '')}/`)),
        );
        return send(res, 200, { value: defs });
      }
      if (id && !sub && method === 'GET') {
        const def = store.roleDefinition(id);
        if (!def)
          throw new HttpError(404, 'RoleDefinitionDoesNotExist', 'The specified role definition does not exist.');
        return send(res, 200, def);
      }
      break;
    }
    case 'roleAssignments': {
      if (!id && method === 'GET') {
        const list = [...store.roleAssignments.values()].filter(
          (a) =>
            (!q.get('principalId') || a.principalId === q.get('principalId')) &&
            (!q.get('scope') || a.scope === q.get('scope')),
        );
        return send(res, 200, { value: list });
      }
      if (id && !sub && method === 'PUT') {
        const body = await readJson(req);
        const a = store.createRoleAssignment(id, {
          roleDefinitionId: requireString(body, 'roleDefinitionId'),
          principalId: requireString(body, 'principalId'),
          scope: requireString(body, 'scope'),
        });
        return send(res, 201, a);
      }
      if (id && !sub && method === 'GET') {
        const a = store.roleAssignments.get(id);
        if (!a) throw new HttpError(404, 'RoleAssignmentNotFound', `Role assignment '${id}' does not exist.`);
        return send(res, 200, a);
      }
      if (id && !sub && method === 'DELETE') return send(res, 200, store.deleteRoleAssignment(id));
      break;
    }
    case 'groups': {
      if (!id && method === 'GET') {
        const list = [...store.groups.values()].filter(
          (g) => !q.get('displayName') || g.displayName === q.get('displayName'),
        );
        return send(res, 200, { value: list.map((g) => ({ id: g.id, displayName: g.displayName })) });
      }
      if (id && !sub && method === 'GET') {
        const g = store.group(id);
        return send(res, 200, { id: g.id, displayName: g.displayName });
      }
      if (id && sub === 'members' && !subId && method === 'GET')
        return send(res, 200, { value: [...store.group(id).members].map((m) => ({ id: m })) });
      if (id && sub === 'members' && !subId && method === 'POST') {
        const body = await readJson(req);
        store.addMember(id, requireString(body, 'id'));
        return send(res, 204);
      }
      if (id && sub === 'members' && subId && method === 'DELETE') {
        store.removeMember(id, subId);
        return send(res, 204);
      }
      break;
    }
    default:
      break;
  }
  throw new HttpError(404, 'Request_UnsupportedQuery', `No route for ${method} ${pathname}`);
}
