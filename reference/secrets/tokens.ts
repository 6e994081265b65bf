/**
 * Tokens of the reference: the root token, child tokens from `auth/token/create`, and tokens
 * that auth methods (userpass) issue on login. Tokens expire on the controllable clock.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { TokenInfo } from './engine.js';

/** What a token answer carries, given the fields and the upstream product's further ones (core-rules.ts). */
export type TokenFields = (
  entry: TokenEntry,
  fields: Record<string, unknown>,
  upstreamExtras: Record<string, unknown>,
) => Record<string, unknown>;

export interface TokenEntry extends TokenInfo {
  createdAt: number;
  /** ms since epoch; Infinity when the token does not expire. */
  expiresAt: number;
  ttl: number;
  path: string;
  meta: Record<string, string>;
  namespace: string;
}

export interface CreateTokenInput {
  policies: string[];
  displayName?: string;
  entityId?: string;
  /** Seconds, 0 = no expiry. */
  ttl?: number;
  path?: string;
  meta?: Record<string, string>;
  namespace?: string;
  id?: string;
}

export class TokenStore {
  private readonly byId = new Map<string, TokenEntry>();

  constructor(
    private readonly clock: Clock,
    private readonly fieldsOf: TokenFields = (_entry, fields) => ({ ...fields }),
  ) {}

  create(input: CreateTokenInput): TokenEntry {
    const id = input.id ?? `hvs.${randomBytes(18).toString('base64url')}`;
    const accessor = randomBytes(12).toString('base64url');
    const now = this.clock.now();
    const ttl = input.ttl ?? 0;
    const entry: TokenEntry = {
      id,
      accessor,
      entityId: input.entityId ?? '',
      displayName: input.displayName ?? 'token',
      policies: [...new Set(input.policies)].sort(),
      root: input.policies.includes('root'),
      createdAt: now,
      expiresAt: ttl > 0 ? now + ttl * 1000 : Infinity,
      ttl,
      path: input.path ?? 'auth/token/create',
      meta: input.meta ?? {},
      namespace: input.namespace ?? '',
    };
    this.byId.set(id, entry);
    return entry;
  }

  /** The token, or undefined when unknown or expired. */
  lookup(id: string): TokenEntry | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.byId.delete(id);
      return undefined;
    }
    return entry;
  }

  revoke(id: string): boolean {
    return this.byId.delete(id);
  }

  /** The `auth` block of a response that issued `entry`. */
  authBlock(entry: TokenEntry): Record<string, unknown> {
    return this.shape(
      entry,
      {
        client_token: entry.id,
        accessor: entry.accessor,
        policies: entry.policies,
        token_policies: entry.policies,
        metadata: entry.meta,
        lease_duration: entry.ttl,
        renewable: entry.ttl > 0,
        entity_id: entry.entityId,
        token_type: 'service',
        orphan: false,
      },
      { num_uses: 0, mfa_requirement: null, identity_policies: null },
    );
  }

  /** The data of a token lookup. */
  shapeLookup(entry: TokenEntry, data: Record<string, unknown>): Record<string, unknown> {
    return this.shape(entry, data, {
      explicit_max_ttl: 0,
      num_uses: 0,
      orphan: entry.path !== 'auth/token/create',
      renewable: entry.ttl > 0,
      issue_time: new Date(entry.createdAt).toISOString(),
      entity_id: entry.entityId,
      identity_policies: null,
      external_namespace_policies: {},
    });
  }

  /** A token answer: the fields, and the upstream product's further ones where the rules take them. */
  private shape(
    entry: TokenEntry,
    fields: Record<string, unknown>,
    upstreamExtras: Record<string, unknown>,
  ): Record<string, unknown> {
    return this.fieldsOf(entry, fields, upstreamExtras);
  }

  /** A stable entity id for a named identity (so a user logging in twice is one entity). */
  static entityFor(name: string): string {
    const h = createHash('sha256').update(name).digest();
    h[6] = (h[6]! & 0x0f) | 0x40;
    h[8] = (h[8]! & 0x3f) | 0x80;
    const hex = h.subarray(0, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  static randomEntity(): string {
    return randomUUID();
  }
}
