/**
 * Token pagination the way the real scheduler pages its lists: items are walked in key order,
 * those before `nextToken` are skipped, the filter drops non-matching ones, and when one more
 * matching item exists beyond `perPage` its token becomes the next token (so the next page starts
 * exactly at it). `perPage` 0 means no pagination.
 */
export interface PageOptions<T> {
  perPage: number;
  nextToken: string;
  /** Orders an item against a token: negative when the item comes before the token. */
  compareToToken: (item: T, token: string) => number;
  tokenOf: (item: T) => string;
  keep?: (item: T) => boolean;
  /** Fault switch: return one item more than asked. */
  overfill?: boolean;
}

export interface Page<T> {
  items: T[];
  nextToken: string;
}

export function paginate<T>(sorted: readonly T[], opts: PageOptions<T>): Page<T> {
  const items: T[] = [];
  const limit = opts.perPage > 0 ? opts.perPage + (opts.overfill ? 1 : 0) : Infinity;
  for (const item of sorted) {
    if (opts.nextToken && opts.compareToToken(item, opts.nextToken) < 0) continue;
    if (opts.keep && !opts.keep(item)) continue;
    if (items.length >= limit) return { items, nextToken: opts.tokenOf(item) };
    items.push(item);
  }
  return { items, nextToken: '' };
}

/** Jobs are keyed by (namespace, ID); the token joins them with a dot, which namespaces cannot hold. */
export function jobToken(job: { Namespace: string; ID: string }): string {
  return `${job.Namespace}.${job.ID}`;
}

export function compareJobToToken(job: { Namespace: string; ID: string }, token: string): number {
  const dot = token.indexOf('.');
  const [ns, id] = dot < 0 ? ['', token] : [token.slice(0, dot), token.slice(dot + 1)];
  if (job.Namespace !== ns) return job.Namespace < ns ? -1 : 1;
  return job.ID === id ? 0 : job.ID < id ? -1 : 1;
}

export function compareJobs(a: { Namespace: string; ID: string }, b: { Namespace: string; ID: string }): number {
  if (a.Namespace !== b.Namespace) return a.Namespace < b.Namespace ? -1 : 1;
  return a.ID === b.ID ? 0 : a.ID < b.ID ? -1 : 1;
}
