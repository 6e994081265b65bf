/** DELETE /v1/job/:job_id: stop, purge, global, no_shutdown_delay. */
import { suite, conformance } from '../../harness/index.js';
import { statusIs, clientError, bodyAt, expectEqual } from '../../harness/checks/index.js';
import { body, enc, readJob, registered, type Obj } from './helpers.js';

suite('jobs');

conformance({ id: 'jobs.stop.marks-stopped', level: 'MUST',
  title: 'DELETE /v1/job/:job_id stops the job, which stays readable with Stop true' }, async (t) => {
  const { id } = await registered(t, 'service', 'stop');
  const ex = await t.sched.delete(`job/${enc(id)}`);
  t.check(ex, statusIs(200), bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'));
  const job = await readJob(t, id);
  expectEqual(job.Stop, true, 'Stop of the stopped job');
  t.check(await t.sched.get(`job/${enc(id)}/scale`), statusIs(200), bodyAt('/JobStopped', true));
});

conformance({ id: 'jobs.stop.purge', level: 'MUST',
  title: 'DELETE /v1/job/:job_id?purge=true removes the job at once' }, async (t) => {
  const { id } = await registered(t, 'service', 'purge');
  t.check(await t.sched.delete(`job/${enc(id)}`, { query: { purge: true } }), statusIs(200));
  t.check(await t.sched.get(`job/${enc(id)}`), clientError);
  expectEqual(body<Obj[]>(await t.sched.get('jobs', { query: { prefix: id } })).length, 0, 'the purged job is not listed');
});

conformance({ id: 'jobs.stop.global', level: 'MUST',
  title: 'DELETE /v1/job/:job_id?global=true stops a single-region job' }, async (t) => {
  const { id } = await registered(t, 'service', 'glob');
  t.check(await t.sched.delete(`job/${enc(id)}`, { query: { global: true } }), statusIs(200));
  expectEqual((await readJob(t, id)).Stop, true, 'Stop after a global stop');
});

conformance({ id: 'jobs.stop.no-shutdown-delay', level: 'MUST',
  title: 'DELETE /v1/job/:job_id?no_shutdown_delay=true stops the job' }, async (t) => {
  const { id } = await registered(t, 'service', 'nsd');
  t.check(await t.sched.delete(`job/${enc(id)}`, { query: { no_shutdown_delay: true, eval_priority: 70 } }), statusIs(200));
  expectEqual((await readJob(t, id)).Stop, true, 'Stop after a stop without shutdown delay');
});
