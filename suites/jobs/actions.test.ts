/** GET /v1/job/:job_id/actions and the action stream over a WebSocket. */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { body, enc, registered, waitAdvancing, type Obj, ok } from './helpers.js';
import { outputLine, ranAction, runAction, stdoutText, type ActionRun } from './ws.js';

suite('jobs');

/** How long a run waits for the stream to end (runAction's default). */
const STREAM_MS = 5000;

/** The action ran: its output came (the stream's end is the frames rule's, checked on its own). */
function checkRan(run: ActionRun, what: string): void {
  expectThat(
    ranAction(run),
    'action',
    {
      status: run.refusedStatus,
      frames: run.frames,
    },
    'output frames',
    `${what}: the action runs (its output comes)`,
  );
}

/** A service job with actions and its running allocation. */
async function runningJob(t: T, base: string): Promise<{ id: string; allocId: string }> {
  const { id } = await registered(t, 'service', base);
  await t.advance(3);
  const allocs = await waitAdvancing(
    t,
    'an allocation runs',
    async () => body<Obj[]>(await t.sched.get(`job/${enc(id)}/allocations`)),
    (a) => a.some((x) => x.ClientStatus === 'running'),
  );
  return { id, allocId: allocs.find((x) => x.ClientStatus === 'running')!.ID as string };
}

/**
 * The output frames the document lists: stdout data (at least one), the stdout close frame and the
 * exited frame, and then the end of the stream (the client sends no stdin frames: "No stdin
 * frames"). The document lists them without an order, so none is asked for; frames it does not
 * list (stderr, heartbeats) are tolerated.
 */
function checkFrames(run: ActionRun): void {
  expectThat(
    !run.timedOut,
    'frames',
    run.frames,
    'the stream closed',
    `the action stream did not close within ${STREAM_MS} ms of its start (no input frames but those the document lists were sent)`,
  );
  expectEqual(run.invalid, [], 'every frame is JSON');
  const kinds: string[] = run.frames.map((f) =>
    f.exited === true
      ? 'exited'
      : f.stdout?.close === true
        ? 'close'
        : typeof f.stdout?.data === 'string'
          ? 'data'
          : 'other',
  );
  const listed = ['data', 'close', 'exited'].filter((k) => kinds.includes(k));
  expectEqual(listed, ['data', 'close', 'exited'], 'a stdout data frame, {stdout: {close: true}} and {exited: true}');
  const exited = run.frames.find((f) => f.exited === true)!;
  expectThat(
    typeof exited.result === 'object' && exited.result !== null,
    'frames',
    exited.result,
    'object',
    'the exited frame has a result object',
  );
}

conformance(
  { id: 'jobs.actions.list', level: 'MUST', title: "GET /v1/job/:job_id/actions lists the actions of the job's tasks" },
  async (t) => {
    const { id } = await registered(t, 'service', 'alist');
    const ex = await t.sched.get(`job/${enc(id)}/actions`);
    t.check(ex, ok);
    const byName = Object.fromEntries(body<Obj[]>(ex).map((a) => [a.Name, a]));
    expectEqual(Object.keys(byName).sort(), ['echo-hello', 'show-date'], 'action names');
    const a = byName['echo-hello']!;
    expectEqual(
      [a.Command, a.Args, a.TaskGroupName, a.TaskName],
      ['/bin/echo', ['hello', 'world'], 'cache', 'redis'],
      'command, args, group and task of echo-hello',
    );
  },
);

conformance(
  {
    id: 'jobs.actions.list',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/actions of a job without actions answers an empty array',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'anone');
    t.check(
      await t.sched.get(`job/${enc(id)}/actions`),
      ok,
      bodyAt('', (v: unknown) => Array.isArray(v) && v.length === 0, 'is an empty array'),
    );
  },
);

conformance(
  {
    id: 'jobs.action.ws-frames-order',
    level: 'MUST',
    title: 'WebSocket /v1/job/:job_id/action streams stdout data, the stdout close frame and exited',
  },
  async (t) => {
    const { id, allocId } = await runningJob(t, 'aws');
    const run = await runAction(t, id, { query: { action: 'echo-hello', alloc_id: allocId, task: 'redis' } });
    expectEqual(run.refusedStatus, undefined, 'the upgrade is accepted');
    checkFrames(run);
    expectThat(
      stdoutText(run).includes('hello world'),
      'stdout',
      stdoutText(run),
      'contains "hello world"',
      "the output is the action's (echo hello world)",
    );
  },
);

conformance(
  {
    id: 'jobs.action.ws-handshake-auth',
    also: ['jobs.action.ws-frames-order'],
    level: 'MUST',
    title:
      'WebSocket /v1/job/:job_id/action?ws_handshake=true runs after an auth_token first frame, and not with a wrong token',
  },
  async (t) => {
    const { id, allocId } = await runningJob(t, 'ahs');
    const query = { action: 'echo-hello', alloc_id: allocId, task: 'redis', ws_handshake: true };
    // Whether the action ran is read from its output: the end of the stream is the frames rule's.
    const ok = await runAction(t, id, {
      query,
      tokenHeader: false,
      send: [{ version: 1, auth_token: t.config.sched.token }],
      until: outputLine('hello world'),
    });
    t.proving('jobs.action.ws-frames-order', () => expectEqual(ok.refusedStatus, undefined, 'the upgrade is accepted'));
    checkRan(ok, 'with the auth_token first frame');
    if (!t.config.capabilities.schedAcl) return;
    const bad = await runAction(t, id, {
      query,
      tokenHeader: false,
      send: [{ version: 1, auth_token: 'not-a-token' }],
    });
    expectThat(
      !bad.frames.some((f) => f.exited === true || typeof f.stdout?.data === 'string'),
      'auth',
      bad.frames,
      'no output frames',
      'a wrong auth_token runs nothing',
    );
  },
);

