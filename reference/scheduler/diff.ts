/**
 * Structured job diffs in the shape the real scheduler returns from versions (`diffs=true`) and
 * plan (`Diff=true`): a job diff holds field diffs (Name, Old, New, Type, Annotations), object
 * diffs for nested structures, and task group diffs holding task diffs. Only changes are listed;
 * values are rendered as strings (durations as their nanosecond integers).
 */
export type DiffType = 'Added' | 'Deleted' | 'Edited' | 'None';

export interface FieldDiff {
  Type: DiffType;
  Name: string;
  Old: string;
  New: string;
  Annotations: string[] | null;
}
export interface ObjectDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
}
export interface TaskDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Annotations: string[] | null;
}
export interface TaskGroupDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Tasks: TaskDiff[] | null;
  Updates: Record<string, number> | null;
}
export interface JobDiff {
  Type: DiffType;
  ID: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  TaskGroups: TaskGroupDiff[] | null;
}

type Obj = Record<string, unknown>;

/** Fields that change on every write or are secrets: never part of a diff. */
const JOB_SKIP = new Set([
  'ID',
  'Status',
  'StatusDescription',
  'Version',
  'Stable',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'SubmitTime',
  'TaskGroups',
  'VersionTag',
  'SchedTokenID',
  'NomadTokenID',
  'SecretsToken',
  'DiscoveryToken',
  'Payload',
  'Dispatched',
  'DispatchIdempotencyToken',
]);
const GROUP_SKIP = new Set(['Name', 'Tasks']);
const TASK_SKIP = new Set(['Name']);
/** Maps with user-chosen keys: flattened to `Name[key]` fields rather than nested objects. */
const MAP_FIELDS = new Set(['Meta', 'Env', 'Config', 'GetterOptions', 'GetterHeaders', 'VariableFlags']);

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEmptyVal = (v: unknown) =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
const render = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const orNull = <T>(xs: T[]): T[] | null => (xs.length ? xs : null);
const byName = <T extends { Name: string }>(a: T, b: T) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0);

function fieldDiff(name: string, oldV: unknown, newV: unknown): FieldDiff | null {
  const o = render(oldV);
  const n = render(newV);
  if (o === n) return null;
  const Type: DiffType =
    oldV === undefined || oldV === null ? 'Added' : newV === undefined || newV === null ? 'Deleted' : 'Edited';
  return { Type, Name: name, Old: o, New: n, Annotations: null };
}

/** Flattens a user map into `Name[key]` (and `Name[key][0]` for nested values). */
function flatten(prefix: string, v: unknown, out: Map<string, unknown>): void {
  if (isObj(v)) for (const [k, sub] of Object.entries(v)) flatten(`${prefix}[${k}]`, sub, out);
  else if (Array.isArray(v)) {
    for (const [i, sub] of v.entries()) flatten(`${prefix}[${i}]`, sub, out);
  } else out.set(prefix, v);
}

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

function keyOf(el: unknown): string {
  if (isObj(el)) {
    for (const k of ['Name', 'Label']) if (typeof el[k] === 'string' && el[k]) return `${k}:${el[k] as string}`;
  }
  return `json:${JSON.stringify(el)}`;
}

interface Parts {
  fields: FieldDiff[];
  objects: ObjectDiff[];
}

function diffObjects(oldO: Obj | null, newO: Obj | null, skip: Set<string>): Parts {
  const fields: FieldDiff[] = [];
  const objects: ObjectDiff[] = [];
  const keys = [...new Set([...Object.keys(oldO ?? {}), ...Object.keys(newO ?? {})])]
    .filter((k) => !skip.has(k))
    .sort();
  for (const k of keys) {
    const o = oldO?.[k];
    const n = newO?.[k];
    if (
      MAP_FIELDS.has(k) &&
      (isObj(o) || isObj(n) || isEmptyVal(o) || isEmptyVal(n)) &&
      !(Array.isArray(o) || Array.isArray(n))
    ) {
      const fo = new Map<string, unknown>();
      const fn = new Map<string, unknown>();
      flatten(k, o ?? {}, fo);
      flatten(k, n ?? {}, fn);
      for (const name of [...new Set([...fo.keys(), ...fn.keys()])].sort()) {
        const d = fieldDiff(name, fo.get(name), fn.get(name));
        if (d) fields.push(d);
      }
    } else if (Array.isArray(o) || Array.isArray(n)) {
      objects.push(...diffArrays(k, (o as unknown[] | null) ?? [], (n as unknown[] | null) ?? []));
    } else if (isObj(o) || isObj(n)) {
      const d = objectDiff(k, isObj(o) ? o : null, isObj(n) ? n : null);
      if (d) objects.push(d);
    } else {
      const d = fieldDiff(k, o, n);
      if (d) fields.push(d);
    }
  }
  return { fields, objects };
}

