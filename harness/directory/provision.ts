/**
 * The directory fixture: an external directory from config, or OpenLDAP started for the run
 * (a container where an engine runs, else a private slapd).
 */
import { randomBytes } from 'node:crypto';
import { containerRuntimeAvailable, startContainerLdap } from './container.js';
import { seedPlan } from './seed.js';
import { startLocalSlapd } from './slapd.js';
import type { Static } from '../../contract/setting.js';
import type { configSchema } from '../config/schema.js';

/** The `ldap` settings (harness/config/schema.ts). */
type LdapSettings = NonNullable<Static<typeof configSchema>['ldap']>;

/** What the settings say of the directory: an external one names at least its URL. */
export type DirectoryConfigInput = Partial<Pick<LdapSettings, 'url' | 'bindDn' | 'bindPass' | 'baseDn' | 'userDn'>>;

/** The TLS side of a directory the harness started: the run's CA and a client certificate it signed. */
export interface DirectoryTls {
  /** The directory over TLS from the first byte (its certificate signed by `ca`). */
  ldapsUrl: string;
  /** The CA certificate (PEM) of the run. */
  ca: string;
  clientCert: string;
  clientKey: string;
  /** An administrator whose password the directory accepts over TLS only (StartTLS or ldaps). */
  tlsBindDn: string;
  tlsBindPass: string;
  /** The server certificate and key the directory presents (for a listener of the run that stands in for it). */
  serverCert: string;
  serverKey: string;
}

/** The directory of a run: its settings, all filled in, and what the harness knows of it. */
export interface ProvisionedDirectory
  extends Required<
      Pick<LdapSettings, 'url' | 'bindDn' | 'bindPass' | 'baseDn' | 'userDn' | 'serviceAccounts' | 'users'>
    >,
    Pick<LdapSettings, 'groupDn'> {
  /** TLS of the directory, when the harness started it (the local slapd). */
  tls?: DirectoryTls;
  /**
   * The directory knows the auxiliary class conformanceAccount with the attributes of the ad and
   * racf schemas (userPrincipalName, unicodePwd, racfid, racfPassword, racfAttributes).
   */
  extraSchema?: boolean;
  stop(): Promise<void>;
  /** True when this call started the directory (and `stop` ends it). */
  started: boolean;
}

const DEFAULT_BASE = 'dc=example,dc=org';

export async function provisionDirectory(cfg: DirectoryConfigInput = {}): Promise<ProvisionedDirectory> {
  if (cfg.url) {
    const baseDn = cfg.baseDn ?? DEFAULT_BASE;
    const plan = seedPlan(baseDn, '');
    return {
      url: cfg.url,
      bindDn: cfg.bindDn ?? `cn=admin,${baseDn}`,
      bindPass: cfg.bindPass ?? '',
      baseDn,
      userDn: cfg.userDn ?? plan.userDn,
      serviceAccounts: [],
      users: [],
      stop: async () => {},
      started: false,
    };
  }
  const baseDn = cfg.baseDn ?? DEFAULT_BASE;
  const tlsBindPass = randomBytes(18).toString('base64url');
  const plan = seedPlan(baseDn, randomBytes(18).toString('base64url'), undefined, tlsBindPass);
  const common = {
    bindPass: plan.bindPass,
    baseDn,
    userDn: plan.userDn,
    groupDn: plan.groupDn,
    serviceAccounts: plan.serviceAccounts,
    users: plan.users,
    started: true,
  };
  if (await containerRuntimeAvailable()) {
    const c = await startContainerLdap(plan);
    return { ...common, url: c.url, bindDn: c.bindDn, stop: c.stop };
  }
  // Loaded here, not with this module: a directory from the config or in a container does without
  // it, and the material of an earlier run is reused while valid (tls-reuse.ts).
  const material = await (await import('./tls-reuse.js')).reusableTlsMaterial();
  const local = await startLocalSlapd(plan, material);
  return {
    ...common,
    url: local.url,
    bindDn: plan.bindDn,
    tls: {
      ldapsUrl: local.ldapsUrl,
      ca: material.ca,
      clientCert: material.clientCert,
      clientKey: material.clientKey,
      tlsBindDn: plan.tlsBindDn!,
      tlsBindPass,
      serverCert: material.serverCert,
      serverKey: material.serverKey,
    },
    extraSchema: true,
    stop: local.stop,
  };
}
