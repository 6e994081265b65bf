/**
 * The jobs area's faults on the parameters and responses of jobs and their versions
 * (jobs-service.md "Endpoints > Parameters and responses": list, create and update, parse, read,
 * submission, versions, revert, stability, tags): each breaks one statement of that section, the
 * way a vendor's build might (a parameter ignored, a default wrong, a field dropped), by replacing
 * rules of ../parameter-rules.ts or ../rules.ts. Gathered, in order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';
import { answeringObject, fieldDiffsOf, inDefaultNamespace, nullWhenEmpty } from './answers.js';

const { fault } = switchesOf<SchedulerRules>(['jobs']);

/** Group counts a submitted source declares (`count = N`), applied to the job's groups in order. */
const countsOfSource = (job: Job, submission: Job | null): Job => {
  const counts = [...String(submission?.Source ?? '').matchAll(/\bcount\s*=\s*(\d+)/g)].map((m) => Number(m[1]));
  (job.TaskGroups ?? []).forEach((g: Job, i: number) => {
    if (counts[i] !== undefined) g.Count = counts[i];
  });
  return job;
};

export const parameterJobSwitches = [
  // ---- list jobs ---------------------------------------------------------------------------------
  fault('jobs.list-default-page-100', {
    breaks: 'jobs.list.per-page-default-unpaginated',
    statements: ['doc.jobs.list.per-page-default', 'doc.jobs.limits.per-page-default'],
    description: 'without per_page the list is paginated 100 items a page (a default page size instead of 0)',
    replace: () => ({ listDefaultPerPage: 100 }),
  }),
  fault('jobs.list-wildcard-unauthorized', {
    breaks: 'jobs.list.namespace-wildcard',
    statements: ['doc.jobs.list.namespace-wildcard'],
    description: 'namespace=* lists every namespace, also those the token may not list',
    replace: () => ({ wildcardNamespaces: (_allowed: Set<string>, all: Set<string>) => all }),
  }),
  fault('jobs.list-meta-by-default', {
    breaks: 'jobs.list.meta-default',
    statements: ['doc.jobs.list.meta-default'],
    description: 'list items carry the job meta without meta=true (meta defaults to true)',
    replace: () => ({ listMetaDefault: true }),
  }),
  fault('jobs.list-null-when-empty', {
    breaks: 'jobs.list.returns-items',
    statements: ['doc.jobs.list.response'],
    description: 'a list that matches no job is answered null instead of an empty array',
    replace: nullWhenEmpty('GET /v1/jobs'),
  }),
  // ---- create and update -------------------------------------------------------------------------
  fault('jobs.register-without-job-accepted', {
    breaks: 'jobs.register.job-required',
    statements: ['doc.jobs.register.job-required'],
    description: 'POST /v1/jobs without Job answers 200 (a write response registering nothing)',
    replace: (r) => ({ jobRequired: { ...r.jobRequired, create: false } }),
  }),
  fault('jobs.update-without-job-accepted', {
    breaks: 'jobs.register.job-required',
    statements: ['doc.jobs.register.job-required'],
    description: 'POST /v1/job/:job_id without Job answers 200 (a write response registering nothing)',
    replace: (r) => ({ jobRequired: { ...r.jobRequired, update: false } }),
  }),
  fault('jobs.submission-schedules-source', {
    breaks: 'jobs.register.submission-reference-only',
    statements: ['doc.jobs.register.submission', 'doc.jobs.overview.submission-reference-only'],
    description: 'the group counts of a submitted source override the JSON job (the Submission used for scheduling)',
    replace: () => ({ scheduledDefinition: countsOfSource }),
  }),
  fault('jobs.job-modify-index-enforced-without-flag', {
    breaks: 'jobs.register.enforce-index',
    statements: ['doc.jobs.register.enforce-index-default'],
    description: 'a JobModifyIndex sent without EnforceIndex is enforced (EnforceIndex taken as true)',
    replace: () => ({ enforceIndexRequested: (flag, index) => flag || index !== undefined }),
  }),
  fault('jobs.eval-priority-default-50', {
    breaks: 'jobs.register.eval-priority',
    statements: ['doc.jobs.register.eval-priority-default'],
    description: 'without EvalPriority the evaluation gets priority 50 instead of the job priority',
    replace: (r) => ({ evalPriority: (requested: number) => r.evalPriority(requested) || 50 }),
  }),
  fault('jobs.job-modify-index-default-current', {
    breaks: 'jobs.register.enforce-index',
    statements: ['doc.jobs.register.job-modify-index'],
    description: 'an omitted JobModifyIndex reads as the current index, so EnforceIndex alone always passes',
    replace: () => ({ jobModifyIndexDefault: (current: number) => current }),
  }),
  fault('jobs.register-policy-override-ignored', {
    breaks: 'jobs.acl.policy-override',
    statements: ['doc.jobs.register.policy-override'],
    description: 'POST /v1/jobs ignores PolicyOverride (no policy-override capability needed)',
    replace: (r) => ({ policyOverrideChecked: (route) => route !== 'register' && r.policyOverrideChecked(route) }),
  }),
  fault('jobs.register-policy-override-false-checked', {
    breaks: 'jobs.acl.policy-override',
    statements: ['doc.jobs.endpoints.policy-override-acl', 'doc.jobs.register.policy-override'],
    description:
      'POST /v1/jobs with PolicyOverride false needs namespace:policy-override (any PolicyOverride value is taken as true)',
    replace: () => ({ policyOverrideFalseHonoured: false }),
  }),
  fault('jobs.preserve-counts-by-default', {
    breaks: 'jobs.register.preserve-counts',
    statements: ['doc.jobs.register.preserve-counts-default'],
    description: 'a re-registration without PreserveCounts keeps the existing group counts (default true)',
    replace: () => ({ preserveCountsDefault: true }),
  }),
  fault('jobs.preserve-counts-false-preserves', {
    breaks: 'jobs.register.preserve-counts',
    statements: ['doc.jobs.register.preserve-counts-default'],
    description: 'PreserveCounts: false keeps the existing group counts (any PreserveCounts value is taken as true)',
    replace: () => ({ preserveCountsFalseHonoured: false }),
  }),
  fault('jobs.update-registers-body-id', {
    breaks: 'jobs.update.path-job-id',
    statements: ['doc.jobs.update.path-job-id'],
    description: 'POST /v1/job/:job_id registers the body job under its own ID, whatever job the path names',
    replace: () => ({ updateMatchesPathId: false }),
  }),
  fault('jobs.update-namespace-ignored', {
    breaks: 'jobs.update.namespace',
    statements: ['doc.jobs.update.namespace'],
    description: 'POST /v1/job/:job_id ignores the namespace query parameter (updates in default)',
    replace: inDefaultNamespace('WRITE /v1/job/*id'),
  }),
  fault('jobs.register-answer-no-job-modify-index', {
    breaks: 'jobs.register.creates-job',
    statements: ['doc.jobs.register.response'],
    description: 'the write response of POST /v1/jobs has no JobModifyIndex',
    replace: answeringObject('WRITE /v1/jobs', ({ JobModifyIndex: _, ...rest }) => rest),
  }),
  // ---- parse and read ----------------------------------------------------------------------------
  fault('jobs.parse-namespace-ignored', {
    breaks: 'jobs.parse.namespace',
    statements: ['doc.jobs.parse.namespace'],
    description: 'POST /v1/jobs/parse ignores the namespace query parameter (acts, and checks ACLs, in default)',
    replace: inDefaultNamespace('WRITE /v1/jobs/parse'),
  }),
  fault('jobs.parse-jobhcl-optional', {
    breaks: 'jobs.parse.jobhcl-required',
    statements: ['doc.jobs.parse.jobhcl'],
    description: 'a parse request without JobHCL answers 200 with an empty job',
    replace: () => ({ parseNeedsJobHcl: false }),
  }),
  fault('jobs.parse-canonicalizes-by-default', {
    breaks: 'jobs.parse.canonicalize',
    statements: ['doc.jobs.parse.canonicalize-default'],
    description: 'a parse without Canonicalize fills the defaults (Canonicalize defaults to true)',
    replace: () => ({ parseCanonicalizeDefault: true }),
  }),
  fault('jobs.parse-canonicalize-false-fills', {
    breaks: 'jobs.parse.canonicalize',
    statements: ['doc.jobs.parse.canonicalize-default'],
    description: 'Canonicalize: false fills the defaults (any Canonicalize value is taken as true)',
    replace: () => ({ parseCanonicalizeFalseHonoured: false }),
  }),
  fault('jobs.parse-drops-resources', {
    breaks: 'jobs.parse.hcl-to-json',
    statements: ['doc.jobs.parse.response'],
    description: "the parsed JSON job leaves out the tasks' Resources",
    replace: answeringObject('WRITE /v1/jobs/parse', (job) => {
      for (const g of job.TaskGroups ?? []) for (const t of g.Tasks ?? []) delete t.Resources;
      return job;
    }),
  }),
  fault('jobs.read-prefix-match', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.read.path'],
    description: 'GET /v1/job/:job_id of an unknown ID answers a job whose ID starts with it',
    replace: () => ({ readExactId: false }),
  }),
  fault('jobs.read-wrapped', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.read.response'],
    description: 'GET /v1/job/:job_id answers {Job: <job>} instead of the job',
    replace: answeringObject('GET /v1/job/*id', (job) => ({ Job: job })),
  }),
  // ---- submission and versions -------------------------------------------------------------------
  fault('jobs.submission-namespace-ignored', {
    breaks: 'jobs.submission.namespace',
    statements: ['doc.jobs.submission.namespace'],
    description: 'GET /v1/job/:job_id/submission ignores the namespace query parameter (reads default)',
    replace: inDefaultNamespace('GET /v1/job/*id/submission'),
  }),
  fault('jobs.submission-wrapped', {
    breaks: 'jobs.submission.read',
    statements: ['doc.jobs.submission.response'],
    description: 'GET /v1/job/:job_id/submission answers {Submission: <submission>} instead of the submission',
    replace: answeringObject('GET /v1/job/*id/submission', (submission) => ({ Submission: submission })),
  }),
  fault('jobs.versions-namespace-ignored', {
    breaks: 'jobs.versions.namespace',
    statements: ['doc.jobs.versions.namespace'],
    description: 'GET /v1/job/:job_id/versions ignores the namespace query parameter (reads default)',
    replace: inDefaultNamespace('GET /v1/job/*id/versions'),
  }),
  fault('jobs.versions-diff-fields-untyped', {
    breaks: 'jobs.versions.diffs',
    statements: ['doc.jobs.versions.diff-field-diffs'],
    description: 'the field diffs of the versions answer carry no Type and no Annotations',
    replace: answeringObject('GET /v1/job/*id/versions', (answer) => {
      for (const d of Array.isArray(answer.Diffs) ? answer.Diffs : [])
        for (const f of fieldDiffsOf(d)) {
          delete f.Type;
          delete f.Annotations;
        }
      return answer;
    }),
  }),
  fault('jobs.versions-current-only', {
    breaks: 'jobs.versions.list',
    statements: ['doc.jobs.versions.versions'],
    description: 'Versions lists only the current version of the job',
    replace: answeringObject('GET /v1/job/*id/versions', (answer) => {
      const versions: Job[] = Array.isArray(answer.Versions) ? answer.Versions : [];
      const newest = Math.max(...versions.map((v) => Number(v.Version)));
      return { ...answer, Versions: versions.filter((v) => v.Version === newest) };
    }),
  }),
  fault('jobs.versions-no-last-contact', {
    breaks: 'jobs.versions.list',
    statements: ['doc.jobs.versions.query-meta'],
    description: 'the versions answer has no LastContact',
    replace: answeringObject('GET /v1/job/*id/versions', ({ LastContact: _, ...rest }) => rest),
  }),
  // ---- revert, stability and tags ----------------------------------------------------------------
  fault('jobs.revert-default-previous', {
    breaks: 'jobs.revert.by-version',
    statements: ['doc.jobs.revert.job-version-default'],
    description: 'a revert naming neither JobVersion nor TaggedVersion goes to the previous version, not version 0',
    replace: () => ({ revertDefaultVersion: (current: number) => Math.max(0, current - 1) }),
  }),
  fault('jobs.revert-discovery-token-refused', {
    breaks: 'jobs.revert.tokens-optional',
    statements: ['doc.jobs.revert.discovery-token'],
    description: 'a revert carrying DiscoveryToken is refused as an unknown field',
    replace: (r) => ({ revertTakes: (field) => field !== 'DiscoveryToken' && r.revertTakes(field) }),
  }),
  fault('jobs.revert-secrets-token-refused', {
    breaks: 'jobs.revert.tokens-optional',
    statements: ['doc.jobs.revert.secrets-token'],
    description: 'a revert carrying SecretsToken is refused as an unknown field',
    replace: (r) => ({ revertTakes: (field) => field !== 'SecretsToken' && r.revertTakes(field) }),
  }),
  fault('jobs.revert-namespace-ignored', {
    breaks: 'jobs.revert.namespace',
    statements: ['doc.jobs.revert.namespace'],
    description: 'POST /v1/job/:job_id/revert ignores the namespace query parameter (reverts in default)',
    replace: inDefaultNamespace('WRITE /v1/job/*id/revert'),
  }),
  fault('jobs.revert-answer-job-modify-index-zero', {
    breaks: 'jobs.revert.by-version',
    statements: ['doc.jobs.revert.response'],
    description: "the revert's write response carries JobModifyIndex 0 instead of the reverted job's",
    replace: answeringObject('WRITE /v1/job/*id/revert', (answer) => ({ ...answer, JobModifyIndex: 0 })),
  }),
  fault('jobs.stable-jobid-refused', {
    breaks: 'jobs.stable.set',
    statements: ['doc.jobs.stable.job-id'],
    description: 'a stability body carrying JobID is refused as an unknown field (the job is taken from the path)',
    replace: () => ({ stableTakesJobId: false }),
  }),
  fault('jobs.stable-version-default-latest', {
    breaks: 'jobs.stable.set',
    statements: ['doc.jobs.stable.job-version'],
    description: 'a stability request without JobVersion marks the current version, not version 0',
    replace: () => ({ stableDefaultVersion: (current: number) => current }),
  }),
  fault('jobs.stable-omitted-keeps-flag', {
    breaks: 'jobs.stable.set',
    statements: ['doc.jobs.stable.stable'],
    description: 'a stability request without Stable leaves the flag as it was (instead of false)',
    replace: () => ({ stableDefault: (current: boolean) => current }),
  }),
  fault('jobs.stable-answer-no-job-modify-index', {
    breaks: 'jobs.stable.set',
    statements: ['doc.jobs.stable.response'],
    description: 'POST /v1/job/:job_id/stable answers without JobModifyIndex',
    replace: answeringObject('WRITE /v1/job/*id/stable', ({ JobModifyIndex: _, ...rest }) => rest),
  }),
  fault('jobs.tag-name-lowercased', {
    breaks: 'jobs.tag.create',
    statements: ['doc.jobs.tag.path'],
    description: 'the tag is stored under the path tag_name lowercased (Release-1 becomes release-1)',
    replace: () => ({ tagName: (path: string) => path.toLowerCase() }),
  }),
  fault('jobs.tag-description-dropped', {
    breaks: 'jobs.tag.create',
    statements: ['doc.jobs.tag.description'],
    description: 'the tag Description is not kept',
    replace: () => ({ tagKeepsDescription: false }),
  }),
  fault('jobs.tag-version-collected', {
    breaks: 'jobs.tag.not-garbage-collected',
    statements: ['doc.jobs.tag.not-garbage-collected'],
    description: 'tagged versions are collected like untagged ones once newer versions pile up',
    replace: () => ({ tagsKeepVersions: false }),
  }),
  fault('jobs.versions-diff-tag-ignored', {
    breaks: 'jobs.versions.diff-tag',
    statements: ['doc.jobs.tag.compare-by-name'],
    description: 'diff_tag is ignored (versions are compared with their predecessor)',
    replace: () => ({ diffTagHonoured: false }),
  }),
  fault('jobs.tag-answers-write-response', {
    breaks: 'jobs.tag.create',
    statements: ['doc.jobs.tag.response'],
    description: 'tagging a version answers a write response instead of the version tag',
    replace: answeringObject('WRITE /v1/job/*id/versions/:tag/tag', ({ Index }) => ({
      JobModifyIndex: 0,
      Index,
      Warnings: '',
      LastContact: 0,
      KnownLeader: true,
    })),
  }),
  fault('jobs.tag-delete-answers-bare', {
    breaks: 'jobs.tag.delete',
    statements: ['doc.jobs.tag-delete.response'],
    description: 'deleting a version tag answers only JobModifyIndex (no VolumeEvalID, VolumeEvalIndex, query meta)',
    replace: answeringObject('DELETE /v1/job/*id/versions/:tag/tag', ({ JobModifyIndex }) => ({ JobModifyIndex })),
  }),
];