function objectDiff(name: string, o: Obj | null, n: Obj | null): ObjectDiff | null {
  const { fields, objects } = diffObjects(o, n, new Set());
  if (!fields.length && !objects.length) return null;
  const Type: DiffType = o === null ? 'Added' : n === null ? 'Deleted' : 'Edited';
  return { Type, Name: name, Fields: orNull(fields), Objects: orNull(objects) };
}

function diffArrays(name: string, o: unknown[], n: unknown[]): ObjectDiff[] {
  const primitive = [...o, ...n].every((v) => !isObj(v) && !Array.isArray(v));
  if (primitive) {
    const olds = new Set(o.map(render));
    const news = new Set(n.map(render));
    const fields: FieldDiff[] = [];
    for (const v of [...olds].filter((x) => !news.has(x)).sort())
      fields.push({ Type: 'Deleted', Name: name, Old: v, New: '', Annotations: null });
    for (const v of [...news].filter((x) => !olds.has(x)).sort())
      fields.push({ Type: 'Added', Name: name, Old: '', New: v, Annotations: null });
    if (!fields.length) return [];
    const Type: DiffType = o.length === 0 ? 'Added' : n.length === 0 ? 'Deleted' : 'Edited';
    return [{ Type, Name: name, Fields: fields, Objects: null }];
  }
  const single = singular(name);
  const oldBy = new Map(o.map((v) => [keyOf(v), v]));
  const newBy = new Map(n.map((v) => [keyOf(v), v]));
  const out: ObjectDiff[] = [];
  for (const key of [...new Set([...oldBy.keys(), ...newBy.keys()])]) {
    const ov = oldBy.get(key);
    const nv = newBy.get(key);
    const d = objectDiff(single, isObj(ov) ? ov : null, isObj(nv) ? nv : null);
    if (d) out.push(d);
  }
  return out;
}

function typeOf(o: unknown, n: unknown, changed: boolean): DiffType {
  if (o === null || o === undefined) return 'Added';
  if (n === null || n === undefined) return 'Deleted';
  return changed ? 'Edited' : 'None';
}

export function taskDiff(o: Obj | null, n: Obj | null): TaskDiff | null {
  const { fields, objects } = diffObjects(o, n, TASK_SKIP);
  const Type = typeOf(o, n, fields.length + objects.length > 0);
  if (Type === 'None') return null;
  return {
    Type,
    Name: String((n ?? o)!.Name ?? ''),
    Fields: orNull(fields),
    Objects: orNull(objects),
    Annotations: null,
  };
}

export function taskGroupDiff(o: Obj | null, n: Obj | null): TaskGroupDiff | null {
  const { fields, objects } = diffObjects(o, n, GROUP_SKIP);
  const tasks = matchByName((o?.Tasks as Obj[] | null) ?? [], (n?.Tasks as Obj[] | null) ?? [])
    .map(([a, b]) => taskDiff(a, b))
    .filter((d): d is TaskDiff => d !== null)
    .sort(byName);
  const Type = typeOf(o, n, fields.length + objects.length + tasks.length > 0);
  if (Type === 'None') return null;
  return {
    Type,
    Name: String((n ?? o)!.Name ?? ''),
    Fields: orNull(fields),
    Objects: orNull(objects),
    Tasks: orNull(tasks),
    Updates: null,
  };
}

function matchByName(o: Obj[], n: Obj[]): Array<[Obj | null, Obj | null]> {
  const names = [...new Set([...o.map((x) => String(x.Name)), ...n.map((x) => String(x.Name))])];
  return names.map((name) => [
    o.find((x) => String(x.Name) === name) ?? null,
    n.find((x) => String(x.Name) === name) ?? null,
  ]);
}

