/**
 * Shared pieces of the cloud suite: the cloud settings of the target, the reader of the cloud the
 * engine manages (suites/lib/cloud-directory.ts: the real cloud's token endpoint, directory and
 * resource manager APIs, so tests check real effects, not only the engine's answers), the run's
 * scopes, and the mount set-up. A test that needs a setting the target lacks is skipped naming it.
 */
import { readFileSync } from 'node:fs';
import { redactor, type T, type MountRef, type Suite } from '../../harness/index.js';
import type { CloudConfig } from '../../harness/index.js';
import { CLOUD_PUBLIC_ENDPOINTS } from '../../contract/cloud.js';
import { CheckFailure } from '../../harness/checks/index.js';
import { CloudCallError, CloudReader, httpsTransport } from '../lib/cloud-directory.js';

export type { App, Assignment, RoleDef, Sp } from '../lib/cloud-directory.js';
export { sameDefinition } from '../lib/cloud-directory.js';
export type DirectoryProbe = CloudReader;

/** The target's cloud settings (config file, then CLOUD_* environment variables, see contract/cloud-settings.ts). */
export function cloudConfig(t: { config: T['config'] }): CloudConfig {
  const c: CloudConfig = { ...t.config.cloud };
  if (c.rootClientSecret) redactor.add(c.rootClientSecret);
  if (c.readerClientSecret) redactor.add(c.readerClientSecret);
  return c;
}

type Need = 'rootClientId' | 'rootClientSecret' | 'tenantId' | 'subscriptionId' | 'resourceGroup';

/** The named settings, or a skip that names the first one missing. */
export function need<K extends Need>(t: T, ...keys: K[]): Required<Pick<CloudConfig, K>> {
  const c = cloudConfig(t);
  // The run lacks a cloud fixture setting: a missing prerequisite, so the run reports itself incomplete.
  for (const k of keys) if (!c[k]) t.skip(`the cloud settings lack ${k}`, `cloud.${k}`, { prerequisite: true });
  return c as Required<Pick<CloudConfig, K>>;
}

const readers = new Map<string, CloudReader>();

/** Whether the settings name an application to read the cloud with (probe would not skip). */
export function canRead(t: T): boolean {
  const c = cloudConfig(t);
  return Boolean((c.readerClientId ?? c.rootClientId) && (c.readerClientSecret ?? c.rootClientSecret) && c.tenantId);
}

/** The reader of the target's cloud (one per settings, so its tokens are reused across tests). */
export function probe(t: T): CloudReader {
  const c = cloudConfig(t);
  const clientId = c.readerClientId ?? c.rootClientId;
  const clientSecret = c.readerClientSecret ?? c.rootClientSecret;
  if (!clientId || !clientSecret)
    t.skip('the cloud settings name no reading application', 'cloud.readerClientId or cloud.rootClientId', {
      prerequisite: true,
    });
  const { tenantId } = need(t, 'tenantId');
  const settings = {
    loginEndpoint: c.loginEndpoint ?? CLOUD_PUBLIC_ENDPOINTS.loginEndpoint,
    graphEndpoint: c.graphEndpoint ?? CLOUD_PUBLIC_ENDPOINTS.graphEndpoint,
    managementEndpoint: c.managementEndpoint ?? CLOUD_PUBLIC_ENDPOINTS.managementEndpoint,
    graphScope: c.graphScope ?? CLOUD_PUBLIC_ENDPOINTS.graphScope,
    managementScope: c.managementScope ?? CLOUD_PUBLIC_ENDPOINTS.managementScope,
    tenantId,
    subscriptionId: c.subscriptionId,
    clientId: clientId!,
    clientSecret: clientSecret!,
    resourceGroup: c.resourceGroup,
  };
  const key = JSON.stringify([settings, c.cacert]);
  let reader = readers.get(key);
  if (!reader) {
    reader = new CloudReader(settings, httpsTransport(c.cacert ? readFileSync(c.cacert, 'utf8') : undefined));
    readers.set(key, reader);
  }
  return reader;
}

/** Fixture names from the settings, else discovered in the directory; skips when neither has one. */
export async function fixtureRoleName(t: T): Promise<string> {
  const c = cloudConfig(t);
  if (c.roleNames?.[0]) return c.roleNames[0];
  if (c.subscriptionId) {
    const first = (await probe(t).roleDefinitions())[0];
    if (first) return first.roleName;
  }
  return t.skip('no existing cloud role definition is known', 'cloud.roleNames');
}

export async function fixtureGroupName(t: T): Promise<string> {
  return (await fixtureGroupNames(t, 1))[0]!;
}

/** `count` distinct fixture group names (settings first, else the directory's); skips when fewer are known. */
export async function fixtureGroupNames(t: T, count: number): Promise<string[]> {
  const c = cloudConfig(t);
  const names = [...new Set(c.groupNames ?? [])];
  if (names.length < count)
    for (const g of await probe(t).someGroups(count + names.length))
      if (!names.includes(g.displayName)) names.push(g.displayName);
  if (names.length < count) return t.skip(`fewer than ${count} existing cloud groups are known`, 'cloud.groupNames');
  return names.slice(0, count);
}

