/**
 * The jobs area's faults on jobs and their versions (register, read, list, stop, parse; versions,
 * revert, tags, stable, submissions): each breaks one catalogued rule of the jobs API by replacing
 * rules of ../rules.ts (see reference/switches.ts). Gathered, in order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';

const { fault } = switchesOf<SchedulerRules>(['jobs']);

/** A job read with its durations in seconds instead of nanoseconds. */
const secondsView = (view: Job): Job => {
  for (const g of view.TaskGroups ?? [])
    for (const t of g.Tasks ?? []) if (typeof t.KillTimeout === 'number') t.KillTimeout = t.KillTimeout / 1e9;
  return view;
};

export const jobSwitches = [
  fault('jobs.update-no-version-bump', {
    breaks: 'jobs.update.bumps-version',
    statements: ['doc.jobs.versioning.integer-version'],
    description: 'a changed job definition keeps its Version',
    replace: () => ({ nextVersion: (current: number) => current }),
  }),
  fault('jobs.unchanged-bumps-version', {
    breaks: 'jobs.update.unchanged-keeps-version',
    statements: ['doc.jobs.versioning.integer-version'],
    description: 're-registering an identical job makes a new Version',
    replace: () => ({ definitionChanged: () => true }),
  }),
  fault('jobs.enforce-index-ignored', {
    breaks: 'jobs.register.enforce-index',
    statements: ['doc.jobs.register.enforce-index'],
    description: 'EnforceIndex with a stale JobModifyIndex still registers',
    replace: () => ({ enforcesIndex: false }),
  }),
  fault('jobs.enforce-index-new-job-any-index', {
    breaks: 'jobs.register.enforce-index',
    statements: ['doc.jobs.register.enforce-index'],
    description: 'EnforceIndex with a non-zero JobModifyIndex registers a job that does not exist yet',
    replace: () => ({ enforceIndexNewJobNeedsZero: false }),
  }),
  fault('jobs.register-no-eval', {
    breaks: 'jobs.register.eval-created',
    statements: ['doc.jobs.overview.creates-evaluations'],
    description: 'registering a service job creates no evaluation',
    replace: () => ({ registerCreatesEval: false }),
  }),
  fault('jobs.read-unknown-200', {
    breaks: 'jobs.read.unknown-404',
    description: 'reading an unknown job answers 200 with an empty object',
    replace: () => ({ unknownJobIs404: false }),
  }),
  fault('jobs.submission-keeps-all', {
    breaks: 'jobs.submission.keep-last-6',
    statements: ['doc.jobs.submission.keep-6', 'doc.jobs.limits.submission-sources'],
    description: 'every submission source is kept, not only the last 6',
    replace: () => ({ submissionsKept: Number.POSITIVE_INFINITY }),
  }),
  fault('jobs.submission-version-optional', {
    breaks: 'jobs.submission.version-required',
    statements: ['doc.jobs.submission.version-required'],
    description: 'reading a submission without version answers the latest',
    replace: () => ({ submissionVersionRequired: false }),
  }),
  fault('jobs.list-no-next-token', {
    breaks: 'jobs.list.pagination-next-token',
    statements: ['doc.jobs.list.next-token'],
    description: 'a truncated page carries no X-Sched-NextToken header',
    replace: () => ({ listSendsNextToken: false }),
  }),
  fault('jobs.list-token-ignores-namespace', {
    breaks: 'jobs.list.pagination-next-token',
    statements: ['doc.jobs.list.next-token', 'doc.jobs.list.namespace-wildcard'],
    description:
      'next_token is compared with the job IDs alone: a namespace=* walk repeats or skips jobs of the other namespaces',
    replace: () => ({
      compareJobToToken: (job, token) => {
        const id = token.slice(token.indexOf('.') + 1);
        return job.ID === id ? 0 : job.ID < id ? -1 : 1;
      },
    }),
  }),
  fault('jobs.list-page-overfill', {
    breaks: 'jobs.list.per-page-limit',
    statements: ['doc.jobs.list.per-page'],
    description: 'a page holds one item more than per_page',
    replace: () => ({ pageOverfill: true }),
  }),
  fault('jobs.list-prefix-ignored', {
    breaks: 'jobs.list.prefix',
    statements: ['doc.jobs.list.prefix'],
    description: 'the prefix query parameter is ignored',
    replace: () => ({ listHonoursPrefix: false }),
  }),
  fault('jobs.list-prefix-substring', {
    breaks: 'jobs.list.prefix',
    statements: ['doc.jobs.list.prefix'],
    description: 'the prefix query parameter keeps every job whose ID contains it, not only those starting with it',
    replace: () => ({ listPrefixMatches: (id, prefix) => id.includes(prefix) }),
  }),
  fault('jobs.list-filter-ignored', {
    breaks: 'jobs.list.filter',
    statements: ['doc.jobs.list.filter'],
    description: 'the filter expression is ignored',
    replace: () => ({ listHonoursFilter: false }),
  }),
  fault('jobs.list-wildcard-default-only', {
    breaks: 'jobs.list.namespace-wildcard',
    statements: ['doc.jobs.list.namespace-wildcard'],
    description: 'namespace=* lists only the default namespace',
    replace: () => ({ wildcardNamespaces: () => new Set(['default']) }),
  }),
  fault('jobs.list-meta-missing', {
    breaks: 'jobs.list.meta',
    statements: ['doc.jobs.list-item.meta'],
    description: 'meta=true does not add Meta to list items',
    replace: () => ({ listMetaOnRequest: false }),
  }),
  fault('jobs.revert-enforce-prior-ignored', {
    breaks: 'jobs.revert.enforce-prior-version',
    statements: ['doc.jobs.revert.enforce-prior-version'],
    description: 'EnforcePriorVersion that does not match still reverts',
    replace: () => ({ revertEnforcesPrior: false }),
  }),
  fault('jobs.revert-tag-ignored', {
    breaks: 'jobs.revert.by-tag',
    statements: ['doc.jobs.revert.tagged-version', 'doc.jobs.versioning.reverted'],
    description: 'revert by TaggedVersion reverts to version 0',
    replace: () => ({ revertByTag: false }),
  }),
  fault('jobs.revert-wrong-version', {
    breaks: 'jobs.revert.by-version',
    statements: ['doc.jobs.revert.job-version', 'doc.jobs.versioning.reverted'],
    description: 'revert by JobVersion copies the current definition instead of that version',
    replace: () => ({ revertCopiesTarget: false }),
  }),
  fault('jobs.tag-not-unique', {
    breaks: 'jobs.tag.unique-per-job',
    statements: ['doc.jobs.tag.unique'],
    description: 'a tag name already used on another version of the job is accepted',
    replace: () => ({ tagUniquePerJob: false }),
  }),
  fault('jobs.tag-latest-wrong', {
    breaks: 'jobs.tag.latest-when-omitted',
    statements: ['doc.jobs.tag.version'],
    description: 'a tag without Version goes to version 0 instead of the latest',
    replace: () => ({ tagDefaultsToLatest: false }),
  }),
  fault('jobs.stable-ignored', {
    breaks: 'jobs.stable.set',
    statements: ['doc.jobs.stable.stable', 'doc.jobs.versioning.stable'],
    description: 'setting stability does not change Stable',
    replace: () => ({ stableSets: false }),
  }),
  fault('jobs.stable-not-on-job', {
    breaks: 'jobs.stable.set',
    statements: ['doc.jobs.stable.stable', 'doc.jobs.versioning.stable', 'doc.jobs.job.stable'],
    description:
      'marking the current version stable changes it in the versions list only: GET /v1/job/:job_id keeps Stable false',
    replace: () => ({ stableMarksCurrentJob: false }),
  }),
  fault('jobs.versions-diffs-null', {
    breaks: 'jobs.versions.diffs',
    statements: ['doc.jobs.versions.diffs', 'doc.jobs.versioning.compared'],
    description: 'diffs=true returns Diffs null',
    replace: () => ({ versionDiffsGiven: false }),
  }),
  fault('jobs.versions-diff-version-ignored', {
    breaks: 'jobs.versions.diff-version',
    statements: ['doc.jobs.versions.diff-version', 'doc.jobs.versioning.compared'],
    description: 'diff_version is ignored (diffs against the previous version)',
    replace: () => ({ diffVersionHonoured: false }),
  }),
  fault('jobs.stop-purge-ignored', {
    breaks: 'jobs.stop.purge',
    statements: ['doc.jobs.stop.purge', 'doc.jobs.lifecycle.purge-requested'],
    description: 'purge=true leaves the stopped job readable',
    replace: () => ({ stopRemoves: () => false }),
  }),
  fault('jobs.stop-deletes', {
    breaks: 'jobs.stop.marks-stopped',
    statements: ['doc.jobs.stop.purge-default', 'doc.jobs.lifecycle.stopped-gc'],
    description: 'a stop without purge deletes the job at once instead of marking it Stop=true',
    replace: () => ({ stopRemoves: () => true }),
  }),
  fault('jobs.no-shutdown-delay-ignored', {
    breaks: 'jobs.stop.no-shutdown-delay',
    statements: ['doc.jobs.stop.no-shutdown-delay'],
    description: 'no_shutdown_delay=true still waits the group shutdown_delay',
    replace: () => ({ honoursNoShutdownDelay: false }),
  }),
  fault('jobs.no-shutdown-delay-false-skips', {
    breaks: 'jobs.stop.no-shutdown-delay',
    statements: ['doc.jobs.stop.no-shutdown-delay'],
    description: 'no_shutdown_delay=false skips the shutdown delay (any no_shutdown_delay parameter is taken as true)',
    replace: () => ({ noShutdownDelayRequested: (given) => given !== undefined }),
  }),
  fault('jobs.parse-no-canonicalize', {
    breaks: 'jobs.parse.canonicalize',
    statements: ['doc.jobs.parse.canonicalize'],
    description: 'Canonicalize=true does not fill defaults',
    replace: () => ({ parseCanonicalizes: false }),
  }),
  fault('jobs.parse-variables-ignored', {
    breaks: 'jobs.parse.variables',
    statements: ['doc.jobs.parse.variables'],
    description: 'Variables are ignored (variable defaults are used)',
    replace: () => ({ parseUsesVariables: false }),
  }),
  fault('jobs.durations-in-seconds', {
    breaks: 'jobs.types.durations-ns',
    statements: ['doc.jobs.resources.durations-ns'],
    description: 'task KillTimeout is answered in seconds instead of nanoseconds',
    replace: (r) => ({ jobView: (view: Job) => secondsView(r.jobView(view)) }),
  }),
  fault('jobs.namespace-ignored', {
    breaks: 'jobs.namespace.isolation',
    statements: ['doc.jobs.read.namespace', 'doc.jobs.endpoints.namespace'],
    description: 'reading a job finds it in any namespace',
    replace: () => ({ jobsAreNamespaced: false }),
  }),
  fault('jobs.preserve-counts-ignored', {
    breaks: 'jobs.register.preserve-counts',
    statements: ['doc.jobs.register.preserve-counts'],
    description: 'PreserveCounts is ignored on re-registration',
    replace: () => ({ preservesCounts: false }),
  }),
  fault('jobs.eval-priority-ignored', {
    breaks: 'jobs.register.eval-priority',
    statements: ['doc.jobs.register.eval-priority'],
    description: 'EvalPriority is ignored (the evaluation takes the job priority)',
    replace: () => ({ evalPriority: () => 0 }),
  }),
  fault('jobs.submission-from-previous', {
    breaks: 'jobs.submission.absent-when-not-supplied',
    statements: ['doc.jobs.submission.only-if-supplied'],
    description: 'a version registered without Submission answers the previous source',
    replace: () => ({ submissionOnlyWhenSupplied: false }),
  }),
  fault('jobs.versions-diffs-by-default', {
    breaks: 'jobs.versions.no-diffs-by-default',
    statements: ['doc.jobs.versions.diffs-default'],
    description: 'Diffs are filled even without diffs=true',
    replace: () => ({ versionDiffsOnRequest: false }),
  }),
  fault('jobs.versions-diffs-false-fills', {
    breaks: 'jobs.versions.no-diffs-by-default',
    statements: ['doc.jobs.versions.diffs-default'],
    description: 'diffs=false fills Diffs (any diffs parameter is taken as true)',
    replace: () => ({ versionDiffsRequested: (given) => given !== undefined }),
  }),
  fault('jobs.revert-both-accepted', {
    breaks: 'jobs.revert.one-of-version-or-tag',
    statements: ['doc.jobs.revert.one-of-two'],
    description: 'a revert naming both JobVersion and TaggedVersion is accepted',
    replace: () => ({ revertOneOfVersionOrTag: false }),
  }),
  fault('jobs.revert-jobid-optional', {
    breaks: 'jobs.revert.jobid-required',
    statements: ['doc.jobs.revert.job-id'],
    description: 'a revert body without JobID is accepted',
    replace: () => ({ revertJobIdRequired: false }),
  }),
  fault('jobs.tag-delete-ignored', {
    breaks: 'jobs.tag.delete',
    statements: ['doc.jobs.tag-delete.path-only'],
    description: 'deleting a version tag answers 200 but keeps the tag',
    replace: () => ({ tagDeletes: false }),
  }),
  fault('jobs.tag-delete-clears-all', {
    breaks: 'jobs.tag.delete',
    statements: ['doc.jobs.tag-delete.endpoint', 'doc.jobs.tag-delete.path-only'],
    description: 'deleting one version tag removes every tag of the job',
    replace: () => ({ tagDeleteKeepsOthers: false }),
  }),
  fault('jobs.stop-global-rejected', {
    breaks: 'jobs.stop.global',
    statements: ['doc.jobs.stop.global'],
    description: 'global=true is refused with 400',
    replace: () => ({ globalStopAccepted: false }),
  }),
  fault('jobs.stable-replaces-job', {
    breaks: 'jobs.stable.flag-only',
    description: 'marking an older version stable makes it the current definition (no new version, no evaluation)',
    replace: () => ({ stableKeepsJob: false }),
  }),
];
