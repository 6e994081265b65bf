/**
 * The simulated cloud's resource manager API (an `api-version` on every request, a bearer token
 * for the management resource, fields of role definitions and assignments under `properties`):
 *   GET    {scope}/providers/Microsoft.Authorization/roleDefinitions[?$filter=roleName eq '..']
 *   GET    {scope}/providers/Microsoft.Authorization/roleDefinitions/{name}   (GetByID takes the full id as path)
 *   GET    {scope}/providers/Microsoft.Authorization/roleAssignments[?$filter=atScope()|principalId eq '..'|assignedTo('..')]
 *   PUT    {scope}/providers/Microsoft.Authorization/roleAssignments/{guid}   {properties: {roleDefinitionId, principalId}}
 *   GET|DELETE {scope}/providers/Microsoft.Authorization/roleAssignments/{guid}
 *   GET    /subscriptions/{sub}/resourceGroups/{rg}
 *   PUT|GET|DELETE /subscriptions/{sub}/resourceGroups/{rg}/providers/{namespace}/{type}/{name}   {location}
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, type Now, readJson, send } from './http.js';
import { parseFilter } from './odata.js';
import { assignmentView, definitionView, resourceView, type ResourceManager } from './resources.js';
import type { Application } from './store.js';

type Obj = Record<string, unknown>;

export async function serveArm(
  arm: ResourceManager,
  now: Now,
  caller: Application,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (!query.get('api-version'))
    throw new HttpError(
      400,
      'MissingApiVersionParameter',
      'The api-version query parameter (?api-version=) is required for all requests.',
    );
  if (!/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(query.get('api-version')!))
    throw new HttpError(400, 'InvalidApiVersionParameter', `The api-version '${query.get('api-version')}' is invalid.`);
  // Clients join a scope that starts with '/' to a path that does too: '//' counts as one.
  const path = `/${pathname.split('/').filter(Boolean).map(decodeURIComponent).join('/')}`;
  const auth = /^(.*?)\/providers\/Microsoft\.Authorization\/(roleDefinitions|roleAssignments)(?:\/([^/]+))?$/i.exec(
    path,
  );
  const list = (items: Obj[]) => send(res, now, 200, { value: items });

  if (auth) {
    const scope = auth[1]!;
    const kind = auth[2]!.toLowerCase();
    const name = auth[3];
    if (kind === 'roledefinitions' && method === 'GET') {
      if (scope) arm.requireScope(scope);
      if (name) {
        const def = arm.roleDefinition(`${scope}/providers/Microsoft.Authorization/roleDefinitions/${name}`);
        if (!def)
          throw new HttpError(
            404,
            'RoleDefinitionDoesNotExist',
            `The specified role definition with ID '${name}' does not exist.`,
          );
        return send(res, now, 200, definitionView(def));
      }
      let roleName: string | undefined;
      for (const c of parseFilter(query.get('$filter'), 'InvalidFilterParameter')) {
        if (c.kind !== 'eq' || c.property !== 'roleName')
          throw new HttpError(400, 'InvalidFilterParameter', `The filter '${query.get('$filter')}' is not supported.`);
        roleName = c.value;
      }
      return list(
        [...arm.roleDefinitions.values()]
          .filter((d) => roleName === undefined || d.roleName === roleName)
          .map(definitionView),
      );
    }
    if (kind === 'roleassignments') {
      if (!name && method === 'GET') {
        if (scope) arm.requireScope(scope);
        const opts: { atScope?: boolean; principalId?: string } = {};
        for (const c of parseFilter(query.get('$filter'), 'InvalidFilterParameter')) {
          if (c.kind === 'call' && c.name === 'atScope' && c.args.length === 0) opts.atScope = true;
          else if (c.kind === 'call' && c.name === 'assignedTo' && c.args.length === 1) opts.principalId = c.args[0];
          else if (c.kind === 'eq' && c.property === 'principalId') opts.principalId = c.value;
          else
            throw new HttpError(
              400,
              'InvalidFilterParameter',
              `The filter '${query.get('$filter')}' is not supported.`,
            );
        }
        return list(arm.assignmentsFrom(scope || '/', opts).map(assignmentView));
      }
      if (name && method === 'PUT') {
        const body = await readJson(req, 'InvalidRequestContent');
        const props = body.properties as Obj | undefined;
        if (
          !props ||
          typeof props !== 'object' ||
          typeof props.roleDefinitionId !== 'string' ||
          typeof props.principalId !== 'string'
        )
          throw new HttpError(
            400,
            'InvalidRequestContent',
            'The request content must hold properties.roleDefinitionId and properties.principalId.',
          );
        const a = arm.createRoleAssignment(caller.appId, scope, name, {
          roleDefinitionId: props.roleDefinitionId,
          principalId: props.principalId,
        });
        return send(res, now, 201, assignmentView(a));
      }
      if (name && method === 'GET') {
        const a = arm.roleAssignments.get(name.toLowerCase());
        if (!a || a.scope.toLowerCase() !== scope.toLowerCase())
          throw new HttpError(404, 'RoleAssignmentNotFound', `The role assignment '${name}' is not found.`);
        return send(res, now, 200, assignmentView(a));
      }
      if (name && method === 'DELETE') {
        const a = arm.deleteRoleAssignment(caller.appId, path);
        return a ? send(res, now, 200, assignmentView(a)) : send(res, now, 204);
      }
    }
  }

  const rg = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)$/i.exec(path);
  if (rg && method === 'GET') {
    arm.requireScope(path);
    return send(res, now, 200, resourceView(arm.resourceGroup(rg[2]!)));
  }
  if (/^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/[^/]+\/[^/]+\/[^/]+$/i.test(path)) {
    if (method === 'PUT') {
      const { resource, created } = arm.putResource(caller.appId, path, await readJson(req, 'InvalidRequestContent'));
      return send(res, now, created ? 201 : 200, resourceView(resource));
    }
    if (method === 'GET') {
      const r = arm.getResource(path);
      if (!r) throw new HttpError(404, 'ResourceNotFound', `The Resource '${path}' was not found.`);
      return send(res, now, 200, resourceView(r));
    }
    if (method === 'DELETE') return send(res, now, arm.deleteResource(caller.appId, path) ? 200 : 204);
  }
  throw new HttpError(404, 'InvalidResourceType', `The resource type could not be found for ${method} ${path}.`);
}