conformance(
  {
    id: 'jobs.action.tty-size',
    also: ['jobs.action.ws-frames-order'],
    level: 'MUST',
    title: 'WebSocket /v1/job/:job_id/action?tty=true accepts tty_size frames and runs the action',
  },
  async (t) => {
    const { id, allocId } = await runningJob(t, 'atty');
    const run = await runAction(t, id, {
      query: { action: 'echo-hello', alloc_id: allocId, task: 'redis', tty: true, ws_handshake: false },
      send: [{ tty_size: { height: 24, width: 80 } }],
      until: outputLine('hello world'),
    });
    t.proving('jobs.action.ws-frames-order', () =>
      expectEqual(run.refusedStatus, undefined, 'the upgrade is accepted'),
    );
    // The stream is not broken by the tty_size frame: the action's output comes (which frames end
    // the stream is the frames rule's, checked on its own).
    checkRan(run, 'after a tty_size frame');
  },
);

conformance(
  {
    id: 'jobs.action.tty-size',
    also: ['jobs.action.ws-frames-order'],
    level: 'MUST',
    title: 'WebSocket /v1/job/:job_id/action without tty streams what it streams with tty=false',
  },
  async (t) => {
    const { id, allocId } = await runningJob(t, 'attyd');
    const query = { action: 'echo-hello', alloc_id: allocId, task: 'redis', ws_handshake: false };
    // The output is compared, read up to its line end (or the exited frame): the end of the
    // stream is the frames rule's, checked on its own.
    const until = outputLine('hello world');
    const omitted = await runAction(t, id, { query, until });
    const plain = await runAction(t, id, { query: { ...query, tty: false }, until });
    t.proving('jobs.action.ws-frames-order', () =>
      expectEqual([omitted.refusedStatus, plain.refusedStatus], [undefined, undefined], 'the upgrades are accepted'),
    );
    checkRan(plain, 'with tty=false');
    expectEqual(stdoutText(omitted), stdoutText(plain), 'tty defaults to false: the output is the tty=false output');
    // What tells tty=false from tty=true apart: a terminal stream's data differs (its line ends, its
    // control sequences), so the default shown above is false, not true.
    const terminal = await runAction(t, id, {
      query: { ...query, tty: true },
      send: [{ tty_size: { height: 24, width: 80 } }],
      until,
    });
    checkRan(terminal, 'with tty=true');
    expectThat(
      stdoutText(terminal) !== stdoutText(plain),
      'tty',
      { tty: JSON.stringify(stdoutText(terminal)), plain: JSON.stringify(stdoutText(plain)) },
      'different data',
      'the tty=true output differs from the tty=false output',
    );
  },
);

conformance(
  {
    id: 'jobs.action.control-sequences',
    also: ['jobs.action.ws-frames-order'],
    level: 'MUST',
    title: 'WebSocket /v1/job/:job_id/action?tty=true streams data that includes terminal control sequences',
  },
  async (t) => {
    const { id, allocId } = await runningJob(t, 'actl');
    const run = await runAction(t, id, {
      query: { action: 'echo-hello', alloc_id: allocId, task: 'redis', tty: true, ws_handshake: false },
      send: [{ tty_size: { height: 24, width: 80 } }],
      until: outputLine('hello world'),
    });
    t.proving('jobs.action.ws-frames-order', () =>
      expectEqual(run.refusedStatus, undefined, 'the upgrade is accepted'),
    );
    checkRan(run, 'with tty=true');
    // A control character other than the line feed: an escape sequence or the terminal's carriage return.
    const text = stdoutText(run);
    expectThat(
      /[\u001b\r]/.test(text),
      'tty',
      JSON.stringify(text),
      'ESC or CR in the output',
      'the data of a terminal stream includes control sequences',
    );
  },
);

conformance(
  {
    id: 'jobs.action.query-required',
    level: 'MUST',
    title: 'WebSocket /v1/job/:job_id/action without action, alloc_id or task runs nothing',
  },
  async (t) => {
    const { id, allocId } = await runningJob(t, 'aq');
    const full = { action: 'echo-hello', alloc_id: allocId, task: 'redis', ws_handshake: false };
    for (const missing of ['action', 'alloc_id', 'task'] as const) {
      const run = await runAction(t, id, { query: { ...full, [missing]: undefined } });
      const strict = t.config.assumptions['jobs.errors.rejections-4xx'] !== false;
      const refusedStatus = (s: number) => s >= 400 && (!strict || s < 500);
      const refused =
        run.refusedStatus !== undefined ? refusedStatus(run.refusedStatus) : !run.frames.some((f) => f.exited === true);
      expectThat(
        refused,
        'query',
        { status: run.refusedStatus, frames: run.frames },
        strict ? 'a 4xx upgrade answer or no exited frame' : 'an error upgrade answer or no exited frame',
        `without ${missing} the action does not run`,
      );
    }
  },
);
