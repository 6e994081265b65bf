import { suite, conformance, type T } from '../../harness/index.js';
import { targetConfig } from '../../harness/index.js';
import { lacksField, statusIs, success } from '../../harness/checks/index.js';
import {
  cloudConfig,
  eventually,
  fail,
  fixtureRoleName,
  loginsEventually,
  need,
  probe,
  propagation,
  revokeLease,
  scopeFor,
  type App,
  type DirectoryProbe,
  purgeAfterTest,
} from './helpers.js';
import { envMount } from './environment.js';

suite('cloud');

/**
 * A mount configured with an application of its own (created in the directory for this test), so
 * rotating its secret never touches the credentials the rest of the run uses. Its engine must not
 * see CLOUD_CLIENT_ID or CLOUD_CLIENT_SECRET: they would override that application.
 */
async function rotatable(
  t: T,
  extraConfig: Record<string, unknown> = {},
): Promise<{ mount: string; p: DirectoryProbe; app: App; secret: string; config: Record<string, unknown> }> {
  const p = probe(t);
  const c = need(t, 'tenantId', 'subscriptionId');
  const { app, secret } = await p.createApp(t.unique('engine-root'), { admin: true, withSecret: true });
  t.secret(secret);
  t.track(`application ${app.displayName}`, () => p.deleteApp(app));
  // A cloud may take a moment to accept a new secret: the engine gets it once it works.
  if (!(await loginsEventually(t, p, app.appId, secret!, true)))
    t.notApplicable(
      `the cloud did not accept the new application's secret within ${propagation(t)} s`,
      'cloud.propagationSeconds',
    );
  const { mount } = await envMount(t, { unset: ['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET'] });
  const config = {
    subscription_id: c.subscriptionId,
    tenant_id: c.tenantId,
    client_id: app.appId,
    client_secret: secret!,
    ...extraConfig,
  };
  t.check(await t.svc.post(`${mount}/config`, { body: config }), success);
  return { mount, p, app, secret: secret!, config };
}

/**
 * POST rotate-root with no parameters. Its acceptance is the rule of replaces-secret (which every
 * test that rotates names), so a refused rotation fails that rule, not the one a test is about.
 */
async function rotate(t: T, mount: string) {
  const ex = await t.svc.post(`${mount}/rotate-root`);
  t.as('cloud.rotate-root.replaces-secret').check(ex, statusIs(200, 204));
  return ex;
}

/**
 * Retries `attempt` (a role write, a credential request) while it fails, for up to
 * cloud.propagationSeconds: the engine may fail to authenticate while a rotated secret propagates.
 */
async function whilePropagating(t: T, attempt: () => Promise<number>): Promise<number> {
  let status = 0;
  await eventually(propagation(t), async () => {
    status = await attempt();
    return status < 300;
  });
  return status;
}

/**
 * The one secret of `app` that was not there before, as the directory lists it. That rotate-root
 * generates one is the rule of replaces-secret (which every test that rotates names).
 */
async function newCredential(t: T, p: DirectoryProbe, before: App): Promise<{ keyId: string; endDateTime: string }> {
  const after = await p.appByClientId(before.appId);
  const added =
    after?.passwordCredentials.filter((c) => !before.passwordCredentials.some((b) => b.keyId === c.keyId)) ?? [];
  t.proving('cloud.rotate-root.replaces-secret', () => {
    if (added.length !== 1)
      fail('new-secret', 'rotate-root did not add exactly one secret to the configured application', 1, added.length);
  });
  return added[0]!;
}

/** Bounded wait for the old secret to stop authenticating (cloud.rotationSwapSeconds, default 150). */
const swap = (t: { config: T['config'] }) => cloudConfig(t).rotationSwapSeconds ?? 150;
/** The replace test may wait for the swap and then for propagation: its timeout covers both. */
const replaceTimeoutMs = (swap({ config: targetConfig() }) + propagation({ config: targetConfig() }) + 60) * 1000;

