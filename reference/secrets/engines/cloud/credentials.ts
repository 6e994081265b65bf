/**
 * Credentials of the cloud engine (GET creds/:role): a client secret with a lease, renewable up to
 * the role's max_ttl, whose end removes what it created in the directory.
 */
import { randomUUID } from 'node:crypto';
import type { EngineContext, EngineResponse } from '../../engine.js';
import { type DirectoryClient, odata, orMissing, remote } from './directory-client.js';
import { assignRoles, createPrincipal, removePrincipal } from './principals.js';
import type { CloudRules, Principal, ResolvedRole, RoleEntry } from './rules.js';

/** Generated principals' secrets live far longer than any lease; the lease's end removes them. */
const SP_SECRET_SECONDS = 10 * 365 * 86400;

/** What credentials remember across leases. */
export interface CredentialsState {
  /** The key ids of the secrets the engine added to each application (object id), oldest first. */
  addedSecrets: Map<string, string[]>;
  /** Each role's latest dynamic principal. */
  latestPrincipal: Map<string, Principal>;
}

/** What issuing a credential needs of the engine. */
export interface CredentialsDeps {
  rules: CloudRules;
  ctx: EngineContext;
  /** A client of the directory, logged in with the engine's configured credentials. */
  client(): Promise<DirectoryClient>;
  state: CredentialsState;
}

/** The lease of a credential: the role's ttl and max_ttl, or the mount's defaults. */
function leaseTimes(d: CredentialsDeps, role: RoleEntry): { ttl: number; maxTtl: number } {
  const roleTtl = d.rules.roleTtl(role);
  const roleMaxTtl = d.rules.roleMaxTtl(role);
  const ttl = roleTtl > 0 ? roleTtl : d.ctx.settings.defaultLeaseTtl;
  const maxTtl = roleMaxTtl > 0 ? roleMaxTtl : d.ctx.settings.maxLeaseTtl;
  return { ttl: maxTtl > 0 ? Math.min(ttl, maxTtl) : ttl, maxTtl };
}

/** Role assignments given to the principal of the role's own application; their ids. */
async function assignToApplication(
  client: DirectoryClient,
  role: RoleEntry,
  assignments: ResolvedRole[],
): Promise<string[]> {
  if (!assignments.length) return [];
  const filter = encodeURIComponent(`appId eq ${odata(role.application_id)}`);
  const sp = (await client.graphList<{ id: string }>(`/servicePrincipals?$filter=${filter}`))[0];
  if (!sp) return [];
  return assignRoles(client, sp.id, assignments);
}

/**
 * A credential of `role`: a secret added to the role's own application (application_object_id),
 * or a new principal with the role's assignments and memberships whose secret is a password of the
 * service principal (as the upstream engine adds it); its lease's end removes it.
 */
export async function issueCredentials(d: CredentialsDeps, name: string, role: RoleEntry): Promise<EngineResponse> {
  const client = await d.client();
  const { ttl, maxTtl } = leaseTimes(d, role);
  const endDateTime = new Date(d.ctx.clock.now() + SP_SECRET_SECONDS * 1000).toISOString();
  const renew = async (increment: number) => {
    const roleTtl = d.rules.roleTtl(role);
    return roleTtl > 0 ? roleTtl : increment;
  };
  const staticApp = d.rules.staticApplication(role);
  try {
    if (staticApp) {
      if (d.rules.staticAlsoCreatesPrincipal) await createPrincipal(d.rules, client, name, role);
      const added = await client.graph<{ keyId: string; secretText: string }>(
        'POST',
        `/applications/${staticApp}/addPassword`,
        { passwordCredential: { displayName: `svc-${name}-${randomUUID().slice(0, 8)}`, endDateTime } },
      );
      const addedHere = d.state.addedSecrets.get(staticApp) ?? [];
      d.state.addedSecrets.set(staticApp, [...addedHere, added.keyId]);
      const assigned = await assignToApplication(client, role, d.rules.staticAssignments(role));
      const managed = role.managed?.appObjectId === staticApp ? role.managed : undefined;
      const lease = {
        ttl,
        maxTtl,
        renewable: true,
        renew,
        revoke: async () => {
          if (!d.rules.revokeRemovesAddedSecret) return;
          const c = await d.client();
          for (const a of assigned) await orMissing(() => c.arm('DELETE', a));
          const keyId = d.rules.addedSecretToRemove(
            added.keyId,
            d.state.addedSecrets.get(staticApp) ?? [],
            Boolean(managed),
          );
          d.state.addedSecrets.set(
            staticApp,
            (d.state.addedSecrets.get(staticApp) ?? []).filter((k) => k !== keyId),
          );
          await orMissing(() => c.graph('POST', `/applications/${staticApp}/removePassword`, { keyId }));
          if (!managed || d.rules.persistedLeaseEndRemoves === 'secret') return;
          if (d.rules.persistedLeaseEndRemoves === 'principal')
            await orMissing(() => c.graph('DELETE', `/servicePrincipals/${managed.spObjectId}`));
          else await removePrincipal(d.rules, c, managed, role.permanently_delete);
        },
      };
      return {
        data: d.rules.credentialsData(d.rules.staticClientId(role), d.rules.returnedSecret(added.secretText)),
        lease: d.rules.credentialsLease(lease),
      };
    }
    const principal = await createPrincipal(d.rules, client, name, role);
    d.state.latestPrincipal.set(name, principal);
    const added = await client
      .graph<{ secretText: string }>('POST', `/servicePrincipals/${principal.spObjectId}/addPassword`, {
        passwordCredential: { displayName: 'svc-generated', endDateTime },
      })
      .catch(async (err: unknown) => {
        await removePrincipal(d.rules, client, principal, true).catch(() => {});
        throw err;
      });
    const permanently = role.permanently_delete;
    const lease = {
      ttl,
      maxTtl,
      renewable: true,
      renew,
      revoke: async () => {
        const gone = d.rules.principalToRemove(principal, d.state.latestPrincipal.get(name) ?? principal);
        await removePrincipal(d.rules, await d.client(), gone, permanently);
      },
    };
    return {
      data: d.rules.credentialsData(d.rules.dynamicClientId(principal), d.rules.returnedSecret(added.secretText)),
      lease: d.rules.credentialsLease(lease),
    };
  } catch (err) {
    return remote(err);
  }
}
