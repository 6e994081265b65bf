/**
 * The directory engine's timeouts against a listener that accepts connections and never answers:
 * request_timeout (a request on an ldap:// URL waits), connection_timeout (the TLS handshake of an
 * ldaps:// URL never completes, so the next URL is tried), their defaults (90 and 30 seconds) and
 * the rule that the smaller applies. Time moves on the service's clock (t.advance): no test waits
 * the durations.
 */
import { conformance, type Exchange, type T } from '../../harness/index.js';
import { expectThat, statusBetween, success } from '../../harness/checks/index.js';
import { silentListener } from '../../harness/directory/index.js';
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
      if (ex.response.status < 400) t.track(`static role ${role}`, () => t.svc.delete(`${mountPath}/static-role/${role}`));
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

/** The answer, which must come within timing.settleSeconds of real time now that the timeout passed. */
async function expectAnswered(t: T, req: InFlight, when: string): Promise<Exchange> {
  const bound = t.config.timing.settleSeconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), bound);
  });
  const ex = await Promise.race([req.done, late]);
  clearTimeout(timer);
  expectThat(ex !== undefined, 'answered', `the request is answered ${when}`, 'an answer', `none within ${bound} ms`);
  return ex!;
}

/** A fresh mount whose config points at `url` with the given timeouts (and the run's directory's entries). */
async function mountAt(t: T, url: string, timeouts: Record<string, unknown>): Promise<string> {
  const m = await freshMount(t, null);
  t.check(await t.svc.post(`${m}/config`, { body: baseConfig(t, { url, ...timeouts }) }), success);
  return m;
}

async function silent(t: T): Promise<string> {
  const listener = await silentListener();
  t.track('silent listener', () => listener.close());
  return listener.address;
}

conformance(
  {
    id: 'ldap.config.request-timeout-applies',
    level: 'MUST',
    title: 'With request_timeout 20 a request the directory never answers fails after 20 seconds, not before',
  },
  async (t) => {
    const m = await mountAt(t, `ldap://${await silent(t)}`, { request_timeout: 20 });
    const req = await useDirectory(t, m);
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
    const m = await mountAt(t, `ldap://${await silent(t)}`, {});
    const req = await useDirectory(t, m);
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
    title: 'With connection_timeout 20 a URL whose TLS handshake never completes is given up for the next after 20 seconds',
  },
  async (t) => {
    const m = await mountAt(t, `ldaps://${await silent(t)},${directory(t).url}`, { connection_timeout: 20 });
    const req = await useDirectory(t, m);
    await t.advance(15);
    await expectPending(t, req, m, '15 seconds in');
    await t.advance(6);
    t.check(await expectAnswered(t, req, 'through the second URL once connection_timeout has passed'), success);
  },
);

conformance(
  {
    id: 'ldap.config.connection-timeout-default',
    level: 'MUST',
    title: 'Without connection_timeout a URL whose TLS handshake never completes is given up for the next after 30 seconds',
  },
  async (t) => {
    const m = await mountAt(t, `ldaps://${await silent(t)},${directory(t).url}`, {});
    const req = await useDirectory(t, m);
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
    const m = await mountAt(t, `ldaps://${await silent(t)},${directory(t).url}`, {
      connection_timeout: 60,
      request_timeout: 20,
    });
    const req = await useDirectory(t, m);
    await t.advance(15);
    await expectPending(t, req, m, '15 seconds in');
    await t.advance(6);
    t.check(await expectAnswered(t, req, 'through the second URL once the smaller timeout has passed'), success);
  },
);
