/**
 * The directory engine's timeouts against a listener that accepts connections and never answers:
 * request_timeout (a request on an ldap:// URL waits), connection_timeout (the TLS handshake of an
 * ldaps:// URL never completes, so the next URL is tried), their defaults (90 and 30 seconds) and
 * the rule that the smaller applies, each timeout written as integer seconds and as a duration
 * string, and the order in which a url list is tried. The request that takes the engine to the directory is POST
 * rotate-role, which every implementation must carry out there; a test proves the engine did
 * contact the silent listener before it measures anything, and is not applicable when the engine
 * answered first. Time moves on the service's clock (t.advance), or in real time within
 * timing.maxRealWaitSeconds; longer waits are skipped.
 */
import { conformance, type Exchange, type T, targetConfig } from '../../harness/index.js';
import { expectThat, statusBetween, success } from '../../harness/checks/index.js';
import { type SilentListener, silentListener } from '../../harness/directory/index.js';
import { account, baseConfig, directory, freshMount, ldapSuite, postStaticRole } from './helpers.js';

ldapSuite();

/**
 * The bound of a test that moves time by `advanced` seconds: its set-up and checks (timeouts.testMs),
 * the time moved (real time on a target without a clock of its own) and the two waits bounded by
 * timing.settleSeconds (for the contact, for the answer), so that a slow target fails at the step
 * it was waiting for, never on a bare test timeout.
 */
function boundFor(advanced: number): number {
  const cfg = targetConfig();
  return cfg.timeouts.testMs + (advanced + 2 * cfg.timing.settleSeconds) * 1000;
}

/** A request in flight: what it answered, once it has. */
interface InFlight {
  done: Promise<Exchange>;
  answer(): Exchange | undefined;
}

/**
 * Starts a request every implementation must take to the directory: POST rotate-role ("rotates the
 * static role password now"), on one connection of the engine's (a role created with
 * skip_import_rotation may be stored without contacting the directory at all, and an import
 * rotation may take a connection for the search and another for the change, each waiting a
 * connection timeout on a silent URL).
 */
async function useDirectory(t: T, target: Target): Promise<InFlight> {
  let answered: Exchange | undefined;
  // The answer comes only after the engine's own timeout (up to the 90 s default), so this request
  // may take longer than timeouts.requestMs: its own bound is that default plus timing.settleSeconds.
  const timeoutMs = (90 + t.config.timing.settleSeconds) * 1000;
  const done = t.svc.post(`${target.mount}/rotate-role/${target.role}`, { timeoutMs }).then((ex) => {
    answered = ex;
    return ex;
  });
  // Awaited by the test; a failure before that must not become an unhandled rejection.
  done.catch(() => undefined);
  return { done, answer: () => answered };
}

/** The request has not been answered yet (after one more round trip to the service). */
async function expectPending(t: T, req: InFlight, target: Target, when: string): Promise<void> {
  await t.svc.get(`${target.mount}/config`);
  const ex = req.answer();
  expectThat(ex === undefined, 'pending', ex?.response.status, 'no answer yet', `the request is still waiting ${when}`);
}

/** `p`, or undefined when it has not settled within timing.settleSeconds of real time. */
async function bounded<R>(t: T, p: Promise<R>): Promise<R | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), t.config.timing.settleSeconds * 1000);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the request and waits until the engine is talking to the silent listener (its request
 * or TLS handshake arrived): only from then on does moving the clock measure the timeout. An
 * engine that answers first never reached the directory with this request: nothing can show the
 * timeout then, so the test is not applicable (naming the answer); no contact within
 * timing.settleSeconds is a failure, naming that step.
 */
async function waiting(t: T, target: Target, listener: SilentListener): Promise<InFlight> {
  const req = await useDirectory(t, target);
  const reached = await bounded(t, Promise.race([listener.contacted.then(() => true), req.done.then(() => false)]));
  if (reached === false)
    t.notApplicable(
      `the engine answered ${req.answer()?.response.status} to POST rotate-role before it contacted the directory at the configured URL, so the timeout was never reached`,
    );
  expectThat(
    reached === true,
    'contacted',
    'no contact',
    'a connection that sends a request or a TLS handshake',
    `the engine contacts the directory at the configured URL within ${t.config.timing.settleSeconds} s (timing.settleSeconds) of POST rotate-role`,
  );
  return req;
}

/** The answer, which must come within timing.settleSeconds of real time now that the timeout passed. */
async function expectAnswered(t: T, req: InFlight, when: string): Promise<Exchange> {
  const ex = await bounded(t, req.done);
  expectThat(
    ex !== undefined,
    'answered',
    'none in time',
    'an answer',
    `the request is answered ${when}, within ${t.config.timing.settleSeconds} s (timing.settleSeconds)`,
  );
  return ex!;
}

/** A mount whose config points at a silent URL, and a static role in it to rotate. */
interface Target {
  mount: string;
  role: string;
}

/**
 * A fresh mount with a static role of an account of the run's directory (made while the config
 * points at that directory: set-up), then the config pointed at `url` with the given timeouts.
 */
async function mountAt(t: T, url: string, timeouts: Record<string, unknown>): Promise<Target> {
  const m = await freshMount(t, null);
  t.check(await t.svc.post(`${m}/config`, { body: baseConfig(t) }), success);
  const acct = await account(t, 'tmo');
  const { name: role, ex } = await postStaticRole(t, m, { username: acct.cn, skip_import_rotation: true }, 'tmo');
  t.precondition(ex, success);
  t.check(await t.svc.post(`${m}/config`, { body: baseConfig(t, { url, ...timeouts }) }), success);
  return { mount: m, role };
}

