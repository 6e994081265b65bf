/**
 * A cloud credentials mount of one test, for the core checks that need what only a secrets engine
 * with a third party behind it gives: an answer that creates a lease (the envelope's lease fields)
 * and a third party that answers with an error (status 502). The core documents name no engine
 * of their own that leases, so the core suite borrows the cloud engine of the same document,
 * configured with the run's cloud settings (`cloud.*`); without them the test is skipped naming
 * the setting. Every step here is set-up: a target refusing it makes the test not applicable.
 */
import { freshMount, type T } from '../../harness/index.js';
import { success } from '../../harness/checks/index.js';

type Setting = 'rootClientId' | 'rootClientSecret' | 'tenantId' | 'subscriptionId' | 'applicationObjectId';

function setting(t: T, key: Setting): string {
  const value = t.config.cloud?.[key];
  if (!value) t.skip(`a lease of a secrets engine needs the cloud settings, which lack ${key}`, `cloud.${key}`);
  return value!;
}

/** Writes the mount's configuration: the root client of the run's settings, or `clientSecret` instead of its secret. */
export async function configure(t: T, mount: string, opts: { clientSecret?: string } = {}): Promise<void> {
  const secret = setting(t, 'rootClientSecret');
  t.secret(secret);
  const config = {
    subscription_id: setting(t, 'subscriptionId'),
    tenant_id: setting(t, 'tenantId'),
    client_id: setting(t, 'rootClientId'),
    client_secret: opts.clientSecret ?? secret,
  };
  t.precondition(await t.svc.post(`${mount}/config`, { body: config }), success);
}

/** A fresh cloud mount configured with the root client of the run's settings. */
export async function cloudEngine(t: T): Promise<string> {
  setting(t, 'rootClientSecret');
  const mount = await freshMount(t, 'cloud', { type: 'cloud' });
  await configure(t, mount);
  return mount;
}

/** A role of `mount` that issues credentials for the existing application of the settings, with `ttl` seconds. */
export async function applicationRole(t: T, mount: string, ttl: number): Promise<string> {
  const role = t.unique('lease-role');
  const body = { application_object_id: setting(t, 'applicationObjectId'), ttl };
  t.precondition(await t.svc.post(`${mount}/roles/${role}`, { body }), success);
  t.track(`role ${role}`, () => t.svc.delete(`${mount}/roles/${role}`));
  return role;
}

/** Revokes a lease after the test (cleanup phase `revoke`). */
export function revokeAfter(t: T, leaseId: string): void {
  if (leaseId)
    t.track(`lease ${leaseId}`, () => t.svc.put('sys/leases/revoke', { body: { lease_id: leaseId } }), 'revoke');
}
