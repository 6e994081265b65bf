/** The directory's objects as Graph shows them: no secret, no digest. */
import type { Application, PasswordCredential, ServicePrincipal } from './store.js';

/** A password credential as Graph shows it: no digest, no secret. */
export function credentialView(c: PasswordCredential): Record<string, unknown> {
  return {
    customKeyIdentifier: null,
    displayName: c.displayName,
    endDateTime: c.endDateTime,
    hint: c.hint,
    keyId: c.keyId,
    secretText: null,
    startDateTime: c.startDateTime,
  };
}

/** An application as Graph shows it. */
export function applicationView(app: Application): Record<string, unknown> {
  return {
    id: app.id,
    appId: app.appId,
    displayName: app.displayName,
    signInAudience: app.signInAudience,
    tags: app.tags,
    createdDateTime: app.createdDateTime,
    passwordCredentials: app.passwordCredentials.map(credentialView),
  };
}

/** A service principal as Graph shows it. */
export function principalView(sp: ServicePrincipal): Record<string, unknown> {
  return {
    id: sp.id,
    appId: sp.appId,
    displayName: sp.displayName,
    servicePrincipalType: sp.servicePrincipalType,
    createdDateTime: sp.createdDateTime,
    appRoles: sp.appRoles,
    passwordCredentials: sp.passwordCredentials.map(credentialView),
  };
}
