/**
 * The simulated cloud's directory API, shaped as Microsoft Graph v1.0 (paths under `/v1.0`, a
 * bearer token for the Graph resource, the caller's application permissions checked per call):
 *   /applications[?$filter=appId eq '..']  POST  GET|DELETE /applications/{id}  POST /applications/{id}/addPassword|removePassword
 *   /servicePrincipals[?$filter=..]        POST  GET|DELETE /servicePrincipals/{id}  POST .../addPassword|removePassword
 *   GET /servicePrincipals/{id}/memberOf   GET|POST /servicePrincipals/{id}/appRoleAssignedTo  GET .../appRoleAssignments
 *   /groups[?$filter=displayName eq '..']  GET /groups/{id}  GET /groups/{id}/members
 *   POST /groups/{id}/members/$ref {"@odata.id"}  DELETE /groups/{id}/members/{member}/$ref
 *   GET|DELETE /directory/deletedItems/{id}  GET /directory/deletedItems/microsoft.graph.application|servicePrincipal
 * Lists page at `$top` (default 100) with `@odata.nextLink`; `$select` narrows objects.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, type Now, readJson, requireString, send } from './http.js';
import { equalities, parseFilter } from './odata.js';
import type { Application, DeletedItem, DirectoryStore } from './store.js';
import { applicationView, credentialView, principalView } from './views.js';
import type { GraphNeed } from './well-known.js';

type Obj = Record<string, unknown>;

const typed = (type: string, o: Obj): Obj => ({ '@odata.type': `#microsoft.graph.${type}`, ...o });

function deletedView(d: DeletedItem): Obj {
  const view = d.kind === 'application' ? applicationView(d.object as Application) : principalView(d.object as never);
  return typed(d.kind, { ...view, deletedDateTime: d.deletedDateTime });
}

/** The id an `@odata.id` reference names (its last path segment). */
function referencedId(body: Obj): string {
  const ref = body['@odata.id'];
  const m =
    typeof ref === 'string'
      ? /^https?:\/\/[^/]+\/v1\.0\/(?:directoryObjects|servicePrincipals|users|groups)\/([^/?#]+)$/.exec(ref)
      : null;
  if (!m) throw new HttpError(400, 'Request_BadRequest', "Invalid URL format specified in @odata.id for 'members'.");
  return decodeURIComponent(m[1]!);
}

export async function serveGraph(
  store: DirectoryStore,
  now: Now,
  caller: Application,
  req: IncomingMessage,
  res: ServerResponse,
  parts: string[],
  query: URLSearchParams,
  origin: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const need = (n: GraphNeed) => store.requireGraph(caller, n);
  const context = (what: string) => `${origin}/v1.0/$metadata#${what}`;
  const one = (status: number, what: string, o: Obj, headers?: Record<string, string>) =>
    send(res, now, status, { '@odata.context': context(what), ...select(o, query) }, headers);
  const list = (what: string, items: Obj[], filterable: string[]) => {
    const eq = equalities(
      parseFilter(query.get('$filter'), 'Request_UnsupportedQuery'),
      filterable,
      'Request_UnsupportedQuery',
    );
    const matching = items.filter((o) =>
      Object.entries(eq).every(([k, v]) => String(o[k]).toLowerCase() === v.toLowerCase()),
    );
    const top = Math.min(Number(query.get('$top') ?? 100) || 100, 999);
    const skip = Number(query.get('$skiptoken') ?? 0) || 0;
    const page = matching.slice(skip, skip + top).map((o) => select(o, query));
    const next = new URLSearchParams(query);
    next.set('$skiptoken', String(skip + top));
    send(res, now, 200, {
      '@odata.context': context(what),
      value: page,
      ...(skip + top < matching.length ? { '@odata.nextLink': `${origin}/v1.0/${parts.join('/')}?${next}` } : {}),
    });
  };
  const [top, id, sub, subId, ref] = parts;

  if (top === 'applications') {
    if (!id && method === 'GET') {
      need('readApplications');
      return list('applications', [...store.applications.values()].map(applicationView), [
        'appId',
        'displayName',
        'id',
      ]);
    }
    if (!id && method === 'POST') {
      need('writeApplications');
      const body = await readJson(req, 'Request_BadRequest');
      const tags = body.tags ?? [];
      if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
        throw new HttpError(400, 'Request_BadRequest', "Property 'tags' must be a collection of strings.");
      const app = store.createApplication({
        displayName: requireString(body, 'displayName'),
        signInAudience: typeof body.signInAudience === 'string' ? body.signInAudience : undefined,
        tags: tags as string[],
      });
      return one(201, 'applications/$entity', applicationView(app), {
        Location: `${origin}/v1.0/applications/${app.id}`,
      });
    }
    if (id && !sub) {
      need(method === 'GET' ? 'readApplications' : 'writeApplications');
      if (method === 'GET') return one(200, 'applications/$entity', applicationView(store.application(id)));
      if (method === 'DELETE') return send(res, now, 204, void store.deleteApplication(id));
    }
    if (id && (sub === 'addPassword' || sub === 'removePassword') && !subId && method === 'POST') {
      need('writeApplications');
      return passwords(store.application(id));
    }
  }

  if (top === 'servicePrincipals') {
    if (!id && method === 'GET') {
      need('readApplications');
      return list('servicePrincipals', [...store.servicePrincipals.values()].map(principalView), [
        'appId',
        'displayName',
        'id',
      ]);
    }
    if (!id && method === 'POST') {
      need('writeApplications');
      const body = await readJson(req, 'Request_BadRequest');
      const sp = store.createServicePrincipal(requireString(body, 'appId'));
      return one(201, 'servicePrincipals/$entity', principalView(sp), {
        Location: `${origin}/v1.0/servicePrincipals/${sp.id}`,
      });
    }
    if (id && !sub) {
      need(method === 'GET' ? 'readApplications' : 'writeApplications');
      if (method === 'GET') return one(200, 'servicePrincipals/$entity', principalView(store.servicePrincipal(id)));
      if (method === 'DELETE') return send(res, now, 204, void store.deleteServicePrincipal(id));
    }
    if (id && (sub === 'addPassword' || sub === 'removePassword') && !subId && method === 'POST') {
      need('writeApplications');
      return passwords(store.servicePrincipal(id));
    }
    if (id && sub === 'memberOf' && !subId && method === 'GET') {
      need('readGroups');
      store.servicePrincipal(id);
      const groups = [...store.groups.values()].filter((g) => g.members.has(id));
      return list(
        'directoryObjects',
        groups.map((g) => typed('group', { id: g.id, displayName: g.displayName })),
        ['displayName', 'id'],
      );
    }
    if (id && (sub === 'appRoleAssignedTo' || sub === 'appRoleAssignments') && !subId && method === 'GET') {
      need('readApplications');
      store.servicePrincipal(id);
      const key = sub === 'appRoleAssignedTo' ? 'resourceId' : 'principalId';
      return list(sub, [...store.appRoleAssignments.values()].filter((a) => a[key] === id) as unknown as Obj[], [
        'appRoleId',
        'principalId',
        'resourceId',
      ]);
    }
    if (id && sub === 'appRoleAssignedTo' && !subId && method === 'POST') {
      need('grantAppRoles');
      const body = await readJson(req, 'Request_BadRequest');
      const resourceId = requireString(body, 'resourceId');
      if (resourceId !== id)
        throw new HttpError(
          400,
          'Request_BadRequest',
          "Property 'resourceId' must name the service principal of the path.",
        );
      const a = store.grantAppRole({
        principalId: requireString(body, 'principalId'),
        resourceId,
        appRoleId: requireString(body, 'appRoleId'),
      });
      return one(201, `servicePrincipals('${id}')/appRoleAssignedTo/$entity`, a as unknown as Obj);
    }
    if (id && sub === 'appRoleAssignedTo' && subId && method === 'DELETE') {
      need('grantAppRoles');
      const a = store.appRoleAssignments.get(subId);
      if (!a || a.resourceId !== id)
        throw new HttpError(404, 'Request_ResourceNotFound', `Resource '${subId}' does not exist.`);
      store.appRoleAssignments.delete(subId);
      return send(res, now, 204);
    }
  }

  if (top === 'groups') {
    if (!id && method === 'GET') {
      need('readGroups');
      return list(
        'groups',
        [...store.groups.values()].map((g) => ({
          id: g.id,
          displayName: g.displayName,
          createdDateTime: g.createdDateTime,
        })),
        ['displayName', 'id'],
      );
    }
    if (id && !sub && method === 'GET') {
      need('readGroups');
      const g = store.group(id);
      return one(200, 'groups/$entity', { id: g.id, displayName: g.displayName, createdDateTime: g.createdDateTime });
    }
    if (id && sub === 'members' && !subId && method === 'GET') {
      need('readGroups');
      const members = [...store.group(id).members].map((m) => {
        const sp = store.servicePrincipals.get(m);
        return typed('servicePrincipal', { id: m, appId: sp?.appId ?? null, displayName: sp?.displayName ?? null });
      });
      return list('directoryObjects', members, ['id']);
    }
    if (id && sub === 'members' && subId === '$ref' && !ref && method === 'POST') {
      need('writeMembers');
      store.addMember(id, referencedId(await readJson(req, 'Request_BadRequest')));
      return send(res, now, 204);
    }
    if (
      id &&
      sub === 'members' &&
      subId &&
      subId !== '$ref' &&
      ref === '$ref' &&
      parts.length === 5 &&
      method === 'DELETE'
    ) {
      need('writeMembers');
      store.removeMember(id, subId);
      return send(res, now, 204);
    }
  }

  if (top === 'directory' && id === 'deletedItems' && parts.length === 3) {
    need(method === 'GET' ? 'readApplications' : 'writeApplications');
    const kind =
      sub === 'microsoft.graph.application'
        ? 'application'
        : sub === 'microsoft.graph.servicePrincipal'
          ? 'servicePrincipal'
          : undefined;
    if (kind && method === 'GET')
      return list(
        'directoryObjects',
        [...store.deletedItems.values()].filter((d) => d.kind === kind).map(deletedView),
        ['appId', 'displayName', 'id'],
      );
    const item = store.deletedItems.get(sub!);
    if (method === 'GET') {
      if (!item)
        throw new HttpError(
          404,
          'Request_ResourceNotFound',
          `Resource '${sub}' does not exist or one of its queried reference-property objects are not present.`,
        );
      return one(200, 'directoryObjects/$entity', deletedView(item));
    }
    if (method === 'DELETE') return send(res, now, 204, void store.purgeDeleted(sub!));
  }

  throw new HttpError(
    400,
    'BadRequest',
    `Resource not found for the segment '${parts[parts.length - 1] ?? ''}' (${method}).`,
  );

  async function passwords(owner: Parameters<DirectoryStore['addPassword']>[0]): Promise<void> {
    const body = await readJson(req, 'Request_BadRequest');
    if (sub === 'removePassword') {
      store.removePassword(owner, requireString(body, 'keyId'));
      return send(res, now, 204);
    }
    const cred = (body.passwordCredential ?? {}) as Obj;
    if (typeof cred !== 'object' || Array.isArray(cred))
      throw new HttpError(400, 'Request_BadRequest', "Property 'passwordCredential' must be an object.");
    const str = (k: string) => (typeof cred[k] === 'string' ? (cred[k] as string) : undefined);
    const out = store.addPassword(owner, {
      displayName: str('displayName'),
      startDateTime: str('startDateTime'),
      endDateTime: str('endDateTime'),
    });
    return send(res, now, 200, {
      '@odata.context': context('microsoft.graph.passwordCredential'),
      ...credentialView(out.credential),
      secretText: out.secretText,
    });
  }
}

/** `$select=a,b`: the object narrowed to those properties (and its id and type). */
function select(o: Obj, query: URLSearchParams): Obj {
  const s = query.get('$select');
  if (!s) return o;
  const keep = new Set(['id', '@odata.type', ...s.split(',').map((x) => x.trim())]);
  return Object.fromEntries(Object.entries(o).filter(([k]) => keep.has(k)));
}