async function silent(t: T): Promise<SilentListener> {
  const listener = await silentListener();
  t.track('silent listener', () => listener.close());
  return listener;
}

interface TimeoutCase {
  id: string;
  title: string;
  /** The timeouts the mount is configured with. */
  config: Record<string, unknown>;
  /** When the timeout gives up: the request is still pending 5 seconds before, answered 1 second after. */
  seconds: number;
  /** What the answer waits for, as the failure names it. */
  answered: string;
}

// The forms of the timeouts ("integer seconds or string such as `90s`") are shown by their effect:
// duration strings in seconds, integer seconds and minutes.

/** A request on an ldap:// URL that the directory never answers fails once the timeout passed. */
const REQUEST_TIMEOUTS: TimeoutCase[] = [
  {
    id: 'ldap.config.request-timeout-applies',
    title: 'With request_timeout 20 a request the directory never answers fails after 20 seconds, not before',
    config: { request_timeout: '20s' },
    seconds: 20,
    answered: 'once request_timeout has passed',
  },
  {
    id: 'ldap.config.request-timeout-default',
    title: 'Without request_timeout a request the directory never answers fails after 90 seconds, not before',
    config: {},
    seconds: 90,
    answered: 'once 90 seconds have passed',
  },
  {
    id: 'ldap.config.request-timeout',
    title:
      'request_timeout 20 written as integer seconds: a request the directory never answers fails after 20 seconds',
    config: { request_timeout: 20 },
    seconds: 20,
    answered: 'once request_timeout has passed',
  },
  {
    id: 'ldap.config.request-timeout',
    title: 'request_timeout "1m" written in minutes: a request the directory never answers fails after 60 seconds',
    config: { request_timeout: '1m' },
    seconds: 60,
    answered: 'once request_timeout has passed',
  },
];

/**
 * A URL whose TLS handshake never completes, listed before the run's directory, is given up for the
 * next once the timeout passed. 10 seconds lies far enough below the default (30) that the service's
 * clock, which also moves with real time, cannot reach the default while the answer is awaited
 * (timing.settleSeconds).
 */
const HANDSHAKE_TIMEOUTS: TimeoutCase[] = [
  {
    id: 'ldap.config.connection-timeout-applies',
    title:
      'With connection_timeout 10 a URL whose TLS handshake never completes is given up for the next after 10 seconds',
    config: { connection_timeout: '10s' },
    seconds: 10,
    answered: 'through the second URL once connection_timeout has passed',
  },
  {
    id: 'ldap.config.connection-timeout-default',
    title:
      'Without connection_timeout a URL whose TLS handshake never completes is given up for the next after 30 seconds',
    config: {},
    seconds: 30,
    answered: 'through the second URL once 30 seconds have passed',
  },
  {
    id: 'ldap.config.timeouts-smaller-applies',
    title: 'With connection_timeout 60 and request_timeout 20 the next URL is tried after 20 seconds',
    config: { connection_timeout: '60s', request_timeout: '20s' },
    seconds: 20,
    answered: 'through the second URL once the smaller timeout has passed',
  },
  {
    id: 'ldap.config.connection-timeout',
    title:
      'connection_timeout 10 written as integer seconds: a URL whose TLS handshake never completes is given up after 10 seconds',
    config: { connection_timeout: 10 },
    seconds: 10,
    answered: 'through the second URL once connection_timeout has passed',
  },
];

for (const [cases, handshake] of [
  [REQUEST_TIMEOUTS, false],
  [HANDSHAKE_TIMEOUTS, true],
] as const) {
  for (const c of cases) {
    conformance({ id: c.id, level: 'MUST', title: c.title, timeoutMs: boundFor(c.seconds + 1) }, async (t) => {
      const hang = await silent(t);
      const url = handshake ? `ldaps://${hang.address},${directory(t).url}` : `ldap://${hang.address}`;
      const m = await mountAt(t, url, c.config);
      const req = await waiting(t, m, hang);
      await t.advance(c.seconds - 5);
      await expectPending(t, req, m, `${c.seconds - 5} seconds in`);
      await t.advance(6);
      // A refused request (any error status: none is given) or, through the next URL, the answer.
      t.check(await expectAnswered(t, req, c.answered), handshake ? success : statusBetween(400, 599));
    });
  }
}

conformance(
  {
    id: 'ldap.config.url-order',
    level: 'MUST',
    title: 'A url list is tried in order: while its first URL answers, the second is never contacted',
    timeoutMs: boundFor(0),
  },
  async (t) => {
    // Listed second, after the run's directory: the engine works through the first and never
    // contacts the second.
    const second = await silent(t);
    let heard = false;
    void second.contacted.then(() => {
      heard = true;
    });
    const m = await mountAt(t, `${directory(t).url},ldap://${second.address}`, { request_timeout: '3s' });
    t.check(await t.svc.post(`${m.mount}/rotate-role/${m.role}`), success);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectThat(
      !heard,
      'url-order',
      'contacted',
      'no contact',
      'the second URL was not contacted while the first one answered',
    );
    // The absence means something only if the listener shows a contact: listed first, it does
    // (the test is not applicable when the engine answers without contacting it).
    const first = await silent(t);
    const shown = await mountAt(t, `ldap://${first.address},${directory(t).url}`, { request_timeout: '3s' });
    const req = await waiting(t, shown, first);
    await first.close();
    await bounded(t, req.done);
  },
);
