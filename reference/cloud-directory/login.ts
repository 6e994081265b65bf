/**
 * The simulated cloud's identity endpoints, as the real one serves them:
 *   POST /{tenant}/oauth2/v2.0/token                   client credentials grant, form-encoded, one
 *                                                       token per resource (`scope=<resource>/.default`)
 *   GET  /common/discovery/instance                    instance discovery (what authentication libraries read first)
 *   GET  /{tenant}/v2.0/.well-known/openid-configuration  the tenant's endpoints
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, type Now, readForm, send, tokenError } from './http.js';
import { DirectoryError, type DirectoryStore } from './store.js';
import { resourceOfScope } from './well-known.js';

/** The origin a client reached the simulation at (the real cloud's host name, or an address). */
const origin = (req: IncomingMessage) => `https://${req.headers.host ?? 'localhost'}`;

/** Serves an identity request; false when the path is not one of them. */
export async function serveLogin(
  store: DirectoryStore,
  now: Now,
  req: IncomingMessage,
  res: ServerResponse,
  parts: string[],
  query: URLSearchParams,
): Promise<boolean> {
  const method = req.method ?? 'GET';
  const [tenant, a, b, c] = parts;
  if (method === 'POST' && parts.length === 4 && a === 'oauth2' && b === 'v2.0' && c === 'token') {
    await token(store, now, req, res, tenant!);
    return true;
  }
  if (method === 'GET' && parts.length === 3 && tenant === 'common' && a === 'discovery' && b === 'instance') {
    const host = origin(req);
    const authorize = query.get('authorization_endpoint') ?? `${host}/common/oauth2/v2.0/authorize`;
    const t = /^https:\/\/[^/]+\/([^/]+)\//.exec(authorize)?.[1] ?? 'common';
    send(res, now, 200, {
      tenant_discovery_endpoint: `${host}/${t}/v2.0/.well-known/openid-configuration`,
      'api-version': '1.1',
      metadata: [
        { preferred_network: new URL(host).host, preferred_cache: new URL(host).host, aliases: [new URL(host).host] },
      ],
    });
    return true;
  }
  const wellKnown =
    (parts.length === 4 && a === 'v2.0' && b === '.well-known' && c === 'openid-configuration') ||
    (parts.length === 3 && a === '.well-known' && b === 'openid-configuration');
  if (method === 'GET' && wellKnown) {
    const known =
      tenant === 'common' || tenant === 'organizations' || tenant!.toLowerCase() === store.tenantId.toLowerCase();
    if (!known) {
      tokenError(res, now, new DirectoryError(400, 'invalid_tenant', `AADSTS90002: Tenant '${tenant}' not found.`));
      return true;
    }
    const id = tenant === 'common' || tenant === 'organizations' ? '{tenantid}' : store.tenantId;
    const host = origin(req);
    send(res, now, 200, {
      token_endpoint: `${host}/${id}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${host}/${id}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: `${host}/${id}/v2.0`,
      request_uri_parameter_supported: false,
      authorization_endpoint: `${host}/${id}/oauth2/v2.0/authorize`,
      device_authorization_endpoint: `${host}/${id}/oauth2/v2.0/devicecode`,
      end_session_endpoint: `${host}/${id}/oauth2/v2.0/logout`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      tenant_region_scope: 'EU',
      cloud_instance_name: 'microsoftonline.com',
      cloud_graph_host_name: 'graph.windows.net',
      msgraph_host: 'graph.microsoft.com',
    });
    return true;
  }
  return false;
}

async function token(store: DirectoryStore, now: Now, req: IncomingMessage, res: ServerResponse, tenant: string) {
  const refuse = (status: number, code: string, message: string) =>
    tokenError(res, now, new HttpError(status, code, message));
  const form = await readForm(req);
  // The real endpoint reads form fields only: a JSON body carries no grant_type for it.
  if (!form)
    return refuse(
      400,
      'invalid_request',
      "AADSTS900144: The request body must contain the following parameter: 'grant_type'.",
    );
  if (!form.grant_type)
    return refuse(
      400,
      'invalid_request',
      "AADSTS900144: The request body must contain the following parameter: 'grant_type'.",
    );
  if (form.grant_type !== 'client_credentials')
    return refuse(
      400,
      'unsupported_grant_type',
      `AADSTS70003: The app requested an unsupported grant type '${form.grant_type}'.`,
    );
  if (!form.client_id)
    return refuse(
      400,
      'invalid_request',
      "AADSTS900144: The request body must contain the following parameter: 'client_id'.",
    );
  if (!form.client_secret)
    return refuse(
      401,
      'invalid_client',
      "AADSTS7000216: 'client_assertion', 'client_secret' or 'request' is required for the 'client_credentials' grant type.",
    );
  if (!form.scope)
    return refuse(400, 'invalid_request', "AADSTS90014: The required field 'scope' is missing from the credential.");
  const resource = resourceOfScope(form.scope);
  if (!resource)
    return refuse(
      400,
      'invalid_resource',
      `AADSTS500011: The resource principal named ${form.scope} was not found in the tenant.`,
    );
  try {
    const t = store.authenticate(tenant, form.client_id, form.client_secret, resource);
    send(res, now, 200, {
      token_type: 'Bearer',
      expires_in: t.expiresIn,
      ext_expires_in: t.expiresIn,
      access_token: t.accessToken,
    });
  } catch (err) {
    if (err instanceof DirectoryError) return tokenError(res, now, err);
    throw err;
  }
}
