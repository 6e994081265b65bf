/** GET /v1/jobs: items, prefix, pagination, filter (data-driven), meta. */
import { suite, conformance } from '../../harness/index.js';
import { statusIs, bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import type { Exchange } from '../../harness/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { loadCases, runCases } from '../lib/cases.js';
import { jobGenerator } from '../../fixtures/jobs/generator.js';
import { body, enc, nextToken, register, runCase, trackJob, type Obj } from './helpers.js';

import { schedNamespace, schedTokenWith } from '../../harness/index.js';
import { together } from '../lib/together.js';

const s = suite('jobs');

conformance(
  {
    id: 'jobs.list.returns-items',
    level: 'MUST',
    title: 'GET /v1/jobs returns list items with ID, Type, Status, JobSummary and indexes',
  },
  async (t) => {
    const id = t.unique('item');
    await register(t, jobDefinition('service', id));
    const ex = await t.sched.get('jobs', { query: { prefix: id } });
    t.check(
      ex,
      statusIs(200),
      bodyAt('/0/ID', id),
      bodyAt('/0/Name', id),
      bodyAt('/0/Type', 'service'),
      bodyAt('/0/Priority', 50),
      bodyAt('/0/ParentID', ''),
      bodyAt('/0/Status', (v: unknown) => typeof v === 'string' && v.length > 0, 'is a status'),
      bodyAt('/0/JobSummary/JobID', id),
      bodyAt('/0/JobModifyIndex', Number.isInteger, 'is an integer'),
    );
    expectEqual(body<Obj[]>(ex).length, 1, 'one job matches the run-unique prefix');
  },
);

conformance(
  {
    id: 'jobs.list.returns-items',
    level: 'MUST',
    title: 'GET /v1/jobs with a prefix no job has answers an empty array',
  },
  async (t) => {
    t.check(
      await t.sched.get('jobs', { query: { prefix: t.unique('nothing-here') } }),
      statusIs(200),
      bodyAt('', (v: unknown) => Array.isArray(v) && v.length === 0, 'is an empty array'),
    );
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
    t.check(ex, statusIs(200));
    expectEqual(
      body<Obj[]>(ex)
        .map((j) => j.ID)
        .sort(),
      [`${base}-a-one`, `${base}-a-two`],
      'IDs listed for the prefix',
    );
  },
);

/** The IDs of the items of a list answer (an array of job list items). */
const idsOf = (ex: Exchange): string[] => (body<Obj[]>(ex) ?? []).map((j) => String(j.ID));

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
    const ids = Array.from({ length: 23 }, (_, i) => `${base}-${String(i).padStart(2, '0')}`);
    // The 23 registrations are independent: they go out together.
    await together(ids.map((id) => () => register(t, generate({ id }))));
    const seen: string[] = [];
    let token = '';
    // 23 jobs need 5 pages of 5; a last page with a token to an empty page is allowed (bounded walk).
    for (let page = 0; page < 10; page++) {
      const ex = await t.sched.get('jobs', { query: { prefix: base, per_page: 5, next_token: token || undefined } });
      t.check(ex, statusIs(200));
      const items = idsOf(ex);
      t.proving('jobs.list.per-page-limit', () =>
        expectThat(items.length <= 5, 'per_page', 'a page holds at most per_page items', '<= 5', items.length),
      );
      seen.push(...items);
      token = nextToken(t, ex);
      if (!token || items.length === 0) break;
    }
    // The document gives no order: every job once, across the pages, compared as sets.
    expectEqual([...seen].sort(), [...ids].sort(), 'every job once across the pages');
    await t.proving('jobs.list.per-page-default-unpaginated', async () => {
      for (const perPage of [undefined, 0]) {
        const all = await t.sched.get('jobs', { query: { prefix: base, per_page: perPage } });
        t.check(all, statusIs(200));
        const what = perPage === undefined ? 'without per_page' : 'with per_page=0';
        expectEqual(idsOf(all).sort(), [...ids].sort(), `${what} the list is not paginated`);
        expectEqual(nextToken(t, all), '', `no next token ${what}`);
      }
    });
  },
);

