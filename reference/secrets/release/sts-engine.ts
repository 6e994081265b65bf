/**
 * A minimal cloud-provider secrets engine (type `aws`, the real product's paths `roles/:name` and
 * `sts/:name`; not in the documents) issuing simulated STS credentials, so the reference can carry
 * the known issue of 1.13.0: STS credentials always came back with lease_duration 0 (the `ttl`
 * field in the data was right). Nothing leaves the process: keys are random strings.
 */
import { randomBytes } from 'node:crypto';
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../engine.js';
import { badRequest, methodNotAllowed, notFound, unsupportedPath } from '../errors.js';
import { parseDuration } from '../duration.js';
import type { ReleaseRules } from './rules.js';
import { releaseRulesFor } from './rules.js';

const STS_TYPES = ['assumed_role', 'federation_token', 'session_token'];
const DEFAULT_STS_TTL = 3600;

interface Role {
  credentialType: string;
  defaultStsTtl: number;
  maxStsTtl: number;
  roleArns: string[];
  policyDocument: string;
}

function seconds(value: unknown, field: string): number {
  try {
    return parseDuration(value as string | number);
  } catch {
    throw badRequest(`${field} must be a duration`);
  }
}

class StsEngine implements Engine {
  private readonly roles = new Map<string, Role>();

  private readonly rules: ReleaseRules;

  constructor(private readonly ctx: EngineContext) {
    this.rules = releaseRulesFor(ctx.faults, ctx.variants);
  }

  async exists(path: string): Promise<boolean> {
    const m = /^roles\/([^/]+)$/.exec(path);
    return m ? this.roles.has(m[1]!) : true;
  }

  async handle(req: EngineRequest): Promise<EngineResponse> {
    const { path, method } = req;
    if (path === 'roles') {
      if (method === 'LIST') return { data: { keys: [...this.roles.keys()].sort() } };
      throw methodNotAllowed();
    }
    let m = /^roles\/([^/]+)$/.exec(path);
    if (m) {
      const name = m[1]!;
      if (method === 'POST' || method === 'PUT') return this.writeRole(name, req.body);
      if (method === 'GET') {
        const r = this.roles.get(name);
        if (!r) throw notFound();
        return {
          data: {
            credential_type: r.credentialType,
            default_sts_ttl: r.defaultStsTtl,
            max_sts_ttl: r.maxStsTtl,
            role_arns: r.roleArns,
            policy_document: r.policyDocument,
          },
        };
      }
      if (method === 'DELETE') {
        this.roles.delete(name);
        return {};
      }
      throw methodNotAllowed();
    }
    m = /^sts\/([^/]+)$/.exec(path);
    if (m) {
      if (method !== 'GET' && method !== 'POST' && method !== 'PUT') throw methodNotAllowed();
      const ttl = method === 'GET' ? (req.query.get('ttl') ?? undefined) : req.body.ttl;
      return this.sts(m[1]!, ttl);
    }
    throw unsupportedPath();
  }

  private writeRole(name: string, body: Record<string, unknown>): EngineResponse {
    const type = body.credential_type;
    if (typeof type !== 'string' || !['iam_user', ...STS_TYPES].includes(type))
      throw badRequest('credential_type must be one of iam_user, assumed_role, federation_token, session_token');
    const roleArns = body.role_arns === undefined ? [] : body.role_arns;
    if (!Array.isArray(roleArns) || roleArns.some((a) => typeof a !== 'string'))
      throw badRequest('role_arns must be a list of strings');
    if (type === 'assumed_role' && roleArns.length === 0) throw badRequest('assumed_role needs role_arns');
    const policyDocument = body.policy_document === undefined ? '' : body.policy_document;
    if (typeof policyDocument !== 'string') throw badRequest('policy_document must be a JSON string');
    const defaultStsTtl =
      body.default_sts_ttl === undefined ? DEFAULT_STS_TTL : seconds(body.default_sts_ttl, 'default_sts_ttl');
    const maxStsTtl = body.max_sts_ttl === undefined ? 0 : seconds(body.max_sts_ttl, 'max_sts_ttl');
    if (maxStsTtl && defaultStsTtl > maxStsTtl) throw badRequest('default_sts_ttl exceeds max_sts_ttl');
    this.roles.set(name, {
      credentialType: type,
      defaultStsTtl,
      maxStsTtl,
      roleArns: roleArns as string[],
      policyDocument,
    });
    return {};
  }

  private sts(name: string, requested: unknown): EngineResponse {
    const role = this.roles.get(name);
    if (!role) throw badRequest(`role "${name}" not found`);
    if (!STS_TYPES.includes(role.credentialType))
      throw badRequest(`role "${name}" issues ${role.credentialType} credentials, not STS`);
    let ttl = requested === undefined || requested === '' ? role.defaultStsTtl : seconds(requested, 'ttl');
    if (role.maxStsTtl) ttl = Math.min(ttl, role.maxStsTtl);
    if (ttl < 900) throw badRequest('ttl must be at least 15m for STS credentials');
    const data = {
      access_key: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
      secret_key: randomBytes(30).toString('base64'),
      security_token: randomBytes(96).toString('base64'),
      arn: `arn:aws:sts::000000000000:federated-user/${name}`,
      ttl,
    };
    const buggy = this.rules.affected('release.known.sts-lease-duration-zero', this.ctx.settings.version);
    // 1.13.0 answered without a lease, so lease_duration read 0; `ttl` in the data was right.
    if (buggy) return { data };
    return { data, lease: { ttl, renewable: false, revoke: async () => {} } };
  }
}

export const factory: EngineFactory = (ctx) => new StsEngine(ctx);
