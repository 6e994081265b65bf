/** The engine's configuration (`/ldap/config`): parsing, defaults by schema, and the read view. */
import { X509Certificate } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { LdapRules } from './rules.js';
import { lookupTable } from '../../../lookup-table.js';

export type Schema = 'openldap' | 'ad' | 'racf';

export interface DirectoryConfig {
  binddn: string;
  bindpass: string;
  urls: string[];
  passwordPolicy?: string;
  schema: Schema;
  userdn: string;
  /** Explicit userattr, or undefined for the schema's default. */
  userattr?: string;
  upndomain: string;
  requestTimeout: number;
  connectionTimeout: number;
  starttls: boolean;
  insecureTls: boolean;
  certificate: string;
  clientTlsCert: string;
  clientTlsKey: string;
  skipStaticRoleImportRotation: boolean;
  /** Explicit length, or undefined for the pre-policy default. */
  length?: number;
  tlsMinVersion: string;
  tlsMaxVersion: string;
}

export const DEFAULT_URL = 'ldap://127.0.0.1';
export const DEFAULT_LENGTH = 64;
export const DEFAULT_REQUEST_TIMEOUT = 90;
export const DEFAULT_CONNECTION_TIMEOUT = 30;
/** userattr by schema when not set. */
export const SCHEMA_USERATTR: Record<Schema, string> = lookupTable({
  openldap: 'cn',
  ad: 'userPrincipalName',
  racf: 'racfid',
});

const has = (body: Record<string, unknown>, key: string) => body[key] !== undefined && body[key] !== null;

function str(body: Record<string, unknown>, key: string): string | undefined {
  if (!has(body, key)) return undefined;
  if (typeof body[key] !== 'string') throw badRequest(`${key} must be a string`);
  return body[key] as string;
}

