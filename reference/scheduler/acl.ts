/**
 * ACL tokens of the reference scheduler. With ACLs enabled every jobs endpoint needs a namespace
 * capability (`namespace:<capability>`); a management token bypasses the checks. Tokens are
 * created through the control endpoint POST /v1/reference/acl/tokens (see server.ts).
 */
import { randomUUID } from 'node:crypto';
import { badRequest } from './errors.js';

export const CAPABILITIES = [
  'deny',
  'list-jobs',
  'parse-job',
  'read-job',
  'submit-job',
  'dispatch-job',
  'read-logs',
  'read-fs',
  'alloc-exec',
  'alloc-node-exec',
  'alloc-lifecycle',
  'read-job-scaling',
  'scale-job',
  'policy-override',
  'csi-register-plugin',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The real scheduler's policy shorthands for a namespace rule. */
const POLICIES: Record<string, Capability[]> = {
  deny: ['deny'],
  read: ['list-jobs', 'parse-job', 'read-job', 'read-job-scaling'],
  write: [
    'list-jobs',
    'parse-job',
    'read-job',
    'read-job-scaling',
    'submit-job',
    'dispatch-job',
    'read-logs',
    'read-fs',
    'alloc-exec',
    'alloc-lifecycle',
    'scale-job',
  ],
  scale: ['list-jobs', 'read-job-scaling', 'scale-job'],
};

export interface NamespaceRule {
  Policy?: string;
  Capabilities?: string[];
}

export interface AclToken {
  AccessorID: string;
  SecretID: string;
  Name: string;
  Type: 'management' | 'client';
  /** Namespace name or glob (`*`, `team-*`) to its capabilities. */
  Namespaces: Record<string, Capability[]>;
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

export class AclStore {
  private readonly bySecret = new Map<string, AclToken>();

  constructor(managementToken?: string) {
    if (managementToken)
      this.bySecret.set(managementToken, {
        AccessorID: randomUUID(),
        SecretID: managementToken,
        Name: 'bootstrap',
        Type: 'management',
        Namespaces: {},
      });
  }

  create(input: { Name?: unknown; Type?: unknown; Namespaces?: unknown }): AclToken {
    const type = input.Type === undefined ? 'client' : input.Type;
    if (type !== 'client' && type !== 'management') throw badRequest('Type must be "client" or "management"');
    const namespaces: Record<string, Capability[]> = {};
    if (input.Namespaces !== undefined) {
      if (input.Namespaces === null || typeof input.Namespaces !== 'object' || Array.isArray(input.Namespaces))
        throw badRequest('Namespaces must be an object of namespace rules');
      for (const [ns, rule] of Object.entries(input.Namespaces as Record<string, NamespaceRule>)) {
        const caps = new Set<Capability>();
        if (rule === null || typeof rule !== 'object')
          throw badRequest(`rule of namespace ${JSON.stringify(ns)} must be an object`);
        if (rule.Policy !== undefined) {
          const p = POLICIES[String(rule.Policy)];
          if (!p) throw badRequest(`unknown policy ${JSON.stringify(rule.Policy)}`);
          for (const c of p) caps.add(c);
        }
        for (const c of rule.Capabilities ?? []) {
          if (!(CAPABILITIES as readonly string[]).includes(c))
            throw badRequest(`unknown capability ${JSON.stringify(c)}`);
          caps.add(c as Capability);
        }
        namespaces[ns] = [...caps];
      }
    }
    const token: AclToken = {
      AccessorID: randomUUID(),
      SecretID: randomUUID(),
      Name: typeof input.Name === 'string' ? input.Name : '',
      Type: type,
      Namespaces: namespaces,
    };
    this.bySecret.set(token.SecretID, token);
    return token;
  }

  /** Revokes a client token by accessor; false when there is none (the bootstrap token stays). */
  revoke(accessor: string): boolean {
    for (const [secret, token] of this.bySecret) {
      if (token.AccessorID === accessor && token.Type === 'client') return this.bySecret.delete(secret);
    }
    return false;
  }

  lookup(secret: string): AclToken | undefined {
    return this.bySecret.get(secret);
  }

  /** The most specific rule wins: an exact name beats a glob, a longer glob beats a shorter one. */
  private rule(token: AclToken, namespace: string): Capability[] {
    if (token.Namespaces[namespace]) return token.Namespaces[namespace]!;
    let best: { len: number; caps: Capability[] } | null = null;
    for (const [pattern, caps] of Object.entries(token.Namespaces)) {
      if (!pattern.includes('*') || !globToRegExp(pattern).test(namespace)) continue;
      if (!best || pattern.length > best.len) best = { len: pattern.length, caps };
    }
    return best?.caps ?? [];
  }

  allows(token: AclToken | null, namespace: string, capability: Capability): boolean {
    if (!token) return false;
    if (token.Type === 'management') return true;
    const caps = this.rule(token, namespace);
    return !caps.includes('deny') && caps.includes(capability);
  }
}
