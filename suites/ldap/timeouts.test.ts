/**
 * The directory engine's timeouts against a listener that accepts connections and never answers:
 * request_timeout (a request on an ldap:// URL waits), connection_timeout (the TLS handshake of an
 * ldaps:// URL never completes, so the next URL is tried), their defaults (90 and 30 seconds) and
 * the rule that the smaller applies. Time moves on the service's clock (t.advance): no test waits
 * the durations.
 */
import { conformance, type Exchange, type T } from '../../harness/index.js';
import { expectThat, statusBetween, success } from '../../harness/checks/index.js';
import { type SilentListener, silentListener } from '../../harness/directory/index.js';
import { account, baseConfig, directory, freshMount, ldapSuite, LONG } from './helpers.js';

ldapSuite();

/** A request in flight: what it answered, once it has. */
interface InFlight {
  done: Promise<Exchange>;
  answer(): Exchange | undefined;
}

/** Starts creating a static role (the engine binds and searches); the role is removed afterwards if created. */
async function useDirectory(t: T, mountPath: string): Promise<InFlight> {
  const acct = await account(t, 'tmo');
  const role = t.unique('tmo');
  let answered: Exchange | undefined;
  const done = t.svc
    .post(`${mountPath}/static-role/${role}`, {
      body: { username: acct.cn, rotation_period: LONG, skip_import_rotation: true },
    })
    .then((ex) => {
      answered = ex;
      if (ex.response.status < 400)
        t.track(`static role ${role}`, () => t.svc.delete(`${mountPath}/static-role/${role}`));
      return ex;
    });
  // Awaited by the test; a failure before that must not become an unhandled rejection.
  done.catch(() => undefined);
  return { done, answer: () => answered };
}

/** The request has not been answered yet (after one more round trip to the service). */
async function expectPending(t: T, req: InFlight, mountPath: string, when: string): Promise<void> {
  await t.svc.get(`${mountPath}/config`);
  const ex = req.answer();
  expectThat(ex === undefined, 'pending', `the request is still waiting ${when}`, 'no answer yet', ex?.response.status);
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
 * or TLS handshake arrived): only from then on does moving the clock measure the timeout.
 */
async function waiting(t: T, mountPath: string, listener: SilentListener): Promise<InFlight> {
  const req = await useDirectory(t, mountPath);
  const reached = await bounded(t, Promise.race([listener.contacted.then(() => true), req.done.then(() => false)]));
  expectThat(
    reached === true,
    'contacted',
    'the engine contacts the directory at the configured URL',
    'a connection that sends a request or a TLS handshake',
    reached === false ? `an answer first: ${req.answer()?.response.status}` : 'no contact',
  );
  return req;
}

/** The answer, which must come within timing.settleSeconds of real time now that the timeout passed. */
async function expectAnswered(t: T, req: InFlight, when: string): Promise<Exchange> {
  const ex = await bounded(t, req.done);
  expectThat(ex !== undefined, 'answered', `the request is answered ${when}`, 'an answer', 'none in time');
  return ex!;
}

/** A fresh mount whose config points at `url` with the given timeouts (and the run's directory's entries). */
async function mountAt(t: T, url: string, timeouts: Record<string, unknown>): Promise<string> {
  const m = await freshMount(t, null);
  t.check(await t.svc.post(`${m}/config`, { body: baseConfig(t, { url, ...timeouts }) }), success);
  return m;
}

async function silent(t: T): Promise<SilentListener> {
  const listener = await silentListener();
  t.track('silent listener', () => listener.close());
  return listener;
}

conformance(
  {
    id: 'ldap.config.request-timeout-applies',
    level: 'MUST',
    title: 'With request_timeout 20 a request the directory never answers fails after 20 seconds, not before',
  },
  async (t) => {
    const hang = await silent(t);
    const m = await mountAt(t, `ldap://${hang.address}`, { request_timeout: 20 });
    const req = await waiting(t, m, hang);
    await t.advance(15);
    await expectPending(t, req, m, '15 seconds in');
    await t.advance(6);
    t.check(await expectAnswered(t, req, 'once request_timeout has passed'), statusBetween(400, 599));
  },
);

conformance(
  {
    id: 'ldap.config.request-timeout-default',
    level: 'MUST',
    title: 'Without request_timeout a request the directory never answers fails after 90 seconds, not before',
  },
  async (t) => {
    const hang = await silent(t);
    const m = await mountAt(t, `ldap://${hang.address}`, {});
    const req = await waiting(t, m, hang);
    await t.advance(85);
    await expectPending(t, req, m, '85 seconds in');
    await t.advance(6);
    t.check(await expectAnswered(t, req, 'once 90 seconds have passed'), statusBetween(400, 599));
  },
);

conformance(
  {
    id: 'ldap.config.connection-timeout-applies',
    level: 'MUST',
    title:
      'With connection_timeout 10 a URL whose TLS handshake never completes is given up for the next after 10 seconds',
  },
  async (t) => {
    const hang = await silent(t);
    // 10 seconds, far enough below the default (30) that the service's clock, which also moves
    // with real time, cannot reach the default while the answer is awaited (timing.settleSeconds).
    const m = await mountAt(t, `ldaps://${hang.address},${directory(t).url}`, { connection_timeout: 10 });
    const req = await waiting(t, m, hang);
    await t.advance(5);
    await expectPending(t, req, m, '5 seconds in');
    await t.advance(6);
    t.check(await expectAnswered(t, req, 'through the second URL once connection_timeout has passed'), success);
  },
);

conformance(
  {
    id: 'ldap.config.connection-timeout-default',
    level: 'MUST',
    title:
      'Without connection_timeout a URL whose TLS handshake never completes is given up for the next after 30 seconds',
  },
  async (t) => {
    const hang = await silent(t);
    const m = await mountAt(t, `ldaps://${hang.address},${directory(t).url}`, {});
    const req = await waiting(t, m, hang);
    await t.advance(25);
    await expectPending(t, req, m, '25 seconds in');
    await t.advance(6);
    t.check(await expectAnswered(t, req, 'through the second URL once 30 seconds have passed'), success);
  },
);

conformance(
  {
    id: 'ldap.config.timeouts-smaller-applies',
    level: 'MUST',
    title: 'With connection_timeout 60 and request_timeout 20 the next URL is tried after 20 seconds',
  },
  async (t) => {
    const hang = await silent(t);
    const m = await mountAt(t, `ldaps://${hang.address},${directory(t).url}`, {
      connection_timeout: 60,
      request_timeout: 20,
    });
    const req = await waiting(t, m, hang);
    await t.advance(15);
    await expectPending(t, req, m, '15 seconds in');
    await t.advance(6);
    t.check(await expectAnswered(t, req, 'through the second URL once the smaller timeout has passed'), success);
  },
);
