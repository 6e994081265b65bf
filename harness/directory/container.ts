/**
 * OpenLDAP in a container, for machines where a container engine runs. Seeded over LDAP by the
 * image's administrator, whose DN becomes the bind entry (it may change every password).
 */
import { Client } from 'ldapts';
import type { SeedPlan } from './seed.js';
import { containerEngineMayRun } from './container-hints.js';

const IMAGE = 'bitnami/openldap:2.6';
const PORT = 1389;

export async function containerRuntimeAvailable(): Promise<boolean> {
  if (!containerEngineMayRun()) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

export async function startContainerLdap(
  plan: SeedPlan,
): Promise<{ url: string; bindDn: string; stop(): Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const adminDn = `cn=admin,${plan.baseDn}`;
  const container = await new GenericContainer(IMAGE)
    .withEnvironment({
      LDAP_ROOT: plan.baseDn,
      LDAP_ADMIN_USERNAME: 'admin',
      LDAP_ADMIN_PASSWORD: plan.bindPass,
      LDAP_SKIP_DEFAULT_TREE: 'yes',
    })
    .withExposedPorts(PORT)
    .withWaitStrategy(Wait.forListeningPorts())
    .withStartupTimeout(120_000)
    .start();
  const url = `ldap://127.0.0.1:${container.getMappedPort(PORT)}`;
  const client = new Client({ url, timeout: 10_000, connectTimeout: 5_000 });
  try {
    await client.bind(adminDn, plan.bindPass);
    for (const e of plan.entries) {
      if (e.dn === plan.bindDn) continue;
      const attrs = e.dn === plan.groupDn ? { ...e.attributes, member: [adminDn] } : e.attributes;
      await client.add(e.dn, attrs).catch((err: Error) => {
        if (!/already exists/i.test(err.message)) throw err;
      });
    }
  } catch (err) {
    await container.stop().catch(() => {});
    throw err;
  } finally {
    await client.unbind().catch(() => {});
  }
  return {
    url,
    bindDn: adminDn,
    stop: async () => {
      await container.stop();
    },
  };
}
