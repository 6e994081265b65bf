/**
 * vitest setupFiles entry of the mutation run's workers (harness/cli/mutation-engine.ts), after the
 * domain-lock set-up: each test file of a round runs against the reference of its own lane, whose
 * addresses the round's plan gives (provided as `mutationPlan`). The worker's target config (one
 * object per worker, harness/config/target-config.ts) is pointed at that reference before the file
 * is even collected; every file of a round has a reference of its own, so no file shares one and
 * no lock is taken (the engine provides no lock service).
 *
 * In the traced round (the clean run that measures which switches each test reaches:
 * reference/trace.ts) every request also names its sender in the `x-conformance-trace` header:
 * `test:<file> > <title>` inside a test, `file:<file>` in the file's set-up and cleanup. That round
 * runs one test of a file at a time (the engine's tests in flight 1), so the worker's one current
 * test is the sender.
 */
import http from 'node:http';
import https from 'node:https';
import diagnostics from 'node:diagnostics_channel';
import { afterEach, beforeEach, inject, TestRunner } from 'vitest';
import { targetConfig } from '../config/target-config.js';
import { redactor } from '../redaction/redact.js';
import { resultPath, TRACE_HEADER } from './mutation-lane.js';
import { folderTape, installKeyTape } from './mutation-key-tape.js';

interface WorkerState {
  /** The sender the requests of this worker name now ('' for none). */
  sender: string;
  /** The test file running now: the key tape's context. */
  file?: string;
  /** The version the run's target reports, before any lane changed it. */
  baseVersion?: string;
}

const holder = globalThis as { __mutationLane?: WorkerState };

/** Every request of this worker (node's http and https, and fetch) names the current sender. */
function nameSenders(state: WorkerState): void {
  for (const mod of [http, https]) {
    const request = mod.request as (...args: unknown[]) => http.ClientRequest;
    const named = (...args: unknown[]) => {
      const req = request(...args);
      if (state.sender && !req.headersSent) req.setHeader(TRACE_HEADER, state.sender);
      return req;
    };
    (mod as { request: unknown }).request = named;
    (mod as { get: unknown }).get = (...args: unknown[]) => {
      const req = named(...args);
      req.end();
      return req;
    };
  }
  diagnostics.subscribe('undici:request:create', (message) => {
    const { request } = message as { request: { addHeader(name: string, value: string): void } };
    if (state.sender) request.addHeader(TRACE_HEADER, state.sender);
  });
}

const plan = inject('mutationPlan');
const filepath = TestRunner.getCurrentSuite().file?.filepath;
if (plan && filepath) {
  const file = resultPath(filepath);
  const place = plan.files[file];
  if (!place) throw new Error(`the mutation round has no reference for ${file}`);
  const cfg = targetConfig();
  const state = (holder.__mutationLane ??= { sender: '', baseVersion: cfg.svc.version });
  // The file's RSA keys from the run's tape, counted from the first again for each file.
  const forgetKeys = installKeyTape(() => state.file, plan.keyDir ? folderTape(plan.keyDir) : undefined);
  forgetKeys(file);
  state.file = file;
  cfg.svc.addr = place.svcAddr;
  if (place.schedAddr) cfg.sched.addr = place.schedAddr;
  if (place.cloud) {
    cfg.cloud = { ...place.cloud };
    redactor.add(place.cloud.rootClientSecret);
  }
  cfg.svc.version = place.version ?? state.baseVersion ?? cfg.svc.version;
  if (plan.trace) {
    if (!(holder as { __mutationSendersNamed?: boolean }).__mutationSendersNamed) {
      (holder as { __mutationSendersNamed?: boolean }).__mutationSendersNamed = true;
      nameSenders(state);
    }
    // From the file's collection on, until its last test: its set-up and cleanup are the file's.
    state.sender = `file:${file}`;
    beforeEach((ctx) => {
      state.sender = `test:${file} > ${ctx.task.name}`;
    });
    afterEach(() => {
      state.sender = `file:${file}`;
    });
  }
}
