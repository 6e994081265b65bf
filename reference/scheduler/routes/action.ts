/**
 * Run action (jobs-service.md): GET /v1/job/:job_id/action upgraded to a WebSocket; the stream
 * itself is actions.ts. Without an upgrade the endpoint answers 400.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AclToken } from '../acl.js';
import type { ActionStreams } from '../actions.js';
import { badRequest, forbidden, notFound, SchedError } from '../errors.js';
import { answerWithoutUpgrade, parseBoolParam, rejectUpgrade, requestTarget } from '../http.js';
import type { Job } from '../job.js';
import type { Route } from '../router.js';
import { actionsOf, type Deps } from './deps.js';

/** The action stream as the document's endpoint table writes it. */
const ACTION_ENDPOINT = 'WebSocket /v1/job/:job_id/action';

export function actionRoutes(): Route[] {
  return [
    {
      method: 'ANY',
      path: '/v1/job/*id/action',
      handle: () => {
        throw badRequest('the action endpoint needs a WebSocket upgrade');
      },
    },
  ];
}

/** The upgrade handler of the action stream: checks the request, then hands the socket to the stream. */
export function actionUpgrade(
  d: Deps,
  streams: ActionStreams,
  resolveToken: (headers: IncomingMessage['headers']) => AclToken | null,
) {
  const { store, acl, aclEnabled, guard, rules } = d;
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      const { url, path } = requestTarget(req);
      if (!path.startsWith('/v1/job/') || !path.endsWith('/action') || !rules.served(ACTION_ENDPOINT))
        throw notFound('Invalid URL');
      const id = path.slice('/v1/job/'.length, -'/action'.length);
      const q = url.searchParams;
      const namespace = q.get('namespace') || 'default';
      let actionName = q.get('action') ?? '';
      let allocId = q.get('alloc_id') ?? q.get('allocID') ?? '';
      let taskName = q.get('task') ?? '';
      if (!actionName && rules.actionNeedsAction) throw badRequest('missing action name');
      if (!allocId && rules.actionNeedsAlloc) throw badRequest('missing allocation ID');
      if (!taskName && rules.actionNeedsTask) throw badRequest('missing task name');
      const tty = parseBoolParam(q, 'tty') ?? rules.actionTtyDefault;
      const handshake = parseBoolParam(q, 'ws_handshake') ?? rules.actionHandshakeDefault;
      // Drivers without file system isolation also need alloc-node-exec.
      let unisolated = false;
      const authorize = (token: AclToken | null) => {
        if (!guard.allows(token, ACTION_ENDPOINT, 'alloc-exec', namespace)) throw forbidden();
        if (unisolated && !guard.allows(token, ACTION_ENDPOINT, 'alloc-node-exec', namespace)) throw forbidden();
      };
      const e = store.get(namespace, id);
      if (!e) throw notFound('job not found');
      // A broken scheduler that runs without alloc_id (rules.actionNeedsAlloc) picks a running one.
      if (!allocId) allocId = String(store.allocsOf(e).find((a) => a.ClientStatus === 'running')?.ID ?? '');
      const alloc = store.allocsOf(e, true).find((a) => a.ID === allocId);
      if (!alloc) throw notFound(`allocation ${allocId} not found for job "${id}"`);
      if (alloc.ClientStatus !== 'running') throw badRequest(`allocation ${allocId} is not running`);
      const version = e.versions.find((v) => v.Version === alloc.JobVersion) ?? e.job;
      // A broken scheduler that runs without action (rules.actionNeedsAction) runs the task's first one.
      if (!actionName) actionName = actionsOf(version).find((a) => !taskName || a.TaskName === taskName)?.Name ?? '';
      if (!taskName && !rules.actionNeedsTask)
        taskName = actionsOf(version).find((a) => a.Name === actionName)?.TaskName ?? '';
      const action = actionsOf(version).find(
        (a) => a.Name === actionName && a.TaskName === taskName && a.TaskGroupName === alloc.TaskGroup,
      );
      if (!action) throw notFound(`action "${actionName}" not found in task "${taskName}"`);
      const driver = (version.TaskGroups ?? [])
        .find((g: Job) => g.Name === alloc.TaskGroup)
        ?.Tasks?.find((t: Job) => t.Name === taskName)?.Driver;
      unisolated = rules.lacksFsIsolation(String(driver ?? ''));
      if (!handshake) authorize(resolveToken(req.headers));
      if (!rules.actionUpgrades) {
        answerWithoutUpgrade(socket, streams.outputOf(action.Command, action.Args ?? [], tty));
        return;
      }
      streams.upgrade(req, socket, head, {
        command: action.Command,
        args: action.Args ?? [],
        tty,
        handshake,
        authorize: (secret) => {
          if (!aclEnabled) return;
          const t = acl.lookup(secret);
          if (!t) throw forbidden('ACL token not found');
          authorize(t);
        },
      });
    } catch (err) {
      if (err instanceof SchedError) rejectUpgrade(socket, err.status, err.message);
      else {
        console.error('[scheduler] upgrade failed:', (err as Error).message);
        rejectUpgrade(socket, 500, 'internal error');
      }
    }
  };
}
