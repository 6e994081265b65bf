/**
 * Versions of a job: list with diffs, submissions, revert, stability, tags (jobs-service.md List
 * job versions, Read job submission, Revert job, Set job stability, Tag/Untag version).
 */
import { jobDiff } from '../diff.js';
import { badRequest, notFound } from '../errors.js';
import {
  type Ctx,
  optBool,
  optInt,
  optString,
  optUint,
  parseBoolParam,
  parseIntParam,
  type Reply,
  writeResponse,
} from '../http.js';
import { clone, type Job } from '../job.js';
import type { Route } from '../router.js';
import type { Entry } from '../store.js';
import type { Deps } from './deps.js';

export function versionRoutes(d: Deps): Route[] {
  const { store, rules } = d;

  const readSubmission = (ctx: Ctx, id: string): Reply => {
    const raw = ctx.query.get('version');
    let version: number;
    if (raw === null || !/^[0-9]+$/.test(raw)) {
      const e = store.get(ctx.namespace, id);
      if (!(raw === null && !rules.submissionVersionRequired && e))
        throw badRequest('Unable to parse job submission version parameter');
      version = e.job.Version;
    } else {
      version = Number(raw);
    }
    const subs = store.get(ctx.namespace, id)?.submissions;
    let sub = subs?.get(version);
    if (!sub && subs && !rules.submissionOnlyWhenSupplied) {
      const earlier = [...subs.values()].filter((x) => x.Version < version).sort((a, b) => b.Version - a.Version)[0];
      if (earlier) sub = { ...earlier, Version: version };
    }
    if (!sub) throw notFound('job source not found');
    return { body: clone(sub) };
  };

  const versionsOf = (e: Entry): Job[] => e.versions.map((v) => ({ ...clone(v), Status: store.status(e) }));

  const listVersions = (ctx: Ctx, id: string): Reply => {
    const diffs = rules.versionDiffsRequested(parseBoolParam(ctx.query, 'diffs'));
    let diffVersion = parseIntParam(ctx.query, 'diff_version');
    const diffTag = rules.diffTagHonoured ? ctx.query.get('diff_tag') : null;
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound('job versions not found');
    const versions = versionsOf(e);
    if (diffTag) {
      const tagged = versions.find((v) => v.VersionTag?.Name === diffTag);
      if (!tagged) throw notFound(`tag "${diffTag}" not found on job "${id}"`);
      diffVersion = tagged.Version;
    }
    let out: Job[] | null = null;
    if (diffs || diffVersion !== undefined || !rules.versionDiffsOnRequest) {
      if (!rules.versionDiffsGiven) out = null;
      else if (diffVersion !== undefined && rules.diffVersionHonoured) {
        const base = versions.find((v) => v.Version === diffVersion);
        if (!base) throw notFound(`job "${id}" version ${diffVersion} not found`);
        out = versions.filter((v) => v.Version !== diffVersion).map((v) => jobDiff(base, v));
      } else {
        out = [];
        const oldest = versions[versions.length - 1]!;
        for (let i = 0; i < versions.length - 1; i++)
          out.push(jobDiff(rules.diffsAgainstPrevious ? versions[i + 1]! : oldest, versions[i]!));
      }
    }
    return {
      body: { Diffs: out, Versions: versions, Index: store.index, KnownLeader: true, LastContact: 0, NextToken: '' },
    };
  };

  const revert = (ctx: Ctx, id: string, body: Job): Reply => {
    const jobId = optString(body, 'JobID') ?? (rules.revertJobIdRequired ? undefined : id);
    if (!jobId) throw badRequest('JobID must be specified');
    if (jobId !== id) throw badRequest('Job ID does not match');
    const jobVersion = optUint(body, 'JobVersion');
    const tagged = optString(body, 'TaggedVersion') ?? '';
    if (jobVersion !== undefined && tagged && rules.revertOneOfVersionOrTag)
      throw badRequest('use only one of JobVersion or TaggedVersion');
    const enforce = optInt(body, 'EnforcePriorVersion');
    for (const field of ['DiscoveryToken', 'SecretsToken'] as const) {
      if (optString(body, field) !== undefined && !rules.revertTakes(field)) throw badRequest(`unknown field ${field}`);
    }
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    let target: number;
    if (tagged) {
      const v = e.versions.find((x) => x.VersionTag?.Name === tagged);
      if (!v) throw notFound(`tag "${tagged}" not found on job "${id}"`);
      target = rules.revertByTag ? v.Version : 0;
    } else {
      target = jobVersion ?? rules.revertDefaultVersion(e.job.Version);
    }
    if (target === e.job.Version) throw badRequest("can't revert to current version");
    if (
      enforce !== undefined &&
      enforce !== e.job.Version &&
      rules.revertEnforcesPrior &&
      (!tagged || rules.revertPriorCheckedByTag)
    ) {
      throw badRequest(`Current job has version ${e.job.Version}; enforcing version ${enforce}`);
    }
    const old = e.versions.find((v) => v.Version === target);
    if (!old) throw notFound(`job "${id}" in namespace "${ctx.namespace}" at version ${target} not found`);
    const job = clone(rules.revertCopiesTarget ? old : e.job);
    const result = store.register(job, {
      enforceIndex: enforce !== undefined,
      jobModifyIndex: e.job.JobModifyIndex,
      restoreVersion: !rules.revertMakesNewVersion,
    });
    return { body: writeResponse(result) };
  };

  const stable = (ctx: Ctx, id: string, body: Job): Reply => {
    if (body.JobID !== undefined && !rules.stableTakesJobId) throw badRequest('unknown field JobID');
    const jobId = rules.stableTakesJobId ? optString(body, 'JobID') : id;
    if (!jobId) throw badRequest('JobID must be specified');
    if (jobId !== id) throw badRequest('Job ID does not match');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    const version = optUint(body, 'JobVersion') ?? rules.stableDefaultVersion(e.job.Version);
    const v = e.versions.find((x) => x.Version === version);
    if (!v) throw notFound(`job "${id}" in namespace "${ctx.namespace}" at version ${version} not found`);
    const value =
      body.Stable === undefined || body.Stable === null
        ? rules.stableDefault(Boolean(v.Stable))
        : optBool(body, 'Stable');
    const index = store.nextIndex();
    if (rules.stableSets) {
      v.Stable = value;
      if (e.job.Version === version && rules.stableMarksCurrentJob) e.job.Stable = value;
    }
    if (!rules.stableKeepsJob && value && e.job.Version !== version) {
      e.job = { ...clone(v), Version: e.job.Version, JobModifyIndex: e.job.JobModifyIndex, ModifyIndex: index };
    }
    return { body: { JobModifyIndex: index, Index: index } };
  };

  const tagVersion = (ctx: Ctx, id: string, path: string, body: Job): Reply => {
    const given = optString(body, 'Description') ?? '';
    const description = rules.tagKeepsDescription ? given : '';
    const requested = optUint(body, 'Version');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    const version = rules.tagDefaultsToLatest ? rules.tagVersionOf(requested, e.job.Version) : (requested ?? 0);
    const v = e.versions.find((x) => x.Version === version);
    if (!v) throw notFound(`job "${id}" version ${version} not found`);
    const name = rules.tagName(path);
    const other = e.versions.find((x) => x.VersionTag?.Name === name && x.Version !== version);
    if (other && rules.tagUniquePerJob)
      throw badRequest(`tag "${name}" already exists on a different version of job "${id}"`);
    const tag = { Name: name, Description: description, TaggedTime: store.nowNs() };
    if (rules.tagsKept) {
      v.VersionTag = tag;
      if (e.job.Version === version) e.job.VersionTag = clone(tag);
    }
    const index = store.nextIndex();
    return { body: { ...tag, Index: index, LastContact: 0, KnownLeader: true, NextToken: '' } };
  };

  const untagVersion = (ctx: Ctx, id: string, name: string): Reply => {
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    const v = e.versions.find((x) => x.VersionTag?.Name === name);
    if (!v) throw notFound(`tag "${name}" not found on job "${id}"`);
    if (rules.tagDeletes) {
      for (const x of rules.tagDeleteKeepsOthers ? [v] : e.versions) x.VersionTag = null;
      if (e.job.Version === v.Version || !rules.tagDeleteKeepsOthers) e.job.VersionTag = null;
    }
    const index = store.nextIndex();
    return {
      body: {
        EvalID: '',
        EvalCreateIndex: 0,
        JobModifyIndex: 0,
        Warnings: '',
        VolumeEvalID: '',
        VolumeEvalIndex: 0,
        Index: index,
        LastContact: 0,
        KnownLeader: true,
        NextToken: '',
      },
    };
  };

  return [
    {
      method: 'WRITE',
      path: '/v1/job/*id/versions/:tag/tag',
      acl: 'submit-job',
      body: 'optional-json',
      handle: (ctx, r) => tagVersion(ctx, r.params.id!, r.params.tag!, r.body),
    },
    {
      method: 'DELETE',
      path: '/v1/job/*id/versions/:tag/tag',
      acl: 'submit-job',
      handle: (ctx, r) => untagVersion(ctx, r.params.id!, r.params.tag!),
    },
    {
      method: 'GET',
      path: '/v1/job/*id/versions',
      acl: 'read-job',
      handle: (ctx, r) => listVersions(ctx, r.params.id!),
    },
    {
      method: 'WRITE',
      path: '/v1/job/*id/revert',
      acl: 'submit-job',
      body: 'json',
      handle: (ctx, r) => revert(ctx, r.params.id!, r.body),
    },
    {
      method: 'WRITE',
      path: '/v1/job/*id/stable',
      acl: 'submit-job',
      body: 'json',
      handle: (ctx, r) => stable(ctx, r.params.id!, r.body),
    },
    {
      method: 'GET',
      path: '/v1/job/*id/submission',
      acl: 'read-job',
      handle: (ctx, r) => readSubmission(ctx, r.params.id!),
    },
  ];
}