conformance(
  {
    id: 'cloud.rotate-root.replaces-secret',
    level: 'MUST',
    timeoutMs: replaceTimeoutMs,
    title:
      'POST /cloud/rotate-root replaces the client secret: the old one stops authenticating and the engine keeps working',
  },
  async (t) => {
    const { mount, p, app, secret } = await rotatable(t);
    const before = (await p.appByClientId(app.appId))!;
    await rotate(t, mount);
    const after = await p.appByClientId(app.appId);
    const added = after?.passwordCredentials.filter(
      (c) => !before.passwordCredentials.some((b) => b.keyId === c.keyId),
    );
    if (!added?.length)
      fail('new-secret', 'rotate-root added no client secret to the configured application', '>= 1', 0);
    // When the old secret goes is not shown: a product may swap it in a background task later.
    const oldRefused = await eventually(swap(t), async () => (await p.loginStatus(app.appId, secret)) !== 200);
    if (!oldRefused)
      fail(
        'old-secret-refused',
        `the client secret from before rotate-root still authenticates after ${swap(t)} s (setting cloud.rotationSwapSeconds)`,
        'refused',
        200,
      );
    // The document allows a brief failure while the new secret propagates: role write and
    // credentials are retried within cloud.propagationSeconds.
    const name = t.unique('role');
    const body = { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]) };
    t.track(`role ${name}`, () => t.svc.delete(`${mount}/roles/${name}`));
    const written = await whilePropagating(
      t,
      async () => (await t.svc.post(`${mount}/roles/${name}`, { body })).response.status,
    );
    if (written >= 300)
      fail('engine-works', 'the engine could not write a role with its rotated secret', '2xx', written);
    const status = await whilePropagating(t, async () => {
      const creds = await t.svc.get(`${mount}/creds/${name}`);
      const b = creds.response.body as
        | { lease_id?: string; data?: { client_id?: string; client_secret?: string } }
        | undefined;
      if (creds.response.status === 200 && b?.lease_id) {
        t.secret(b.data?.client_secret);
        t.track(`lease ${b.lease_id}`, () => revokeLease(t, b.lease_id!), 'revoke');
        await purgeAfterTest(t, b.data?.client_id);
      }
      return creds.response.status;
    });
    if (status !== 200)
      fail('engine-works', 'the engine could not issue credentials with its rotated secret', 200, status);
  },
);

conformance(
  {
    id: 'cloud.rotate-root.replaces-secret',
    level: 'MUST',
    timeoutMs: replaceTimeoutMs,
    title:
      'POST /cloud/rotate-root on an application holding a second secret added after the configured one: the configured secret stops authenticating',
  },
  async (t) => {
    const { mount, p, app, secret } = await rotatable(t);
    // A second secret, added after the configured one: the engine must still retire the one it used.
    t.secret(await p.addAppPassword(app.id, 'suite-extra'));
    await rotate(t, mount);
    const oldRefused = await eventually(swap(t), async () => (await p.loginStatus(app.appId, secret)) !== 200);
    if (!oldRefused)
      fail(
        'old-secret-refused',
        `the configured client secret still authenticates ${swap(t)} s after rotate-root (setting cloud.rotationSwapSeconds) when the application held a second secret`,
        'refused',
        200,
      );
  },
);

conformance(
  {
    id: 'cloud.rotate-root.secret-not-returned',
    also: ['auth.write-only.root-password', 'cloud.rotate-root.replaces-secret'],
    level: 'MUST',
    title: 'POST /cloud/rotate-root and GET /cloud/config do not return the new client secret',
  },
  async (t) => {
    const { mount } = await rotatable(t);
    const ex = await rotate(t, mount);
    if (ex.response.status === 200) t.check(ex, lacksField('/data/client_secret'));
    t.check(await t.svc.get(`${mount}/config`), statusIs(200), lacksField('/data/client_secret'));
  },
);

async function expiryAfterRotation(
  t: T,
  config: Record<string, unknown>,
  opts: { rewrite?: boolean } = {},
): Promise<number> {
  const { mount, p, app, config: written } = await rotatable(t, config);
  // A later configuration write that sends the same fields again (root_password_ttl still omitted).
  if (opts.rewrite) t.check(await t.svc.post(`${mount}/config`, { body: written }), success);
  const before = (await p.appByClientId(app.appId))!;
  await rotate(t, mount);
  const now = await p.now();
  const cred = await newCredential(t, p, before);
  return Math.round((Date.parse(cred.endDateTime) - now) / 1000);
}