conformance(
  {
    id: 'jobs.list.per-page-default-unpaginated',
    level: 'MUST',
    title: 'GET /v1/jobs without per_page lists 101 jobs on one page, without a next token',
  },
  async (t) => {
    // More jobs than any default page a scheduler is likely to use (100 is the common one), so an
    // unpaginated answer cannot be a default page size that happens to hold them all.
    const base = t.unique('nopage');
    const ids = Array.from({ length: 101 }, (_, i) => `${base}-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < ids.length; i += 10)
      await Promise.all(ids.slice(i, i + 10).map((id) => register(t, jobDefinition('parameterized', id))));
    for (const perPage of [undefined, 0]) {
      const ex = await t.sched.get('jobs', { query: { prefix: base, per_page: perPage } });
      t.check(ex, statusIs(200));
      const what = perPage === undefined ? 'without per_page' : 'with per_page=0';
      expectEqual(idsOf(ex).sort(), ids, `${what} every one of the 101 jobs is on the one page`);
      expectEqual(nextToken(t, ex), '', `no next token ${what}`);
    }
  },
);

conformance(
  { id: 'jobs.list.meta', level: 'MUST', title: 'GET /v1/jobs?meta=true adds the job meta to list items' },
  async (t) => {
    const id = t.unique('meta');
    await register(t, jobDefinition('service', id));
    const ex = await t.sched.get('jobs', { query: { prefix: id, meta: true } });
    t.check(ex, statusIs(200), bodyAt('/0/ID', id), bodyAt('/0/Meta', { team: 'cache' }));
  },
);

/** Does a list item carry a meta field (any spelling of `meta`) with something in it? */
const carriesMeta = (item: Obj): boolean =>
  Object.entries(item).some(
    ([k, v]) => k.toLowerCase() === 'meta' && v !== null && v !== undefined && Object.keys(v as object).length > 0,
  );

conformance(
  {
    id: 'jobs.list.meta-default',
    level: 'MUST',
    title: 'GET /v1/jobs without meta (and with meta=false) lists items without the job meta',
  },
  async (t) => {
    const id = t.unique('nometa');
    await register(t, jobDefinition('service', id));
    for (const meta of [undefined, false]) {
      const ex = await t.sched.get('jobs', { query: { prefix: id, meta } });
      t.check(ex, statusIs(200), bodyAt('/0/ID', id));
      const item = body<Obj[]>(ex)[0]!;
      expectThat(
        !carriesMeta(item),
        'meta',
        `${meta === undefined ? 'without meta' : 'with meta=false'} the item carries no meta field`,
        'no meta field',
        item,
      );
    }
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
    t.check(other, statusIs(200));
    const all = await t.sched.get('jobs', { query: { prefix: base, namespace: '*' } });
    t.check(all, statusIs(200));
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
  // Independent registrations: they go out together.
  await together(
    Object.entries(filters.jobs ?? {}).map(([name, spec]) => async () => {
      const id = `${filterPrefix}-${name}`;
      ctx.track(`job ${id}`, () => ctx.sched.delete(`job/${enc(id)}`, { query: { purge: true }, validate: false }));
      const ex = await ctx.sched.post('jobs', { body: { Job: jobDefinition(spec.definition, id, spec.overrides) } });
      if (ex.response.status !== 200)
        throw new Error(`could not register filter fixture job ${id}: status ${ex.response.status}`);
      filterIds[name] = id;
    }),
  );
});

runCases(filters, {
  'jobs-shared': { run: (t, c) => runCase(t, c, filterIds, `${filterPrefix}-`).then(() => undefined) },
});

conformance(
  {
    id: 'jobs.list.namespace-wildcard',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'GET /v1/jobs?namespace=* with a token that may list only default leaves out the jobs of other namespaces',
  },
  async (t) => {
    const base = t.unique('nsa');
    const ns = await schedNamespace(t);
    await register(t, jobDefinition('batch', `${base}-a`));
    await register(t, jobDefinition('batch', `${base}-b`, { Namespace: ns }), { namespace: ns });
    const token = await schedTokenWith(t, ['list-jobs'], 'default');
    const ex = await t.sched.get('jobs', { token, query: { prefix: base, namespace: '*' } });
    t.check(ex, statusIs(200));
    expectEqual(idsOf(ex), [`${base}-a`], 'namespace=* lists only the namespaces the token may access');
  },
);
