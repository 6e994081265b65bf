/**
 * Dispatching a parameterized job (jobs-service.md Dispatch job), with a JSON body or the raw
 * payload as the body.
 */
import { randomUUID } from 'node:crypto';
import { badRequest, notFound } from '../errors.js';
import { type Ctx, optString, type Reply, stringMap } from '../http.js';
import { clone, isParameterized, type Job } from '../job.js';
import { DISPATCH_PAYLOAD_LIMIT } from '../rules.js';
import type { Route } from '../router.js';
import type { Deps } from './deps.js';

const decodePayload = (v: unknown): Buffer => {
  if (v === undefined || v === null || v === '') return Buffer.alloc(0);
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/\r\n]*={0,2}$/.test(v))
    throw badRequest('Payload must be a base64 string');
  return Buffer.from(v, 'base64');
};

export function dispatchRoutes(d: Deps): Route[] {
  const { store, rules, clock } = d;

  const dispatch = (
    ctx: Ctx,
    id: string,
    payload: Buffer,
    meta: Record<string, string> | null,
    prefixTemplate: string,
  ): Reply => {
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound('parameterized job not found');
    const parent = e.job;
    if (!isParameterized(parent) && rules.dispatchNeedsParameterized)
      throw badRequest(`Specified job "${id}" is not a parameterized job`);
    if (parent.Stop) throw badRequest(`Specified job "${id}" is stopped`);
    const cfg: Job = parent.ParameterizedJob ?? { Payload: 'optional', MetaRequired: null, MetaOptional: null };
    if (cfg.Payload === 'required' && payload.length === 0 && rules.dispatchPayloadRequiredChecked)
      throw badRequest('Payload is not provided but required by parameterized job');
    if (cfg.Payload === 'forbidden' && payload.length > 0)
      throw badRequest('Payload provided but forbidden by parameterized job');
    if (payload.length > rules.dispatchPayloadLimit)
      throw badRequest(`Payload exceeds maximum size; ${payload.length} > ${DISPATCH_PAYLOAD_LIMIT}`);
    const required: string[] = cfg.MetaRequired ?? [];
    const checkedRequired = rules.dispatchRequiredKeys(required);
    const optional: string[] = cfg.MetaOptional ?? [];
    const given = Object.keys(meta ?? {});
    const unpermitted = given.filter((k) => !required.includes(k) && !optional.includes(k));
    if (unpermitted.length && rules.dispatchMetaUnpermittedRefused)
      throw badRequest(`Dispatch request included unpermitted metadata keys: [${unpermitted.join(' ')}]`);
    const missing = checkedRequired.filter((k) => !given.includes(k));
    if (missing.length && rules.dispatchMetaRequiredChecked)
      throw badRequest(`Dispatch did not provide required meta keys: [${missing.join(' ')}]`);
    const token = ctx.query.get('idempotency_token') ?? '';
    const key = token ? rules.idempotencyKey(token, { payload, meta }) : '';
    if (token && rules.dispatchIdempotent) {
      const dispatched = rules.dispatchIdempotentPerJob ? store.children(e) : [...store.jobs.values()];
      const existing = dispatched.find((c) => c.idempotencyToken === key);
      if (existing)
        return {
          body: {
            Index: existing.job.ModifyIndex,
            JobCreateIndex: existing.job.CreateIndex,
            EvalCreateIndex: 0,
            EvalID: '',
            DispatchedJobID: existing.job.ID,
            KnownLeader: true,
            LastContact: 0,
          },
        };
    }
    const child = clone(parent);
    const secs = Math.floor(clock.now() / 1000);
    const template = rules.dispatchIdPrefixTemplate ? prefixTemplate : '';
    child.ID = rules.dispatchedId(parent.ID, template, `${secs}-${randomUUID().slice(0, 8)}`);
    child.Name = child.ID;
    child.ParentID = parent.ID;
    child.Dispatched = true;
    child.Status = '';
    const kept = rules.dispatchKeepsMeta ? rules.dispatchedMeta(meta) : null;
    child.Meta = kept || parent.Meta ? { ...(parent.Meta ?? {}), ...(kept ?? {}) } : null;
    child.Payload = payload.length ? payload.toString('base64') : null;
    const r = store.register(child, { idempotencyToken: key || undefined });
    const created = store.get(ctx.namespace, child.ID)!;
    if (token) created.idempotencyToken = key;
    return {
      body: {
        Index: r.Index,
        JobCreateIndex: created.job.CreateIndex,
        EvalCreateIndex: r.EvalCreateIndex ?? 0,
        EvalID: r.EvalID ?? '',
        DispatchedJobID: child.ID,
        KnownLeader: true,
        LastContact: 0,
      },
    };
  };

  const dispatchJson = (ctx: Ctx, id: string, body: Job): Reply => {
    const jobId = optString(body, 'JobID');
    if (jobId && jobId !== id) throw badRequest('Job ID does not match');
    return dispatch(
      ctx,
      id,
      rules.dispatchPayloadBytes(typeof body.Payload === 'string' ? body.Payload : '', decodePayload(body.Payload)),
      stringMap(body.Meta, 'Meta'),
      optString(body, 'IdPrefixTemplate') ?? '',
    );
  };

  return [
    {
      method: 'WRITE',
      path: '/v1/job/*id/dispatch/payload',
      acl: 'dispatch-job',
      handle: (ctx, r) => {
        if (!rules.rawDispatchAccepts(String(ctx.req.headers['content-type'] ?? '')))
          throw badRequest('the payload must be sent as application/octet-stream');
        return dispatch(ctx, r.params.id!, rules.rawDispatchPayload(ctx.rawBody), null, '');
      },
    },
    {
      method: 'WRITE',
      path: '/v1/job/*id/dispatch',
      acl: 'dispatch-job',
      body: 'optional-json',
      handle: (ctx, r) => dispatchJson(ctx, r.params.id!, r.body),
    },
  ];
}
