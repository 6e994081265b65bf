/** GET /v1/jobs: items, prefix, pagination, filter (data-driven), meta. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import type { Exchange } from '../../harness/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { loadCases, runCases } from '../lib/cases.js';
import { jobGenerator } from '../../fixtures/jobs/generator.js';
import { body, enc, nextToken, register, runCase, trackJob, type Obj, ok } from './helpers.js';

import { schedNamespace, schedTokenWith } from '../../harness/index.js';
import { together } from '../lib/together.js';

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
    id: 'jobs.list.returns-items',
    level: 'MUST',
    title: 'GET /v1/jobs lists a dispatched job with the ParentID its job read shows',
  },
  async (t) => {
    const id = t.unique('itemkid');
    // Placed nowhere: only the dispatched job's record matters.
    await register(t, jobDefinition('parameterized', id, { Datacenters: ['cf-nowhere'] }));
    const ex = await t.sched.post(`job/${enc(id)}/dispatch`, { body: { Meta: { tenant: 'a' } } });
    const child = body(ex)?.DispatchedJobID;
    if (typeof child === 'string' && child) trackJob(t, child);
    t.precondition(ex, ok);
    const parent = body(await t.sched.get(`job/${enc(String(child))}`))?.ParentID;
    if (typeof parent !== 'string' || parent === '')
      t.notApplicable('the dispatched job read shows no ParentID to list (jobs.dispatch.child-fields)');
    t.check(
      await t.sched.get('jobs', { query: { prefix: String(child) } }),
      ok,
      bodyAt('/0/ID', child),
      bodyAt('/0/ParentID', parent, "is the dispatched job's ParentID"),
    );
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
      ok,
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
    // An ID holding the prefix after its start (behind a run-unique name of its own, so the run's
    // clean-up still finds it): an index-prefix filter leaves it out.
    await register(t, jobDefinition('batch', `${t.unique('pfxin')}-${base}-a-four`));
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
      t.check(ex, ok);
      const items = idsOf(ex);
      t.proving('jobs.list.per-page-limit', () =>
        expectThat(items.length <= 5, 'per_page', items.length, '<= 5', 'a page holds at most per_page items'),
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
        t.check(all, ok);
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
      t.check(ex, ok);
      const what = perPage === undefined ? 'without per_page' : 'with per_page=0';
      expectEqual(idsOf(ex).sort(), ids, `${what} every one of the 101 jobs is on the one page`);
      expectEqual(nextToken(t, ex), '', `no next token ${what}`);
    }
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
      t.check(ex, ok, bodyAt('/0/ID', id));
      const item = body<Obj[]>(ex)[0]!;
      expectThat(
        !carriesMeta(item),
        'meta',
        item,
        'no meta field',
        `${meta === undefined ? 'without meta' : 'with meta=false'} the item carries no meta field`,
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

conformance(
  {
    id: 'jobs.list.pagination-next-token',
    level: 'MUST',
    title:
      'GET /v1/jobs?namespace=*&per_page=1 walks the jobs of two namespaces exactly once following X-Sched-NextToken',
  },
  async (t) => {
    const base = t.unique('nsp');
    const ns = await schedNamespace(t);
    // IDs interleaved across the namespaces (each ID in one of them, so the IDs tell the jobs apart):
    // a token that lost its namespace repeats or skips jobs.
    const expected: string[] = [];
    for (const [suffix, namespace] of [
      ['a', ns],
      ['b', 'default'],
      ['c', ns],
      ['d', 'default'],
    ] as const) {
      const id = `${base}-${suffix}`;
      trackJob(t, id, namespace);
      t.check(
        await t.sched.post('jobs', {
          body: { Job: jobDefinition('batch', id, { Namespace: namespace }) },
          query: { namespace },
        }),
        ok,
      );
      expected.push(id);
    }
    const seen: string[] = [];
    let token = '';
    // 4 jobs on pages of 1; a last token to an empty page is allowed (bounded walk).
    for (let page = 0; page < 8; page++) {
      const ex = await t.sched.get('jobs', {
        query: { prefix: base, namespace: '*', per_page: 1, next_token: token || undefined },
      });
      t.check(ex, ok);
      const items = body<Obj[]>(ex) ?? [];
      seen.push(...items.map((j) => String(j.ID)));
      token = nextToken(t, ex);
      if (!token || items.length === 0) break;
    }
    // The document gives no order: every job once, across the pages, compared as sets.
    expectEqual([...seen].sort(), [...expected].sort(), 'every job of both namespaces once across the pages');
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
      if (ex.response.status < 200 || ex.response.status > 299)
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
    t.check(ex, ok);
    expectEqual(idsOf(ex), [`${base}-a`], 'namespace=* lists only the namespaces the token may access');
  },
);
