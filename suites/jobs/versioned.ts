/**
 * Steps shared by the files on versions of a job (versions, tags, revert): a service job whose
 * task's MODE environment variable tells its versions apart, and the requests that tag and revert.
 */
import type { T } from '../../harness/index.js';
import type { JobDefinition } from '../../fixtures/jobs/index.js';
import { body, currentVersion, enc, readJob, registered, update, type Obj, ok } from './helpers.js';

/** A copy of the job with the task's MODE environment variable set (one field diff per change). */
export function withMode(job: JobDefinition, mode: string): JobDefinition {
  const next = structuredClone(job);
  next.TaskGroups![0]!.Tasks![0]!.Env = { MODE: mode };
  return next;
}

/**
 * Registers the service fixture (MODE=primary) and applies each further mode as a new version.
 * `v` holds the Version read back after each write (`v[0]` the registration's): the document says
 * a Version is an integer, not where versions start or how they count.
 */
export async function versioned(
  t: T,
  base: string,
  ...modes: string[]
): Promise<{ id: string; job: JobDefinition; v: number[] }> {
  const { id, job } = await registered(t, 'service', base);
  const v = [await currentVersion(t, id)];
  for (const m of modes) {
    t.check(await update(t, withMode(job, m)), ok);
    v.push(await currentVersion(t, id));
  }
  return { id, job, v };
}

export const modeOf = (job: Obj): unknown => job.TaskGroups?.[0]?.Tasks?.[0]?.Env?.MODE;

/** Every field diff anywhere in a job diff (job, group, task and object levels). */
export function fieldDiffs(diff: Obj | null | undefined): Obj[] {
  if (!diff) return [];
  const out: Obj[] = [...(diff.Fields ?? [])];
  for (const o of diff.Objects ?? []) out.push(...fieldDiffs(o));
  for (const g of diff.TaskGroups ?? []) out.push(...fieldDiffs(g));
  for (const tk of diff.Tasks ?? []) out.push(...fieldDiffs(tk));
  return out;
}

/** The field diff of the MODE variable from `oldV` to `newV` in any of the job diffs, if there is one. */
export const envDiff = (diffs: Obj[] | null, oldV: string, newV: string): Obj | undefined =>
  (diffs ?? [])
    .flatMap((d) => fieldDiffs(d))
    .find((f) => String(f.Name).includes('MODE') && f.Old === oldV && f.New === newV);

export const hasEnvDiff = (diffs: Obj[] | null, oldV: string, newV: string): boolean =>
  envDiff(diffs, oldV, newV) !== undefined;

export async function tag(t: T, id: string, name: string, reqBody?: Obj) {
  return t.sched.post(`job/${enc(id)}/versions/${enc(name)}/tag`, { body: reqBody ?? {} });
}

export async function revert(t: T, id: string, reqBody: Obj) {
  return t.sched.post(`job/${enc(id)}/revert`, { body: { JobID: id, ...reqBody } });
}

/** The job's versions as listed (in whatever order the scheduler gives them). */
export async function versionsOf(t: T, id: string): Promise<Obj[]> {
  const ex = await t.sched.get(`job/${enc(id)}/versions`);
  t.check(ex, ok);
  return (body(ex).Versions ?? []) as Obj[];
}

/** The version numbers of a job, lowest first. */
export const versionNumbers = async (t: T, id: string): Promise<number[]> =>
  (await versionsOf(t, id)).map((v) => Number(v.Version)).sort((a, b) => a - b);

/** The Old of the MODE field diff whose New is `newest`, in any of the job diffs, if there is one. */
const fromTo = (diffs: Obj[] | null, newest: string): unknown =>
  (diffs ?? []).flatMap((d) => fieldDiffs(d)).find((f) => String(f.Name).includes('MODE') && f.New === newest)?.Old;

/**
 * The MODE of the version the tag `name` names, read the ways the document gives a tag to be read:
 * compared by tag name (the suite's diff_tag, an assumption), and otherwise reverted to
 * (TaggedVersion), which makes a new version: call it last. The newest version (MODE `newest`) is
 * compared with the tagged one; the caller arranges that the newest version's predecessor has
 * another MODE than the tagged version, so a comparison that equals the plain one (with the
 * predecessor) shows that diff_tag was not honoured, and the revert decides. A tag is read
 * without leaning on one of the two rules a scheduler may lack.
 */
export async function taggedMode(t: T, id: string, name: string, newest: string): Promise<unknown> {
  if (t.config.assumptions['jobs.versions.diff-tag'] !== false) {
    const [tagged, plain] = [
      await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true, diff_tag: name } }),
      await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true } }),
    ];
    const ok2xx = (s: number) => s >= 200 && s < 300;
    if (ok2xx(tagged.response.status) && ok2xx(plain.response.status)) {
      const viaTag = fromTo(body(tagged).Diffs, newest);
      const viaPredecessor = fromTo(body(plain).Diffs, newest);
      if (viaTag !== viaPredecessor) return viaTag === undefined ? newest : viaTag;
    }
  }
  t.check(await revert(t, id, { TaggedVersion: name }), ok);
  return modeOf(await readJob(t, id));
}
