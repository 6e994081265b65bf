/**
 * Shared pieces of the cloud suite: the cloud settings of the target, a probe that reads the
 * cloud directory's own API (so tests check real effects, not only the engine's answers), and
 * the mount set-up. A test that needs a setting the target lacks is skipped naming the setting.
 */
import { redactor, type T, type MountRef, type Suite } from '../../harness/index.js';
import type { CloudConfig } from '../../harness/index.js';
import { CheckFailure } from '../../harness/checks/index.js';
import { together } from '../lib/together.js';

/** The target's cloud settings (config file, then CLOUD_* environment variables, see harness/config/cloud.ts). */
export function cloudConfig(t: { config: T['config'] }): CloudConfig {
  const c: CloudConfig = { ...t.config.cloud };
  if (c.rootClientSecret) redactor.add(c.rootClientSecret);
  return c;
}

type Need = 'directoryAddr' | 'rootClientId' | 'rootClientSecret' | 'tenantId' | 'subscriptionId';

/** The named settings, or a skip that names the first one missing. */
export function need<K extends Need>(t: T, ...keys: K[]): Required<Pick<CloudConfig, K>> {
  const c = cloudConfig(t);
  // The run lacks a cloud fixture setting: a missing prerequisite, so the run reports itself incomplete.
  for (const k of keys) if (!c[k]) t.skip(`the cloud settings lack ${k}`, `cloud.${k}`, { prerequisite: true });
  return c as Required<Pick<CloudConfig, K>>;
}

export interface App {
  id: string;
  appId: string;
  displayName: string;
  signInAudience: string;
  tags: string[];
  passwordCredentials: { keyId: string; endDateTime: string; displayName: string }[];
}
export interface Sp {
  id: string;
  appId: string;
}
export interface Assignment {
  name: string;
  roleDefinitionId: string;
  principalId: string;
  scope: string;
}
export interface RoleDef {
  id: string;
  name: string;
  roleName: string;
}

const TIMEOUT_MS = 10_000;

/** Reads (and for fixtures, writes) the cloud directory with the root credentials. */
export class DirectoryProbe {
  private token = '';

  constructor(
    private readonly cfg: Required<
      Pick<CloudConfig, 'directoryAddr' | 'rootClientId' | 'rootClientSecret' | 'tenantId'>
    >,
  ) {}

