/**
 * Builds `t`, the one argument of a conformance test body (test-api.ts has its contract): clients,
 * checks, preconditions, cleanup, time, skips and the known-issue gates of one test.
 */
import { type Attribution, charge } from '../attribution.js';
import type { TargetConfig } from '../config/types.js';
import { clockMovable, timeDomain, guardGlobal, type InFileOrder } from '../domain-locks/declarations.js';
import type { Transcript } from '../http/transcript.js';
import { redactor } from '../redaction/redact.js';
import type { Requirement } from '../spec/catalogue.js';
import type { SpecRegistry } from '../spec/registry.js';
import { isAffected, knownVersion } from '../spec/version-gates.js';
import { heldLease, makeClient, type SpecLedger } from './clients.js';
import { requirePrecondition } from './precondition.js';
import { NotApplicable, Skip, type T } from './test-api.js';
import { moveTime, timeOwnerOf } from './time.js';
import type { Tracker } from './tracker.js';
import { uniqueName } from './unique-name.js';

export interface TestParts {
  cfg: TargetConfig;
  /** The suite area of the file (whose clock `t.advance` moves). */
  area: string | undefined;
  registry: SpecRegistry;
  catalogue: Map<string, Requirement>;
  transcript: Transcript;
  tracker: Tracker;
  ledger: SpecLedger;
  /** The running test's metadata, where `t.knownIssue` records what it saw. */
  taskMeta: Record<string, unknown>;
  /** Which requirement each assertion proves (`t.as`, `t.proving`, `t.assuming`). */
  attribution: Attribution;
  /** How the test runs among its file's tests: one running beside others moves no clock. */
  order?: InFileOrder;
}

export function testContext(p: TestParts): T {
  const { cfg, area, transcript, tracker, ledger } = p;
  const skip = (reason: string, setting?: string, opts: { prerequisite?: boolean } = {}): never => {
    throw new Skip({ reason, setting, ...(opts.prerequisite ? { prerequisite: true } : {}) });
  };
  const notApplicable = (reason: string, setting?: string): never => {
    throw new NotApplicable({ reason, setting });
  };
  const svc = makeClient(
    'svc',
    cfg,
    p.registry,
    () => transcript,
    () => ledger,
    p.order,
  );
  const sched = makeClient(
    'sched',
    cfg,
    p.registry,
    () => transcript,
    () => ledger,
    p.order,
  );
  const t: T = {
    config: cfg,
    svc,
    sched,
    check(ex, ...checks) {
      try {
        for (const c of checks) c(ex, {});
      } catch (err) {
        // The exchange a failing check looked at: the failure's reproduction (report/curl.ts).
        charge(err, { exchange: ex });
        throw err;
      }
      return ex;
    },
    as(id) {
      const proving = p.attribution.as(id);
      return { check: (ex, ...checks) => proving(() => t.check(ex, ...checks)) };
    },
    proving: (id, fn) => p.attribution.proving(id, fn),
    assuming: (id, fn) => p.attribution.assuming(id, fn),
    precondition: (ex, ...checks) => requirePrecondition(ex, checks),
    notApplicable,
    track: (label, fn, phase) => tracker.add(label, fn, phase),
    unique: uniqueName,
    skip,
    advance: (seconds) => {
      // Checked before anything moves, where the harness moves a clock: that is global state. A
      // test that only waits for real time (a target without the clock) moves nothing the other
      // files or tests see; on the embedded reference every call is checked, so an undeclared
      // one is found there.
      const owner = timeOwnerOf(area);
      const domain = timeDomain(owner);
      if (clockMovable(cfg.capabilities)(domain)) guardGlobal(heldLease(), domain, 'moves time (t.advance)', p.order);
      return moveTime(cfg, owner, { svc, sched }, seconds, skip);
    },
    note: (text) => transcript.note(text),
    secret: (value) => redactor.add(value),
    affected: (id) => {
      if (!knownVersion(cfg.svc.version))
        notApplicable(
          `${id} is version-gated and the target's version is unknown (${cfg.svc.versionSource ?? 'not configured'})`,
          'svc.version (SVC_VERSION) or dialect.versionProbe',
        );
      return isAffected(p.catalogue.get(id), cfg.svc.version);
    },
    knownIssue: (message) => {
      p.taskMeta.knownIssue = redactor.text(message);
      transcript.note(`known issue observed: ${message}`);
    },
  };
  return t;
}
