/**
 * Smoke run of the reference scheduler: starts it on a free loopback port, registers a job,
 * reads it back and lists jobs with plain HTTP calls, then stops. Exits non-zero on any surprise.
 * Run: npx tsx reference/scheduler/smoke.ts
 */
import { ControllableClock } from '../clock.js';
import { Faults } from '../faults.js';
import { startScheduler } from './server.js';

const clock = new ControllableClock();
const sched = await startScheduler({ clock, faults: new Faults() });

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`${sched.addr}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* plain-text error body */
  }
  console.log(`${method} ${path} -> ${res.status}`);
  return { status: res.status, body: parsed, headers: res.headers };
}

function expect(cond: boolean, what: string): void {
  if (!cond) throw new Error(`smoke check failed: ${what}`);
}

try {
  const job = {
    Job: {
      ID: 'smoke-web',
      Type: 'service',
      Datacenters: ['dc1'],
      Meta: { team: 'smoke' },
      TaskGroups: [{ Name: 'web', Count: 1, Tasks: [{ Name: 'srv', Driver: 'docker', Config: { image: 'nginx:1' } }] }],
    },
  };
  const reg = await call('POST', '/v1/jobs', job);
  expect(reg.status === 200, 'register answers 200');
  expect(typeof (reg.body as { EvalID?: string }).EvalID === 'string', 'register creates an evaluation');

  const read = await call('GET', '/v1/job/smoke-web');
  expect(read.status === 200 && (read.body as { ID: string }).ID === 'smoke-web', 'read returns the job');
  expect((read.body as { Version: number }).Version === 0, 'a new job has Version 0');

  const list = await call('GET', '/v1/jobs?meta=true');
  expect(list.status === 200 && Array.isArray(list.body) && list.body.length === 1, 'list returns the one job');

  await clock.advance(2000);
  const allocs = await call('GET', '/v1/job/smoke-web/allocations');
  expect(
    (allocs.body as Array<{ ClientStatus: string }>)[0]?.ClientStatus === 'running',
    'the allocation runs after the clock moves',
  );

  const missing = await call('GET', '/v1/job/nope');
  expect(missing.status === 404, 'an unknown job is 404');
  console.log('smoke: ok');
} finally {
  await sched.close();
  clock.close();
}