  /** Client-credentials login; returns the HTTP status (200 when the secret works). */
  async loginStatus(clientId: string, clientSecret: string, tenantId = this.cfg.tenantId): Promise<number> {
    const res = await fetch(`${this.cfg.directoryAddr}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return res.status;
  }

  private async login(): Promise<void> {
    const res = await fetch(`${this.cfg.directoryAddr}/${encodeURIComponent(this.cfg.tenantId)}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: this.cfg.rootClientId,
        client_secret: this.cfg.rootClientSecret,
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = (await res.json()) as { access_token?: string };
    if (res.status !== 200 || !body.access_token)
      throw new Error(`the cloud directory refused the root credentials (status ${res.status})`);
    this.token = body.access_token;
  }

  /** One directory call; 404 gives undefined. */
  async call<R>(method: string, path: string, body?: unknown): Promise<R | undefined> {
    if (!this.token) await this.login();
    const send = () =>
      fetch(`${this.cfg.directoryAddr}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    let res = await send();
    if (res.status === 401) {
      await res.arrayBuffer();
      await this.login();
      res = await send();
    }
    if (res.status === 404) {
      await res.arrayBuffer();
      return undefined;
    }
    const text = await res.text();
    if (res.status >= 400)
      throw new Error(`cloud directory ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : {}) as R;
  }

  async list<R>(path: string): Promise<R[]> {
    return (await this.call<{ value: R[] }>('GET', path))?.value ?? [];
  }

  now(): Promise<number> {
    return fetch(`${this.cfg.directoryAddr}/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) })
      .then((r) => r.json() as Promise<{ now: string }>)
      .then((b) => Date.parse(b.now));
  }

  appByClientId(appId: string): Promise<App | undefined> {
    return this.list<App>(`/applications?appId=${encodeURIComponent(appId)}`).then((l) => l[0]);
  }

  spByClientId(appId: string): Promise<Sp | undefined> {
    return this.list<Sp>(`/servicePrincipals?appId=${encodeURIComponent(appId)}`).then((l) => l[0]);
  }

  assignmentsOf(principalId: string): Promise<Assignment[]> {
    return this.list<Assignment>(`/roleAssignments?principalId=${encodeURIComponent(principalId)}`);
  }

  groupsOf(principalId: string): Promise<{ id: string; displayName: string }[]> {
    return this.list(`/servicePrincipals/${encodeURIComponent(principalId)}/memberOf`);
  }

  /** Group ids whose member list names the principal (works after the principal is gone). */
  async groupsListing(principalId: string): Promise<string[]> {
    const groups = await this.list<{ id: string }>('/groups');
    // The member lists are independent reads: they go out together.
    const members = await together(groups.map((g) => () => this.list<{ id: string }>(`/groups/${g.id}/members`)));
    return groups.filter((_, i) => members[i]!.some((m) => m.id === principalId)).map((g) => g.id);
  }

  deletedItem(id: string): Promise<{ id: string; kind: string } | undefined> {
    return this.call('GET', `/directory/deletedItems/${encodeURIComponent(id)}`);
  }

  /** Deletes a deleted item for good (cleanup of what a test left soft-deleted). */
  async purge(id: string): Promise<void> {
    await this.call('DELETE', `/directory/deletedItems/${encodeURIComponent(id)}`);
  }

  /** Role assignments on exactly `scope`, whoever holds them. */
  assignmentsAt(scope: string): Promise<Assignment[]> {
    return this.list<Assignment>(`/roleAssignments?scope=${encodeURIComponent(scope)}`);
  }

  roleDefinitions(): Promise<RoleDef[]> {
    return this.list<RoleDef>('/roleDefinitions');
  }

  groups(): Promise<{ id: string; displayName: string }[]> {
    return this.list('/groups');
  }

  /** A fresh application with a principal, for application_object_id roles and rotate-root. */
  async createApp(
    displayName: string,
    opts: { admin?: boolean; withSecret?: boolean } = {},
  ): Promise<{ app: App; secret?: string }> {
    const app = (await this.call<App>('POST', '/applications', { displayName, directoryAdmin: opts.admin ?? false }))!;
    await this.call('POST', '/servicePrincipals', { appId: app.appId });
    let secret: string | undefined;
    if (opts.withSecret)
      secret = (await this.call<{ secretText: string }>('POST', `/applications/${app.id}/addPassword`, {
        displayName: 'suite',
      }))!.secretText;
    return { app: (await this.call<App>('GET', `/applications/${app.id}`))!, secret };
  }

  async deleteApp(app: { id: string; appId: string }): Promise<void> {
    const sp = await this.spByClientId(app.appId);
    if (sp) {
      await this.call('DELETE', `/servicePrincipals/${sp.id}`);
      await this.call('DELETE', `/directory/deletedItems/${sp.id}`);
    }
    if (await this.call('GET', `/applications/${app.id}`)) await this.call('DELETE', `/applications/${app.id}`);
    await this.call('DELETE', `/directory/deletedItems/${app.id}`);
  }
}

export function probe(t: T): DirectoryProbe {
  const c = need(t, 'directoryAddr', 'rootClientId', 'rootClientSecret', 'tenantId');
  return new DirectoryProbe(c);
}

/** Fixture names from the settings, else discovered in the directory; skips when neither has one. */
export async function fixtureRoleName(t: T): Promise<string> {
  const c = cloudConfig(t);
  if (c.roleNames?.[0]) return c.roleNames[0];
  if (c.directoryAddr && c.rootClientId) {
    const first = (await probe(t).roleDefinitions())[0];
    if (first) return first.roleName;
  }
  return t.skip('no existing cloud role definition is known', 'cloud.roleNames');
}

export async function fixtureGroupName(t: T): Promise<string> {
  const c = cloudConfig(t);
  if (c.groupNames?.[0]) return c.groupNames[0];
  if (c.directoryAddr && c.rootClientId) {
    const first = (await probe(t).groups())[0];
    if (first) return first.displayName;
  }
  return t.skip('no existing cloud group is known', 'cloud.groupNames');
}

/** A run-unique scope under the target's subscription. */
export function scopeFor(t: T, base = 'rg'): string {
  const { subscriptionId } = need(t, 'subscriptionId');
  return `/subscriptions/${subscriptionId}/resourceGroups/${t.unique(base)}`;
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
