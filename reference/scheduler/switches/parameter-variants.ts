/**
 * The jobs area's legal variants of the parameters and responses: orders, identifiers and frame
 * sequences the jobs document leaves open (jobs-service.md "Endpoints > Parameters and
 * responses"), each replacing rules of ../parameter-rules.ts or ../rules.ts. index.ts applies them
 * after the faults.
 */
import { switchesOf } from '../../switches.js';
import type { Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';
import { answering, answeringObject } from './answers.js';

const { variant } = switchesOf<SchedulerRules>(['jobs']);

const reversed = (list: unknown): unknown => (Array.isArray(list) ? [...list].reverse() : list);

export const parameterVariantSwitches = [
  variant('jobs.list-page-reversed', {
    allows:
      'jobs-service.md Parameters and responses, List jobs: "Response: array of job list items" (no order given; `prefix` is a filter, `next_token` comes from the previous page)',
    description:
      'The items of every page of GET /v1/jobs come in descending ID order (the pages themselves in the usual walk).',
    replace: answering('GET /v1/jobs', reversed),
  }),
  variant('jobs.versions-oldest-first', {
    allows:
      'jobs-service.md Parameters and responses, List job versions: "`Versions` (array of jobs)", "`Diffs` (null or array of job diffs ...)" (no order given)',
    description: 'GET /v1/job/:job_id/versions lists Versions (and Diffs) oldest first.',
    replace: answeringObject('GET /v1/job/*id/versions', (answer: Job) => ({
      ...answer,
      Versions: reversed(answer.Versions),
      Diffs: reversed(answer.Diffs),
    })),
  }),
  variant('jobs.revert-restores-version', {
    allows:
      'jobs-service.md Versioning: "versions can be ... reverted to (by JobVersion or TaggedVersion)"; whether a revert makes a new version is not shown',
    description:
      'A revert makes the target version current again (its Version number, a new JobModifyIndex) instead of registering its definition as a new version; later updates continue after the highest version (store.ts register).',
    replace: () => ({ revertMakesNewVersion: false }),
  }),
  variant('jobs.action-exit-before-close', {
    allows:
      'jobs-service.md Run action: "Output frames: `{stdout: {data: <base64 bytes>}}`, `{stdout: {close: true}}`, `{exited: true, result: {}}`" (listed without an order)',
    description: 'The action stream sends its exited frame before the stdout close frame (actions.ts).',
    replace: () => ({ actionCloseBeforeExit: false }),
  }),
  variant('jobs.scale-omitted-index-unchecked', {
    allows:
      'jobs-service.md Scale task group: "`EnforceIndex` (boolean, default false), `JobModifyIndex` (integer, default 0)" (what EnforceIndex with the default index means for a job that exists is not said: the register\'s "index 0 means only if the job is new" speaks of registering)',
    description:
      "A scale request with EnforceIndex and no JobModifyIndex is not checked against the job's index (the upstream scheduler compares only an index above 0).",
    replace: () => ({ scaleJobModifyIndexDefault: (current: number) => current }),
  }),
  variant('jobs.dispatch-ids-opaque', {
    allows:
      'jobs-service.md Dispatch job: "`IdPrefixTemplate` (string, prefix for dispatched job IDs)", "Response: ... DispatchedJobID" (the form of a dispatched ID is not shown)',
    description:
      'Dispatched children get IDs that do not start with the parent ID (`dispatch-[<template>-]<time>-<random>`); they are related to the parent by DispatchedJobID and ParentID only.',
    replace: () => ({
      dispatchedId: (_parent: string, template: string, unique: string) =>
        `dispatch-${template ? `${template}-` : ''}${unique}`,
    }),
  }),
];