function bool(body: Record<string, unknown>, key: string): boolean | undefined {
  if (!has(body, key)) return undefined;
  const v = body[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw badRequest(`${key} must be a boolean`);
}

function seconds(
  body: Record<string, unknown>,
  key: 'request_timeout' | 'connection_timeout',
  parse: (key: 'request_timeout' | 'connection_timeout', value: unknown) => number,
): number | undefined {
  if (!has(body, key)) return undefined;
  try {
    return parse(key, body[key]);
  } catch {
    throw badRequest(`${key} must be a duration (seconds or a string such as 90s)`);
  }
}

function checkPem(value: string, key: string): void {
  if (!value) return;
  try {
    new X509Certificate(value);
  } catch {
    throw badRequest(`${key} is not a PEM-encoded X.509 certificate`);
  }
}

/** Merges a POST body into the previous configuration (keys not sent keep their values). */
export function applyConfigWrite(
  prev: DirectoryConfig | undefined,
  body: Record<string, unknown>,
  policyExists: (name: string) => boolean,
  rules: Pick<
    LdapRules,
    | 'lengthAndPolicyExclusive'
    | 'policyCheckedOnSave'
    | 'configRequired'
    | 'schemas'
    | 'unknownSchemaRefused'
    | 'defaultUrl'
    | 'defaultRequestTimeout'
    | 'defaultConnectionTimeout'
    | 'defaultSkipStaticImport'
    | 'configDuration'
    | 'mergeConfig'
  >,
): DirectoryConfig {
  const lengthSent = has(body, 'length');
  const policySent = str(body, 'password_policy');
  if (lengthSent && policySent && rules.lengthAndPolicyExclusive) {
    throw badRequest('length and password_policy are mutually exclusive');
  }
  let length = prev?.length;
  if (lengthSent) {
    const v = body.length;
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 1024)
      throw badRequest('length must be a positive integer');
    length = n;
  }
  const passwordPolicy = policySent !== undefined ? policySent || undefined : prev?.passwordPolicy;
  if (length !== undefined && passwordPolicy && rules.lengthAndPolicyExclusive && (lengthSent || policySent)) {
    throw badRequest('length and password_policy are mutually exclusive');
  }
  if (policySent && rules.policyCheckedOnSave && !policyExists(policySent)) {
    throw badRequest(`password policy "${policySent}" does not exist`);
  }
  const binddn = str(body, 'binddn') ?? prev?.binddn ?? '';
  const bindpass = str(body, 'bindpass') ?? prev?.bindpass ?? '';
  if (!binddn && rules.configRequired.includes('binddn')) throw badRequest('binddn is required');
  if (!bindpass && rules.configRequired.includes('bindpass')) throw badRequest('bindpass is required');

  const urlText = str(body, 'url');
  const urls =
    urlText !== undefined
      ? urlText
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean)
      : (prev?.urls ?? [rules.defaultUrl]);
  if (!urls.length) urls.push(rules.defaultUrl);
  for (const u of urls) {
    if (!/^ldaps?:\/\/[^/\s]+\/?$/i.test(u))
      throw badRequest(`url "${u}" must be ldap://host[:port] or ldaps://host[:port]`);
  }
  const schemaText = str(body, 'schema');
  const known = rules.schemas.includes(schemaText as Schema) || !rules.unknownSchemaRefused;
  if (schemaText !== undefined && schemaText !== '' && !known)
    throw badRequest(`schema must be one of ${rules.schemas.join(', ')}`);
  const schema = (schemaText || prev?.schema || 'openldap') as Schema;
  const certificate = str(body, 'certificate') ?? prev?.certificate ?? '';
  checkPem(certificate, 'certificate');
  const clientTlsCert = str(body, 'client_tls_cert') ?? prev?.clientTlsCert ?? '';
  checkPem(clientTlsCert, 'client_tls_cert');
  const userattr = str(body, 'userattr');

  return rules.mergeConfig(prev, {
    binddn,
    bindpass,
    urls,
    passwordPolicy,
    schema,
    userdn: str(body, 'userdn') ?? prev?.userdn ?? '',
    userattr: userattr !== undefined ? userattr || undefined : prev?.userattr,
    upndomain: str(body, 'upndomain') ?? prev?.upndomain ?? '',
    requestTimeout:
      seconds(body, 'request_timeout', rules.configDuration) ?? prev?.requestTimeout ?? rules.defaultRequestTimeout,
    connectionTimeout:
      seconds(body, 'connection_timeout', rules.configDuration) ??
      prev?.connectionTimeout ??
      rules.defaultConnectionTimeout,
    starttls: bool(body, 'starttls') ?? prev?.starttls ?? false,
    insecureTls: bool(body, 'insecure_tls') ?? prev?.insecureTls ?? false,
    certificate,
    clientTlsCert,
    clientTlsKey: str(body, 'client_tls_key') ?? prev?.clientTlsKey ?? '',
    skipStaticRoleImportRotation:
      bool(body, 'skip_static_role_import_rotation') ??
      prev?.skipStaticRoleImportRotation ??
      rules.defaultSkipStaticImport,
    length,
    tlsMinVersion: str(body, 'tls_min_version') ?? prev?.tlsMinVersion ?? 'tls12',
    tlsMaxVersion: str(body, 'tls_max_version') ?? prev?.tlsMaxVersion ?? 'tls12',
  });
}

/** The documented read fields; bindpass and the client key are write-only. */
export function readConfig(cfg: DirectoryConfig): Record<string, unknown> {
  return {
    binddn: cfg.binddn,
    case_sensitive_names: false,
    certificate: cfg.certificate,
    insecure_tls: cfg.insecureTls,
    length: cfg.length ?? DEFAULT_LENGTH,
    schema: cfg.schema,
    starttls: cfg.starttls,
    tls_max_version: cfg.tlsMaxVersion,
    tls_min_version: cfg.tlsMinVersion,
    url: cfg.urls.join(','),
    userdn: cfg.userdn,
    userattr: cfg.userattr ?? SCHEMA_USERATTR[cfg.schema],
    upndomain: cfg.upndomain,
    password_policy: cfg.passwordPolicy ?? '',
    request_timeout: cfg.requestTimeout,
    connection_timeout: cfg.connectionTimeout,
    skip_static_role_import_rotation: cfg.skipStaticRoleImportRotation,
    client_tls_cert: cfg.clientTlsCert,
  };
}
