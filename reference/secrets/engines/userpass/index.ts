/**
 * Username/password auth method of the reference (mounted under `auth/`, paths as the real
 * product: `users/:name`, `login/:name`), with user lockout. Passwords are kept as salted scrypt
 * digests and never returned.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { SvcError, badRequest, methodNotAllowed, unsupportedPath } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { TokenStore } from '../../tokens.js';
import { lockoutBook, lockoutPolicy } from './lockout.js';
import type { UserpassRules } from './rules.js';
import { userpassRulesFor } from './switches.js';

interface User {
  salt: Buffer;
  digest: Buffer;
  policies: string[];
  ttl: number;
}

const digestOf = (password: string, salt: Buffer) => scryptSync(password, salt, 32, { N: 1024 });

function policiesFrom(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!list || list.some((p) => typeof p !== 'string'))
    throw badRequest('token_policies must be a list of strings or a comma-separated string');
  const out = [...new Set((list as string[]).map((p) => p.trim().toLowerCase()).filter(Boolean))];
  if (out.includes('root')) throw badRequest('a user cannot be given the root policy');
  return out;
}

class UserpassEngine implements Engine {
  private readonly users = new Map<string, User>();
  private readonly namespace: string;
  private readonly rules: UserpassRules;

  constructor(private readonly ctx: EngineContext) {
    this.rules = userpassRulesFor(ctx.faults, ctx.variants);
    const i = ctx.mountPath.indexOf('auth/');
    this.namespace = i > 0 ? ctx.mountPath.slice(0, i - 1) : '';
  }

  async exists(path: string): Promise<boolean> {
    const m = /^users\/([^/]+)$/.exec(path);
    return m ? this.users.has(m[1]!.toLowerCase()) : true;
  }

  help(path: string): string {
    return `## userpass: ${path || '/'}\n\nManage users under \`users/\`; log in with \`login/:name\` and a password.`;
  }

  async handle(req: EngineRequest): Promise<EngineResponse> {
    const { path, method } = req;
    const write = method === 'POST' || method === 'PUT';
    if (path === 'users') {
      if (method === 'LIST') return { data: { keys: [...this.users.keys()].sort() } };
      throw methodNotAllowed();
    }
    let m = /^users\/([^/]+)$/.exec(path);
    if (m) {
      const name = m[1]!.toLowerCase();
      if (method === 'GET') return this.read(name);
      if (write) return this.write(name, req.body, req.operation === 'create');
      if (method === 'DELETE') {
        this.users.delete(name);
        return {};
      }
      throw methodNotAllowed();
    }
    m = /^users\/([^/]+)\/password$/.exec(path);
    if (m) {
      if (!write) throw methodNotAllowed();
      const user = this.users.get(m[1]!.toLowerCase());
      if (!user) throw badRequest('username does not exist');
      this.setPassword(user, req.body.password);
      return {};
    }
    m = /^login\/([^/]+)$/.exec(path);
    if (m) {
      if (!write) throw methodNotAllowed();
      return this.login(m[1]!.toLowerCase(), req.body.password);
    }
    throw unsupportedPath();
  }

  private read(name: string): EngineResponse {
    const u = this.users.get(name);
    if (!u) throw new SvcError(404, []);
    return {
      data: this.rules.userData({ token_policies: u.policies, policies: u.policies, token_ttl: u.ttl }, u.digest),
    };
  }

  private setPassword(user: User, password: unknown): void {
    if (typeof password !== 'string' || password === '') throw badRequest('password must be a non-empty string');
    user.salt = randomBytes(16);
    user.digest = digestOf(password, user.salt);
  }

  private write(name: string, body: Record<string, unknown>, create: boolean): EngineResponse {
    const existing = this.users.get(name);
    if (!existing && (body.password === undefined || body.password === '')) throw badRequest('missing password');
    const user: User = existing
      ? { ...existing }
      : { salt: Buffer.alloc(0), digest: Buffer.alloc(0), policies: [], ttl: 0 };
    if (body.password !== undefined) this.setPassword(user, body.password);
    const policies = body.token_policies ?? body.policies;
    if (policies !== undefined) user.policies = policiesFrom(policies);
    if (body.token_ttl !== undefined) {
      try {
        user.ttl = parseDuration(body.token_ttl);
      } catch {
        throw badRequest('token_ttl must be a duration');
      }
    }
    void create;
    this.users.set(name, user);
    return {};
  }

  private login(name: string, password: unknown): EngineResponse {
    if (typeof password !== 'string') throw badRequest('missing password');
    const book = lockoutBook(this.ctx.tokens, this.rules);
    const policy = this.rules.lockoutPolicy(lockoutPolicy(this.ctx.settings));
    const now = this.ctx.clock.now();
    const mount = this.ctx.mountPath;
    // A locked user is not validated: the request is ignored, not answered with permission denied
    // (Authentication 6; the real product answers 403 permission denied here).
    if (this.rules.lockRefusesLogin && book.isLocked(mount, name, policy, now)) {
      throw this.rules.lockedRefusal(this.rules.invalidCredentials());
    }
    const user = this.users.get(name);
    const ok = !!user && (!this.rules.passwordChecked || timingSafeEqual(digestOf(password, user.salt), user.digest));
    if (!ok) {
      book.recordFailure(mount, name, policy, now);
      throw this.rules.invalidCredentials();
    }
    book.recordSuccess(mount, name);
    const entry = this.ctx.tokens.create({
      policies: user.policies.length ? user.policies : ['default'],
      displayName: `${mount
        .replace(/^.*auth\//, '')
        .replace(/\/$/, '')
        .replace(/\//g, '-')}-${name}`,
      entityId: TokenStore.entityFor(`${mount}${name}`),
      ttl: user.ttl || this.ctx.settings.defaultLeaseTtl,
      path: `${mount}login/${name}`,
      meta: { username: name },
      namespace: this.namespace,
    });
    const auth = this.ctx.tokens.authBlock(entry);
    if (!this.rules.loginTokenKept) this.ctx.tokens.revoke(entry.id);
    return this.rules.loginAnswer(auth);
  }
}

export const factory: EngineFactory = (ctx) => new UserpassEngine(ctx);
