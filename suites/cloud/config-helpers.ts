/** The configuration bodies and the credential attempt the configuration tests share. */
import type { T } from '../../harness/index.js';
import { fixtureRoleName, need, purgeAfterTest, revokeLease, scopeFor } from './helpers.js';

/** A configuration of the root client: subscription_id, tenant_id, client_id and client_secret. */
export function rootConfig(t: T): Record<string, string> {
  const c = need(t, 'rootClientId', 'rootClientSecret', 'tenantId', 'subscriptionId');
  t.secret(c.rootClientSecret);
  return {
    subscription_id: c.subscriptionId,
    tenant_id: c.tenantId,
    client_id: c.rootClientId,
    client_secret: c.rootClientSecret,
  };
}

export interface Attempt {
  /** Status of the role write. */
  role: number;
  /** Status of the credential request (0: not made, the role write failed). */
  creds: number;
  clientId?: string;
}

/**
 * Writes a role naming the fixture role definition on a run-unique scope and reads credentials of
 * it; returns the statuses (the role, credentials and scope are removed after the test).
 */
export async function tryCredentials(t: T, mount: string): Promise<Attempt> {
  const name = t.unique('role');
  const scope = await scopeFor(t);
  const role = await t.svc.post(`${mount}/roles/${name}`, {
    body: { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope }]) },
  });
  if (role.response.status >= 400) return { role: role.response.status, creds: 0 };
  t.track(`role ${name}`, () => t.svc.delete(`${mount}/roles/${name}`));
  const creds = await t.svc.get(`${mount}/creds/${name}`);
  const b = creds.response.body as
    | { lease_id?: string; data?: { client_id?: string; client_secret?: string } }
    | undefined;
  if (creds.response.status === 200 && b?.lease_id) {
    t.secret(b.data?.client_secret);
    t.track(`lease ${b.lease_id}`, () => revokeLease(t, b.lease_id!), 'revoke');
    await purgeAfterTest(t, b.data?.client_id);
  }
  return { role: role.response.status, creds: creds.response.status, clientId: b?.data?.client_id };
}

/** Whether the attempt issued credentials. */
export const issued = (a: Attempt) => a.role < 400 && a.creds === 200;
