/** Shared pieces of the auth and release suites: userpass users, logins, the mount accessor, lockout timing. */
import { randomBytes } from 'node:crypto';
import type { MountRef, T } from '../../harness/index.js';
import { CheckFailure, success } from '../../harness/checks/index.js';
import type { Exchange } from '../../harness/index.js';

export function password(): string {
  return `pw-${randomBytes(12).toString('base64url')}`;
}

/** Creates a user with a fresh password; returns name and password (registered as secret). */
export async function createUser(
  t: T,
  mount: MountRef,
  policies: string[] = ['default'],
): Promise<{ name: string; password: string }> {
  const name = t.unique('user');
  const pw = password();
  t.secret(pw);
  // A precondition: a target refusing the user makes the lockout/login rule untestable, not broken.
  t.precondition(
    await t.svc.post(`${mount.path}/users/${name}`, { body: { password: pw, token_policies: policies } }),
    success,
  );
  t.track(`user ${name}`, () => t.svc.delete(`${mount.path}/users/${name}`));
  return { name, password: pw };
}

/**
 * A login with no client token, as a fresh client would send it. The identity entity a real
 * product makes for the user at its first login (`auth.entity_id`; not in the documents) is
 * deleted after the test, so the run leaves none behind.
 */
export async function login(t: T, mount: MountRef, name: string, pw: string): Promise<Exchange> {
  const ex = await t.svc.post(`${mount.path}/login/${name}`, { body: { password: pw }, token: null });
  const auth = (ex.response.body as { auth?: { client_token?: unknown; entity_id?: unknown } | null } | undefined)
    ?.auth;
  if (typeof auth?.client_token === 'string' && auth.client_token) t.secret(auth.client_token);
  const entity = auth?.entity_id;
  if (typeof entity === 'string' && entity)
    t.track(`identity entity ${entity}`, () => t.svc.delete(`identity/entity/id/${entity}`, { validate: false }));
  return ex;
}

export function clientToken(ex: Exchange): string | undefined {
  return (ex.response.body as { auth?: { client_token?: string } | null } | undefined)?.auth?.client_token ?? undefined;
}

/** The login succeeded and returned a client token. */
export function loggedIn(ex: Exchange, what: string): string {
  const token = clientToken(ex);
  if (ex.response.status !== 200 || !token) {
    throw new CheckFailure('login', `${what}: POST ${ex.request.path} did not log in`, '200 with auth.client_token', {
      status: ex.response.status,
      errors: (ex.response.body as { errors?: unknown })?.errors,
    });
  }
  return token;
}

/** The login was refused: an error status and no token. */
export function refused(ex: Exchange, what: string): void {
  if (ex.response.status < 400 || clientToken(ex)) {
    throw new CheckFailure(
      'login-refused',
      `${what}: POST ${ex.request.path} was not refused`,
      '>= 400 without a token',
      { status: ex.response.status, token: clientToken(ex) ? '[issued]' : undefined },
    );
  }
}

/** `n` logins with a wrong password, each refused. */
export async function failLogins(t: T, mount: MountRef, name: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    refused(await login(t, mount, name, `wrong-${i}-${password()}`), `wrong password attempt ${i + 1}`);
}

/** The accessor of an auth mount, from sys/auth. */
export async function accessorOf(t: T, mount: MountRef): Promise<string> {
  const ex = await t.svc.get('sys/auth');
  t.check(ex, success);
  const key = `${mount.path.replace(/^auth\//, '')}/`;
  const data = (ex.response.body as { data?: Record<string, { accessor?: string }> }).data ?? {};
  const accessor = data[key]?.accessor;
  if (!accessor)
    throw new CheckFailure(
      'accessor',
      `sys/auth does not list ${key} with an accessor`,
      'an accessor',
      Object.keys(data),
    );
  return accessor;
}

/**
 * Waits `seconds` of the target's time. With the reference's clock this is instant; a real target
 * needs the opt-in lockout.allowLongWaits (these cases wait out whole lockout windows).
 */
export async function waitLockout(t: T, seconds: number): Promise<void> {
  if (t.config.capabilities.clock || seconds <= t.config.timing.maxRealWaitSeconds) return t.advance(seconds);
  if (!t.config.lockout.allowLongWaits)
    t.skip(`needs ${seconds}s of real time to pass for the lockout window`, 'lockout.allowLongWaits');
  await new Promise((r) => setTimeout(r, seconds * 1000 + 500));
}

/** Per-test timeout for cases that may wait whole lockout windows in real time. */
export function longTimeout(lockout: { durationSeconds: number; resetSeconds: number }): number {
  return (lockout.durationSeconds + lockout.resetSeconds) * 1000 + 120_000;
}