/** `count` distinct fixture role definition names (settings first, else the subscription's); skips when fewer are known. */
export async function fixtureRoleNames(t: T, count: number): Promise<string[]> {
  const c = cloudConfig(t);
  const names = [...new Set(c.roleNames ?? [])];
  if (names.length < count && c.subscriptionId)
    for (const d of await probe(t).roleDefinitions()) if (!names.includes(d.roleName)) names.push(d.roleName);
  if (names.length < count)
    return t.skip(`fewer than ${count} existing cloud role definitions are known`, 'cloud.roleNames');
  return names.slice(0, count);
}

/** The object ids of the groups of that name (to read their member lists). */
export async function groupIds(t: T, name: string): Promise<string[]> {
  return (await probe(t).groupsNamed(name)).map((g) => g.id);
}

/**
 * A run-unique scope for one test: a resource the suite creates in the run's resource group
 * (cloud.resourceGroup) and removes after the test, with whatever role assignments remain on it.
 * Its creation is set-up: a cloud that refuses it makes the test not applicable.
 */
export async function scopeFor(t: T, base = 'scope'): Promise<string> {
  need(t, 'subscriptionId', 'resourceGroup');
  const p = probe(t);
  let scope: string;
  try {
    scope = await p.createScope(t.unique(base));
  } catch (err) {
    if (err instanceof CloudCallError && err.status >= 400 && err.status < 500)
      t.notApplicable(`the cloud refused the test's scope: ${err.message}`, 'cloud.resourceGroup');
    throw err;
  }
  t.track(`scope ${scope}`, () => p.deleteScope(scope), 'unmount');
  return scope;
}

/** Mounts the engine and, when the root credentials are known, configures it with them. */
export function cloudMount(s: Suite): MountRef & { configured(): boolean } {
  const mount = s.mount('cloud', { type: 'cloud' });
  let configured = false;
  s.setup(async (ctx) => {
    const c = cloudConfig(ctx);
    if (!c.rootClientId || !c.rootClientSecret || !c.tenantId || !c.subscriptionId) return;
    const ex = await ctx.svc.post(`${mount.path}/config`, {
      body: {
        subscription_id: c.subscriptionId,
        tenant_id: c.tenantId,
        client_id: c.rootClientId,
        client_secret: c.rootClientSecret,
      },
    });
    configured = ex.response.status === 200 || ex.response.status === 204;
  });
  return {
    get path() {
      return mount.path;
    },
    configured: () => configured,
  };
}

export function requireConfigured(t: T, mount: { configured(): boolean }): void {
  if (!mount.configured())
    t.skip(
      'the cloud mount could not be configured with root credentials',
      'cloud.rootClientId, cloud.rootClientSecret, cloud.tenantId, cloud.subscriptionId',
    );
}

/** Revokes a lease through sys/leases/revoke (cleanup and the revoke tests). */
export function revokeLease(t: T, leaseId: string) {
  return t.svc.put('sys/leases/revoke', { body: { lease_id: leaseId } });
}

/** Bounded wait for new credentials to work (or revoked ones to stop): `cloud.propagationSeconds`, default 30. */
export function propagation(t: { config: T['config'] }): number {
  return cloudConfig(t).propagationSeconds ?? 30;
}

/** Polls until the directory accepts (or, with `want: false`, refuses) a client secret, within the propagation bound. */
export async function loginsEventually(
  t: T,
  p: DirectoryProbe,
  clientId: string,
  secret: string,
  want: boolean,
): Promise<boolean> {
  return eventually(propagation(t), async () => ((await p.loginStatus(clientId, secret)) === 200) === want);
}

/** Polls `probe` until it returns true or `seconds` pass (bounded; for eventually consistent effects). */
export async function eventually(seconds: number, probeFn: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    if (await probeFn()) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function fail(check: string, message: string, expected: unknown, actual: unknown): never {
  throw new CheckFailure(check, message, expected, actual);
}

/** Two scopes are the same resource when their ids match without regard to case (as the resource manager compares them). */
export const sameScope = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Purges, after the test, the application and principal of a credential (by its client id) from
 * the directory's deleted items, where the end of its lease leaves them: a real tenant keeps them
 * for weeks otherwise. Their ids are read now, while they exist.
 */
export async function purgeAfterTest(t: T, clientId: string | undefined): Promise<void> {
  if (!clientId) return;
  const p = probe(t);
  const [app, sp] = await Promise.all([p.appByClientId(clientId), p.spByClientId(clientId)]);
  for (const id of [app?.id, sp?.id]) if (id) t.track(`deleted item ${id}`, () => p.purge(id), 'unmount');
}