/** The diff from `oldJob` to `newJob`; either may be null (a new or a removed job). */
export function jobDiff(oldJob: Obj | null, newJob: Obj | null): JobDiff {
  const { fields, objects } = diffObjects(oldJob, newJob, JOB_SKIP);
  const groups = matchByName((oldJob?.TaskGroups as Obj[] | null) ?? [], (newJob?.TaskGroups as Obj[] | null) ?? [])
    .map(([a, b]) => taskGroupDiff(a, b))
    .filter((d): d is TaskGroupDiff => d !== null)
    .sort(byName);
  const Type = typeOf(oldJob, newJob, fields.length + objects.length + groups.length > 0);
  return {
    Type,
    ID: String((newJob ?? oldJob)?.ID ?? ''),
    Fields: orNull(fields),
    Objects: orNull(objects),
    TaskGroups: orNull(groups),
  };
}

/** Per-group counts of what a plan would do, as in the plan's Annotations.DesiredTGUpdates. */
export interface DesiredUpdates {
  DestructiveUpdate: number;
  InPlaceUpdate: number;
  Stop: number;
  Migrate: number;
  Place: number;
  Ignore: number;
  Canary: number;
  Preemptions: number;
}

/**
 * What the scheduler would do per group when `newJob` replaces `oldJob`, given how many
 * allocations of each group are live now: a changed task is a destructive update, any other
 * group change an in-place one, and count changes place or stop the difference.
 */
export function desiredUpdates(
  oldJob: Obj | null,
  newJob: Obj,
  live: Record<string, number>,
): Record<string, DesiredUpdates> {
  const out: Record<string, DesiredUpdates> = {};
  const empty = (): DesiredUpdates => ({
    DestructiveUpdate: 0,
    InPlaceUpdate: 0,
    Stop: 0,
    Migrate: 0,
    Place: 0,
    Ignore: 0,
    Canary: 0,
    Preemptions: 0,
  });
  const oldGroups = (oldJob?.TaskGroups as Obj[] | null) ?? [];
  const stopped = newJob.Stop === true;
  for (const g of (newJob.TaskGroups as Obj[] | null) ?? []) {
    const name = String(g.Name);
    const u = empty();
    const count = stopped ? 0 : Number(g.Count ?? 1);
    const old = oldGroups.find((x) => String(x.Name) === name) ?? null;
    const have = old ? (live[name] ?? 0) : 0;
    if (!old || have === 0) {
      u.Place = count;
    } else {
      const d = taskGroupDiff({ ...old, Count: 0 }, { ...g, Count: 0 });
      const kept = Math.min(have, count);
      if (d?.Tasks?.length) u.DestructiveUpdate = kept;
      else if (d) u.InPlaceUpdate = kept;
      else u.Ignore = kept;
      if (count > have) u.Place = count - have;
      if (count < have) u.Stop = have - count;
    }
    out[name] = u;
  }
  for (const g of oldGroups) {
    const name = String(g.Name);
    if (!out[name]) out[name] = { ...empty(), Stop: live[name] ?? 0 };
  }
  return out;
}

/** Writes the plan's per-group counts into the diff, as the real scheduler annotates it. */
export function annotate(diff: JobDiff, updates: Record<string, DesiredUpdates>): void {
  for (const g of diff.TaskGroups ?? []) {
    const u = updates[g.Name];
    if (!u) continue;
    const map: Record<string, number> = {};
    if (u.Place) map.create = u.Place;
    if (u.Stop) map.destroy = u.Stop;
    if (u.InPlaceUpdate) map['in-place update'] = u.InPlaceUpdate;
    if (u.DestructiveUpdate) map['create/destroy update'] = u.DestructiveUpdate;
    if (u.Ignore) map.ignore = u.Ignore;
    g.Updates = Object.keys(map).length ? map : null;
    for (const t of g.Tasks ?? []) {
      t.Annotations = [
        t.Type === 'Added'
          ? 'forces create'
          : t.Type === 'Deleted'
            ? 'forces destroy'
            : u.DestructiveUpdate
              ? 'forces create/destroy update'
              : 'forces in-place update',
      ];
    }
    for (const f of g.Fields ?? []) {
      if (f.Name === 'Count' && f.Type === 'Edited')
        f.Annotations = [Number(f.New) > Number(f.Old) ? 'forces create' : 'forces destroy'];
    }
  }
}