conformance(
  {
    id: 'cloud.rotate-root.expiry',
    also: ['cloud.rotate-root.replaces-secret'],
    level: 'MUST',
    title: 'the client secret from POST /cloud/rotate-root is valid for root_password_ttl',
  },
  async (t) => {
    const seconds = await expiryAfterRotation(t, { root_password_ttl: '48h' });
    if (Math.abs(seconds - 48 * 3600) > 120)
      fail('root-password-ttl', 'the new secret does not expire after root_password_ttl (48h)', 48 * 3600, seconds);
  },
);

for (const [ttl, seconds] of [
  ['3d', 3 * 86400],
  ['2880m', 2 * 86400],
] as const)
  conformance(
    {
      id: 'cloud.rotate-root.expiry',
      also: ['cloud.rotate-root.replaces-secret'],
      level: 'MUST',
      title: `the client secret from POST /cloud/rotate-root is valid for a root_password_ttl of ${ttl}`,
    },
    async (t) => {
      const got = await expiryAfterRotation(t, { root_password_ttl: ttl });
      if (Math.abs(got - seconds) > 120)
        fail('root-password-ttl', `the new secret does not expire after root_password_ttl (${ttl})`, seconds, got);
    },
  );

conformance(
  {
    id: 'cloud.config.root-password-ttl-default',
    also: ['cloud.rotate-root.replaces-secret'],
    level: 'MUST',
    title:
      'without root_password_ttl, also after a later configuration write that omits it, the client secret from POST /cloud/rotate-root is valid for 182 days',
  },
  async (t) => {
    const seconds = await expiryAfterRotation(t, {}, { rewrite: true });
    if (Math.abs(seconds - 182 * 86400) > 120)
      fail(
        'root-password-ttl-default',
        'after a configuration write that omitted root_password_ttl the new secret does not expire after the 182d default',
        182 * 86400,
        seconds,
      );
  },
);

conformance(
  {
    id: 'cloud.config.root-password-ttl-default',
    also: ['cloud.rotate-root.replaces-secret'],
    level: 'MUST',
    title: 'without root_password_ttl the client secret from POST /cloud/rotate-root is valid for 182 days',
  },
  async (t) => {
    const seconds = await expiryAfterRotation(t, {});
    if (Math.abs(seconds - 182 * 86400) > 120)
      fail('root-password-ttl-default', 'the new secret does not expire after the 182d default', 182 * 86400, seconds);
  },
);

conformance(
  {
    id: 'cloud.rotate-root.replaces-secret',
    level: 'MUST',
    timeoutMs: 2 * replaceTimeoutMs,
    title:
      'a second POST /cloud/rotate-root retires the secret the first one generated: the configured application keeps only the newest',
  },
  async (t) => {
    const { mount, p, app, secret } = await rotatable(t);
    const before = (await p.appByClientId(app.appId))!;
    await rotate(t, mount);
    const first = await newCredential(t, p, before);
    // The first rotation done: its predecessor is refused (a product may swap in a background task).
    if (!(await eventually(swap(t), async () => (await p.loginStatus(app.appId, secret)) !== 200)))
      t.notApplicable(
        `the first rotation did not retire the configured secret within ${swap(t)} s (replaces-secret's own test)`,
        'cloud.rotationSwapSeconds',
      );
    // The engine works with the secret it generated (the document allows a brief failure meanwhile).
    const middle = (await p.appByClientId(app.appId))!;
    const again = await whilePropagating(t, async () => (await t.svc.post(`${mount}/rotate-root`)).response.status);
    if (again >= 300) fail('second-rotation', 'the second rotate-root failed', '2xx', again);
    const second = await newCredential(t, p, middle);
    // The secret of the first rotation is removed (or expired): no one can authenticate with it any more.
    const retired = await eventually(swap(t), async () => {
      const cred = (await p.appByClientId(app.appId))?.passwordCredentials.find((c) => c.keyId === first.keyId);
      return !cred || Date.parse(cred.endDateTime) <= (await p.now());
    });
    if (!retired)
      fail(
        'first-rotated-secret-retired',
        `the secret the first rotate-root generated is still valid on the application ${swap(t)} s after the second (setting cloud.rotationSwapSeconds)`,
        [second.keyId],
        (await p.appByClientId(app.appId))?.passwordCredentials.map((c) => c.keyId),
      );
  },
);
