/**
 * The jobs area's faults on the clauses of the parameters' rules ("Endpoints > Parameters and
 * responses", Limits): a default a scheduler loses once a request gave another value, a
 * check-and-set honoured on one path only, a value exactly at a documented limit refused, several
 * items of which only the first counts, an idempotency token compared with the request body, an
 * order the document gives reversed. Written from the document and the reference alone; each
 * replaces rules of ../rules.ts or ../parameter-rules.ts. Gathered, in order, by index.ts.
 */
import { createHash } from 'node:crypto';
import { switchesOf } from '../../switches.js';
import type { SchedulerRules } from '../rules.js';
import { inDefaultNamespace } from './answers.js';
import { remembering, clause as fault } from './edits.js';

// `fault(name, declaration)` makes an entry of this file's table (edits.ts `clause`); the table is declared once, at its end.
const { fault: declared } = switchesOf<SchedulerRules>(['jobs']);

export const clauseRuleSwitches = [
  // ---- defaults lost after a request that gave another value ---------------------------------------
  fault('jobs.eval-priority-sticky', {
    breaks: 'jobs.register.eval-priority',
    statements: ['doc.jobs.register.eval-priority-default'],
    description:
      'a registration without EvalPriority takes the EvalPriority the last registration gave, not the job priority',
    replace: (r) => {
      const last = remembering<number>();
      return { evalPriority: (requested: number) => r.evalPriority(last(requested || undefined) ?? 0) };
    },
  }),
  fault('jobs.parse-variables-sticky', {
    breaks: 'jobs.parse.variables',
    statements: ['doc.jobs.parse.variables-default'],
    description: 'a parse without Variables uses the Variables of the last parse that gave some (default empty)',
    replace: (r) => {
      const last = remembering<string>();
      return { parseVariables: (given: string | undefined) => r.parseVariables(last(given || undefined)) };
    },
  }),
  fault('jobs.list-per-page-sticky', {
    breaks: 'jobs.list.per-page-default-unpaginated',
    statements: ['doc.jobs.list.per-page-default'],
    description: 'a list without per_page is paginated with the per_page of the last list that gave one',
    replace: (r) => {
      const last = remembering<number>();
      return { listPerPage: (given: number | undefined) => r.listPerPage(last(given)) };
    },
  }),
  fault('jobs.versions-diffs-sticky', {
    breaks: 'jobs.versions.no-diffs-by-default',
    statements: ['doc.jobs.versions.diffs-default'],
    description: 'once a versions list asked for diffs=true, lists without diffs carry Diffs too',
    replace: (r) => {
      let asked = false;
      return {
        versionDiffsRequested: (given: boolean | undefined) => {
          if (given === true) asked = true;
          return r.versionDiffsRequested(given ?? (asked || undefined));
        },
      };
    },
  }),
  fault('jobs.allocations-all-by-default', {
    breaks: 'jobs.allocations.all',
    statements: ['doc.jobs.allocations.all-default'],
    description:
      'a list of allocations without all includes those of an earlier job with the same ID (all defaults to true)',
    replace: (r) => ({
      allocationsAllRequested: (given: boolean | undefined) => r.allocationsAllRequested(given ?? true),
    }),
  }),
  fault('jobs.tag-version-sticky', {
    breaks: 'jobs.tag.latest-when-omitted',
    statements: ['doc.jobs.tag.version'],
    description: 'a tag without Version goes to the Version the last tag request gave, not the latest',
    replace: (r) => {
      const last = remembering<number>();
      return {
        tagVersionOf: (requested: number | undefined, latest: number) => r.tagVersionOf(last(requested), latest),
      };
    },
  }),
  fault('jobs.force-reschedule-sticky', {
    breaks: 'jobs.evaluate.force-reschedule',
    statements: ['doc.jobs.evaluate.force-reschedule-default'],
    description:
      'once an evaluate request forced the reschedule, evaluate requests without ForceReschedule force it too',
    replace: (r) => {
      let forced = false;
      return {
        forceRescheduleApplied: (value: boolean, given: boolean | undefined) => {
          if (given === true) forced = true;
          return r.forceRescheduleApplied(given === undefined ? value || forced : value, given);
        },
      };
    },
  }),
  // ---- a rule honoured on one path only --------------------------------------------------------
  fault('jobs.update-enforce-index-ignored', {
    breaks: 'jobs.register.enforce-index',
    statements: ['doc.jobs.register.enforce-index'],
    description:
      'EnforceIndex is honoured on POST /v1/jobs only: an update (POST /v1/job/:job_id) with a stale index registers',
    replace: (r) => ({ enforceIndexChecked: (route) => route !== 'update' && r.enforceIndexChecked(route) }),
  }),
  fault('jobs.enforce-index-zero-overwrites', {
    breaks: 'jobs.register.enforce-index',
    statements: ['doc.jobs.register.enforce-index-zero'],
    description: 'EnforceIndex with JobModifyIndex 0 registers over a job that exists (0 taken as "no index given")',
    replace: () => ({ enforceIndexZeroMeansNew: false }),
  }),
  fault('jobs.revert-by-tag-enforce-prior-ignored', {
    breaks: 'jobs.revert.enforce-prior-version',
    statements: ['doc.jobs.revert.enforce-prior-version'],
    description:
      'EnforcePriorVersion is checked on a revert by JobVersion only: a revert by TaggedVersion with a stale one applies',
    replace: () => ({ revertPriorCheckedByTag: false }),
  }),
  fault('jobs.summary-namespace-ignored', {
    breaks: 'jobs.evaluations.namespace',
    statements: ['doc.jobs.evaluations.namespace'],
    description: 'GET /v1/job/:job_id/summary ignores the namespace query parameter (reads default)',
    replace: inDefaultNamespace('GET /v1/job/*id/summary'),
  }),
  fault('jobs.deployment-namespace-ignored', {
    breaks: 'jobs.evaluations.namespace',
    statements: ['doc.jobs.evaluations.namespace'],
    description: 'GET /v1/job/:job_id/deployment ignores the namespace query parameter (reads default)',
    replace: inDefaultNamespace('GET /v1/job/*id/deployment'),
  }),
  fault('jobs.deployments-namespace-ignored', {
    breaks: 'jobs.allocations.namespace',
    statements: ['doc.jobs.allocations.namespace'],
    description: 'GET /v1/job/:job_id/deployments ignores the namespace query parameter (reads default)',
    replace: inDefaultNamespace('GET /v1/job/*id/deployments'),
  }),
  // ---- limits and orders -----------------------------------------------------------------------
  fault('jobs.dispatch-payload-limit-exclusive', {
    breaks: 'jobs.dispatch.payload-max-16k',
    statements: ['doc.jobs.dispatch.payload-limit', 'doc.jobs.limits.dispatch-payload'],
    description: 'a dispatch payload of exactly 16384 bytes is refused (the limit taken as exclusive)',
    replace: () => ({ dispatchPayloadLimit: 16383 }),
  }),
  fault('jobs.submission-keeps-five', {
    breaks: 'jobs.submission.keep-last-6',
    statements: ['doc.jobs.submission.keep-6', 'doc.jobs.limits.submission-sources'],
    description: 'only the last 5 submission sources are kept, not 6',
    replace: () => ({ submissionsKept: 5 }),
  }),
  fault('jobs.submission-keeps-oldest', {
    breaks: 'jobs.submission.keep-last-6',
    statements: ['doc.jobs.submission.keep-6'],
    description: 'the first 6 submission sources of a job are kept, not the most recent 6',
    replace: () => ({ submissionsKeptNewest: false }),
  }),
  fault('jobs.versions-diffs-against-oldest', {
    breaks: 'jobs.versions.diffs',
    statements: ['doc.jobs.versions.diffs'],
    description: 'with diffs=true each version is diffed against the oldest version listed, not the previous one',
    replace: () => ({ diffsAgainstPrevious: false }),
  }),
  // ---- several items where several are allowed -------------------------------------------------------
  fault('jobs.dispatch-meta-first-only', {
    breaks: 'jobs.dispatch.meta',
    statements: ['doc.jobs.dispatch.meta'],
    description: 'only the first key of a dispatch Meta is stored in the dispatched job',
    replace: (r) => ({
      dispatchedMeta: (meta) => r.dispatchedMeta(meta ? Object.fromEntries(Object.entries(meta).slice(0, 1)) : meta),
    }),
  }),
  fault('jobs.dispatch-meta-required-first-only', {
    breaks: 'jobs.dispatch.meta-required',
    statements: ['doc.jobs.job.parameterized-meta-required'],
    description:
      'a dispatch is checked against the first MetaRequired key only: one lacking another required key is accepted',
    replace: (r) => ({ dispatchRequiredKeys: (required) => r.dispatchRequiredKeys(required.slice(0, 1)) }),
  }),
  // ---- dispatch ------------------------------------------------------------------------------------
  fault('jobs.dispatch-idempotency-keyed-on-body', {
    breaks: 'jobs.dispatch.idempotency-token',
    statements: ['doc.jobs.dispatch.idempotency-token'],
    description:
      'an idempotency_token is compared together with the request body: a second dispatch with the same token and another Meta or Payload dispatches again',
    replace: (r) => ({
      idempotencyKey: (token, request) =>
        `${r.idempotencyKey(token, request)}#${createHash('sha256')
          .update(request.payload)
          .update(JSON.stringify(request.meta ?? {}))
          .digest('hex')}`,
    }),
  }),
  fault('jobs.dispatch-payload-not-decoded', {
    breaks: 'jobs.dispatch.creates-child',
    statements: ['doc.jobs.dispatch.payload'],
    description: 'the base64 text of a dispatch Payload is stored as the payload bytes (never decoded)',
    replace: () => ({ dispatchPayloadBytes: (base64: string) => Buffer.from(base64, 'utf8') }),
  }),
  fault('jobs.dispatch-raw-octet-stream-only', {
    breaks: 'jobs.dispatch.raw-payload',
    statements: ['doc.jobs.dispatch-payload.any-content-type'],
    description: 'dispatch/payload refuses a body that is not sent as application/octet-stream',
    replace: () => ({
      rawDispatchAccepts: (contentType: string) => contentType.startsWith('application/octet-stream'),
    }),
  }),
  fault('jobs.dispatch-raw-trimmed', {
    breaks: 'jobs.dispatch.raw-payload',
    statements: ['doc.jobs.dispatch-payload.body'],
    description: 'dispatch/payload trims the whitespace around the request body before it becomes the Payload',
    replace: (r) => ({
      rawDispatchPayload: (body: Buffer) => Buffer.from(r.rawDispatchPayload(body).toString('latin1').trim(), 'latin1'),
    }),
  }),
  // ---- evaluate, plan, scale -----------------------------------------------------------------------
  fault('jobs.force-reschedule-within-limits-only', {
    breaks: 'jobs.evaluate.force-reschedule',
    statements: ['doc.jobs.evaluate.force-reschedule-limits'],
    description: 'ForceReschedule replaces a failed allocation only while its ReschedulePolicy has attempts left',
    replace: () => ({ forceRescheduleOverridesLimits: false }),
  }),
  fault('jobs.force-reschedule-after-delay-only', {
    breaks: 'jobs.evaluate.force-reschedule',
    statements: ['doc.jobs.evaluate.force-reschedule-delays'],
    description: 'ForceReschedule replaces a failed allocation only once its reschedule delay has passed',
    replace: () => ({ forceRescheduleOverridesDelays: false }),
  }),
  fault('jobs.plan-created-evals-null', {
    breaks: 'jobs.plan.created-evals-blocked',
    statements: ['doc.jobs.plan.response-created-evals'],
    description: 'the plan answers CreatedEvals null, even when its scheduler would create a blocked evaluation',
    replace: () => ({ planCreatedEvals: () => null }),
  }),
  fault('jobs.scale-error-alone-refused', {
    breaks: 'jobs.scale.message-xor-error',
    statements: ['doc.jobs.scale.error'],
    description: 'a scale request with an Error and no Message is refused (only Message is taken)',
    replace: (r) => ({ scaleAccepts: (message, error) => message && r.scaleAccepts(message, error) }),
  }),
  fault('jobs.scale-both-message-and-error-accepted', {
    breaks: 'jobs.scale.message-xor-error',
    statements: ['doc.jobs.scale.message-error'],
    description: 'a scale request with both a Message and an Error is accepted (one with neither is still refused)',
    replace: (r) => ({ scaleAccepts: (message, error) => (message && error) || r.scaleAccepts(message, error) }),
  }),
  fault('jobs.scale-message-ascii-only', {
    breaks: 'jobs.scale.sets-count',
    statements: ['doc.jobs.scale.message'],
    description: 'a scale request whose Message holds a non-ASCII character is refused',
    replace: () => ({ scaleMessageOk: (message: string) => /^[\u0000-\u007f]*$/.test(message) }),
  }),
  fault('jobs.scale-unknown-group-accepted', {
    breaks: 'jobs.scale.target-group-required',
    statements: ['doc.jobs.scale.target-group-name'],
    description:
      'a scale request whose Target.Group names no group of the job answers a write response and scales nothing',
    replace: () => ({ scaleUnknownGroupRefused: false }),
  }),
  // ---- reads -----------------------------------------------------------------------------------------
  fault('jobs.read-ids-case-insensitive', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.read.path'],
    description: 'GET /v1/job/:job_id of an unknown ID answers the job whose ID differs from it only by case',
    replace: () => ({ readCaseSensitive: false }),
  }),
  fault('jobs.update-merges-previous', {
    breaks: 'jobs.update.replaces-definition',
    statements: ['doc.jobs.update.path-job-id'],
    description:
      "an update takes the previous version's value for every top-level field the new definition leaves empty (Meta, Constraints, ...): a merge, not the Job of the body",
    replace: () => ({
      updatedJob: (current, next) => {
        const out = { ...next };
        for (const [k, v] of Object.entries(current))
          if ((out[k] === null || out[k] === undefined) && v !== null && v !== undefined) out[k] = v;
        return out;
      },
    }),
  }),
  // ---- the action stream -------------------------------------------------------------------------
  fault('jobs.action-tty-ignored', {
    breaks: 'jobs.action.tty-size',
    statements: ['doc.jobs.run-action.tty'],
    description:
      'the action runs with a terminal whatever tty says: with tty=false (and without it) the data carries control sequences',
    replace: () => ({ actionTerminal: () => true }),
  }),
  fault('jobs.action-data-not-base64', {
    breaks: 'jobs.action.ws-frames-order',
    statements: ['doc.jobs.run-action.output-frames'],
    description: 'the stdout data frames carry the output as plain text, not base64',
    replace: () => ({ actionDataEncoding: 'utf8' }),
  }),
  fault('jobs.action-no-exited-frame', {
    breaks: 'jobs.action.ws-frames-order',
    statements: ['doc.jobs.run-action.exited-frame'],
    description: 'the action stream sends its output and the stdout close frame, then closes without the exited frame',
    replace: () => ({ actionSendsExited: false }),
  }),
].map(([name, declaration]) => declared(name, declaration));
