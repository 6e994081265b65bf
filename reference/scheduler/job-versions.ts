/**
 * A job's versions and submissions in the reference scheduler's store: what an update may not
 * change, which versions are kept (jobs-service.md: the current one, tagged ones and the newest
 * untagged ones), and the submissions (source) of the newest versions.
 */
import { badRequest } from './errors.js';
import { isParameterized, isPeriodic, type Job } from './job.js';
import type { Entry } from './store.js';

export const UNTAGGED_VERSIONS_KEPT = 6;

export interface Submission {
  Source: string;
  Format: string;
  VariableFlags: Record<string, string> | null;
  Variables: string;
  Namespace: string;
  JobID: string;
  Version: number;
  JobIndex: number;
}

/** What an update of a job may not change (its type, periodic or parameterized, Dispatched). */
export function checkUpdate(old: Job, next: Job): void {
  if (old.Type !== next.Type) throw badRequest(`cannot update job from type "${old.Type}" to "${next.Type}"`);
  if (isPeriodic(old) && !isPeriodic(next)) throw badRequest('cannot update periodic job to being non-periodic');
  if (!isPeriodic(old) && isPeriodic(next)) throw badRequest('cannot update non-periodic job to being periodic');
  if (isParameterized(old) !== isParameterized(next)) {
    throw badRequest(
      isParameterized(old)
        ? 'cannot update parameterized job to being non-parameterized'
        : 'cannot update non-parameterized job to being parameterized',
    );
  }
  if (Boolean(old.Dispatched) !== Boolean(next.Dispatched)) throw badRequest("field 'Dispatched' is read-only");
}

/** Keeps the current version, every tagged one (`tagsKeep`) and the newest untagged ones. */
export function pruneVersions(e: Entry, tagsKeep = true): void {
  let untagged = 0;
  e.versions = e.versions.filter((v, i) => {
    if (i === 0 || (v.VersionTag && tagsKeep)) return true;
    untagged += 1;
    return untagged < UNTAGGED_VERSIONS_KEPT;
  });
}

/** Records the source a version was submitted from, keeping the newest `kept`. */
export function addSubmission(
  e: Entry,
  s: Omit<Submission, 'Namespace' | 'JobID' | 'Version' | 'JobIndex'>,
  kept: number,
  newest = true,
): void {
  e.submissions.set(e.job.Version, {
    ...s,
    Namespace: e.job.Namespace,
    JobID: e.job.ID,
    Version: e.job.Version,
    JobIndex: e.job.JobModifyIndex,
  });
  const versions = [...e.submissions.keys()].sort((a, b) => (newest ? b - a : a - b));
  for (const v of versions.slice(kept)) e.submissions.delete(v);
}
