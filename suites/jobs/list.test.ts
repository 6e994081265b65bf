/** GET /v1/jobs: items, prefix, pagination, filter (data-driven), meta. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { loadCases, runCases } from '../lib/cases.js';
import { jobGenerator } from '../../fixtures/jobs/generator.js';
import { body, enc, nextToken, register, runCase, trackJob, type Obj, ok } from './helpers.js';

import { schedNamespace } from '../../harness/index.js';

const s = suite('jobs');

conformance(
  {
    id: 'jobs.list.returns-items',
    level: 'MUST',
    title:
      'GET /v1/jobs returns list items with ID, ParentID, Name, Type, Priority, Status, StatusDescription, JobSummary and indexes',
  },
  async (t) => {
    const id = t.unique('item');
    const ex0 = await register(t, jobDefinition('service', id));
    const ex = await t.sched.get('jobs', { query: { prefix: id } });
    const isIndex = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
    t.check(
      ex,
      ok,
      bodyAt('/0/ID', id),
      // A job without a parent: its ParentID holds nothing (the document gives no empty value).
      bodyAt('/0/ParentID', (v: unknown) => v === undefined || v === null || v === '', 'is empty without a parent'),
      bodyAt('/0/Name', id),
      bodyAt('/0/Type', 'service'),
      bodyAt('/0/Priority', 50),
      bodyAt('/0/Status', (v: unknown) => typeof v === 'string' && v.length > 0, 'is a status'),
      bodyAt('/0/StatusDescription', (v: unknown) => typeof v === 'string', 'is a string'),
      bodyAt('/0/JobSummary/JobID', id),
      bodyAt('/0/JobSummary/Summary/cache', (v: unknown) => typeof v === 'object' && v !== null, 'counts the group'),
      bodyAt('/0/CreateIndex', isIndex, 'is an index'),
      bodyAt('/0/ModifyIndex', isIndex, 'is an index'),
      bodyAt('/0/JobModifyIndex', body(ex0).JobModifyIndex, "is the registration's JobModifyIndex"),
    );
    expectEqual(body<Obj[]>(ex).length, 1, 'one job matches the run-unique prefix');
  },
);

conformance(
  {
    id: 'jobs.list.prefix',
    level: 'MUST',
    title: 'GET /v1/jobs?prefix= keeps only jobs whose ID starts with the prefix',
  },
  async (t) => {
    const base = t.unique('pfx');
    for (const s of ['a-one', 'a-two', 'b-three']) await register(t, jobDefinition('batch', `${base}-${s}`));
    const ex = await t.sched.get('jobs', { query: { prefix: `${base}-a` } });
    t.check(ex, ok);
    expectEqual(
      body<Obj[]>(ex)
        .map((j) => j.ID)
        .sort(),
      [`${base}-a-one`, `${base}-a-two`],
      'IDs listed for the prefix',
    );
  },
);

conformance(
  {
    id: 'jobs.list.pagination-next-token',
    also: ['jobs.list.per-page-limit', 'jobs.list.next-token-header-name', 'jobs.list.per-page-default-unpaginated'],
    level: 'MUST',
    title: 'GET /v1/jobs?per_page=5 walks 23 jobs exactly once following X-Sched-NextToken',
  },
  async (t) => {
    const base = t.unique('page');
    const generate = jobGenerator(20_250_101);
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const id = `${base}-${String(i).padStart(2, '0')}`;
      ids.push(id);
      await register(t, generate({ id }));
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let token = '';
    for (let page = 0; page < 10; page++) {
      const ex = await t.sched.get('jobs', { query: { prefix: base, per_page: 5, next_token: token || undefined } });
      t.check(ex, ok);
      const items = body<Obj[]>(ex);
      sizes.push(items.length);
      expectThat(items.length <= 5, 'per_page', 'a page holds at most per_page items', '<= 5', items.length);
      seen.push(...items.map((j) => j.ID as string));
      token = nextToken(t, ex);
      if (!token) break;
    }
    // The document fixes neither the order of the items nor whether the last page names a token
    // (to an empty page): the pages hold every job exactly once, five at most each.
    expectThat(
      sizes.filter((n) => n > 0).length >= 5,
      'pages',
      '23 jobs at per_page=5 come in at least five pages',
      '>= 5 pages',
      sizes,
    );
    expectEqual([...seen].sort(), [...ids].sort(), 'every job once across the pages');
    const all = await t.sched.get('jobs', { query: { prefix: base } });
    t.check(all, ok);
    expectEqual(body<Obj[]>(all).length, 23, 'without per_page the list is not paginated');
    expectEqual(nextToken(t, all), '', 'no next token without per_page');
  },
);

conformance(
  {
    id: 'jobs.list.per-page-default-unpaginated',
    level: 'MUST',
    title: 'GET /v1/jobs without per_page, and with per_page=0, lists all of 101 jobs with no next token',
  },
  async (t) => {
    // More jobs than the page sizes products commonly default to (20, 25, 50, 100), so a default
    // page cannot pass for "not paginated". Parameterized jobs are stored without being run.
    const base = t.unique('nopage');
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) {
      const id = `${base}-${String(i).padStart(3, '0')}`;
      ids.push(id);
      await register(t, jobDefinition('parameterized', id));
    }
    for (const query of [{ prefix: base }, { prefix: base, per_page: 0 }]) {
      const ex = await t.sched.get('jobs', { query });
      t.check(ex, ok);
      const what = 'per_page' in query ? 'with per_page=0' : 'without per_page';
      expectEqual(
        body<Obj[]>(ex)
          .map((j) => j.ID as string)
          .sort(),
        ids,
        `${what} the list holds every job`,
      );
      expectEqual(nextToken(t, ex), '', `${what} there is no next token`);
    }
  },
);

conformance(
  { id: 'jobs.list.meta', level: 'MUST', title: 'GET /v1/jobs?meta=true adds the job meta to list items' },
  async (t) => {
    const id = t.unique('meta');
    await register(t, jobDefinition('service', id));
    const ex = await t.sched.get('jobs', { query: { prefix: id, meta: true } });
    t.check(ex, ok, bodyAt('/0/ID', id));
    // "also a meta field": the document does not spell its name; the real scheduler's is Meta.
    const item = body<Obj[]>(ex)[0] ?? {};
    const meta = Object.entries(item).find(([k]) => k.toLowerCase() === 'meta')?.[1];
    expectEqual(meta, { team: 'cache' }, 'the list item carries a meta field holding the job meta');
  },
);

conformance(
  {
    id: 'jobs.list.namespace-wildcard',
    level: 'MUST',
    title: 'GET /v1/jobs?namespace=* lists the jobs of every namespace; without it only default',
  },
  async (t) => {
    const base = t.unique('nsw');
    const ns = await schedNamespace(t);
    await register(t, jobDefinition('batch', `${base}-a`));
    trackJob(t, `${base}-b`, ns);
    const other = await t.sched.post('jobs', {
      body: { Job: jobDefinition('batch', `${base}-b`, { Namespace: ns }) },
      query: { namespace: ns },
    });
    t.check(other, ok);
    const all = await t.sched.get('jobs', { query: { prefix: base, namespace: '*' } });
    t.check(all, ok);
    expectEqual(
      body<Obj[]>(all)
        .map((j) => j.ID)
        .sort(),
      [`${base}-a`, `${base}-b`],
      'namespace=* lists both namespaces',
    );
    const def = await t.sched.get('jobs', { query: { prefix: base } });
    expectEqual(
      body<Obj[]>(def).map((j) => j.ID),
      [`${base}-a`],
      'the default namespace alone',
    );
  },
);

const filters = loadCases(new URL('./filter.cases.yaml', import.meta.url));
const filterIds: Record<string, string> = {};
let filterPrefix = '';

// The filter cases share one set of jobs, registered once for the file.
s.setup(async (ctx) => {
  filterPrefix = ctx.unique('flt');
  for (const [name, spec] of Object.entries(filters.jobs ?? {})) {
    const id = `${filterPrefix}-${name}`;
    ctx.track(`job ${id}`, () => ctx.sched.delete(`job/${enc(id)}`, { query: { purge: true }, validate: false }));
    const ex = await ctx.sched.post('jobs', { body: { Job: jobDefinition(spec.definition, id, spec.overrides) } });
    if (ex.response.status < 200 || ex.response.status > 299)
      throw new Error(`could not register filter fixture job ${id}: status ${ex.response.status}`);
    filterIds[name] = id;
  }
});

runCases(filters, {
  'jobs-shared': { run: (t, c) => runCase(t, c, filterIds, `${filterPrefix}-`).then(() => undefined) },
});
