/**
 * The directory (LDAP) engine: configuration and rotate-root, static roles, dynamic roles from
 * LDIF templates and library sets, working against a real directory over ldapts.
 */
import type { Engine, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest, methodNotAllowed, SvcError, unsupportedPath } from '../../errors.js';
import { applyConfigWrite } from './config.js';
import { DynamicRoles } from './dynamic-roles.js';
import { Library } from './library.js';
import { Shared } from './shared.js';
import { StaticRoles } from './static-roles.js';
import { type LdapAnswer, ldapAnswersFor } from './answer-switches.js';

class LdapEngine implements Engine {
  private readonly statics: StaticRoles;
  private readonly dynamics: DynamicRoles;
  private readonly library: Library;
  /** The engine's edge: the rewrites of the answer by the wire-level switches that are on. */
  private readonly answer: (a: LdapAnswer) => LdapAnswer;

  constructor(private readonly s: Shared) {
    this.answer = ldapAnswersFor(s.ctx.faults, s.ctx.variants);
    this.statics = new StaticRoles(s);
    this.dynamics = new DynamicRoles(s);
    this.library = new Library(s);
  }

  async exists(path: string): Promise<boolean> {
    if (path === 'config') return this.s.config !== undefined;
    const m = /^(static-role|role|library)\/(.+)$/.exec(path);
    if (!m || /\/(check-in|check-out|status)$/.test(path) || path.startsWith('library/manage/')) return true;
    if (m[1] === 'static-role') return this.statics.has(m[2]!);
    if (m[1] === 'role') return this.dynamics.has(m[2]!);
    return this.library.has(m[2]!);
  }

  aclPath(path: string): string {
    return this.s.rules.aclPath(path);
  }

  help(path: string): string {
    return `## ldap/${path}\n\nDirectory engine of the reference: config, rotate-root, static-role, static-cred, rotate-role, role, creds, library.`;
  }

  /** Routes the request; the answer (response or error) then passes the engine's edge. */
  async handle(req: EngineRequest): Promise<EngineResponse> {
    const { method, path } = req;
    let answer: LdapAnswer;
    try {
      answer = { method, path, failed: false, response: await this.route(req) };
    } catch (error) {
      answer = { method, path, failed: true, error };
    }
    const out = this.answer(answer);
    if (out.failed) throw out.error;
    return out.response!;
  }

  private async route(req: EngineRequest): Promise<EngineResponse> {
    const { path, method } = req;
    if (!this.s.rules.servesPath(path)) throw unsupportedPath();
    const write = method === 'POST' || method === 'PUT';
    const list = method === 'LIST';

    if (path === 'config') {
      if (write) {
        this.s.config = applyConfigWrite(
          this.s.config,
          req.body,
          (n) => this.s.ctx.passwordPolicies.get(n) !== undefined,
          this.s.rules,
        );
        return {};
      }
      if (method === 'GET') {
        if (!this.s.config) throw new SvcError(404, []);
        return { data: this.s.rules.configRead(this.s.config) };
      }
      if (method === 'DELETE') {
        if (this.s.rules.configDeleteRemoves) this.s.config = undefined;
        return {};
      }
      throw methodNotAllowed();
    }

    if (path === 'rotate-root') {
      if (!write) throw methodNotAllowed();
      return this.s.rules.rotateRootAnswer(await this.rotateRoot());
    }

    // Static roles; GET without a name lists them as the document says.
    if (path === 'static-role') {
      if (method === 'GET' || list) return { data: this.statics.list('') };
      throw methodNotAllowed();
    }
    let m = /^static-role\/(.+)$/.exec(path);
    if (m) {
      const name = m[1]!;
      if (list) return { data: this.statics.list(name) };
      if (method === 'GET') return { data: this.statics.read(name) };
      if (write) {
        await this.statics.write(name, req.body);
        return {};
      }
      if (method === 'DELETE') {
        await this.statics.delete(name);
        return {};
      }
      throw methodNotAllowed();
    }
    m = /^static-cred\/(.+)$/.exec(path);
    if (m) {
      if (method !== 'GET') throw methodNotAllowed();
      return { data: this.statics.cred(m[1]!) };
    }
    m = /^rotate-role\/(.+)$/.exec(path);
    if (m) {
      if (!write) throw methodNotAllowed();
      await this.statics.rotateNow(m[1]!);
      return {};
    }

    // Dynamic roles.
    if (path === 'role') {
      if (method === 'GET' || list) return { data: this.dynamics.list('') };
      throw methodNotAllowed();
    }
    m = /^role\/(.+)$/.exec(path);
    if (m) {
      const name = m[1]!;
      if (list) return { data: this.dynamics.list(name) };
      if (method === 'GET') return { data: this.dynamics.read(name) };
      if (write) {
        this.s.rules.checkDynamicRoleName(name);
        this.dynamics.write(name, req.body);
        return {};
      }
      if (method === 'DELETE') {
        this.dynamics.delete(name);
        return {};
      }
      throw methodNotAllowed();
    }
    m = /^creds\/(.+)$/.exec(path);
    if (m) {
      if (method !== 'GET' && !write) throw methodNotAllowed();
      return this.dynamics.creds(m[1]!, req.token);
    }

    // Library sets.
    if (path === 'library') {
      if (method === 'GET' || list) return { data: this.library.list('') };
      throw methodNotAllowed();
    }
    m = /^library\/manage\/(.+)\/check-in$/.exec(path);
    if (m) {
      if (!write) throw methodNotAllowed();
      return { data: await this.library.checkIn(m[1]!, req.body, req.token, true) };
    }
    m = /^library\/(.+)\/(status|check-out|check-in)$/.exec(path);
    if (m) {
      const [, name, action] = m as unknown as [string, string, string];
      if (action === 'status') {
        if (method !== 'GET') throw methodNotAllowed();
        return { data: this.library.status(name) };
      }
      if (!write) throw methodNotAllowed();
      if (action === 'check-out') return this.library.checkOut(name, req.body, req.token);
      return { data: await this.library.checkIn(name, req.body, req.token, false) };
    }
    m = /^library\/(.+)$/.exec(path);
    if (m) {
      const name = m[1]!;
      if (list) return { data: this.library.list(name) };
      if (method === 'GET') return { data: this.library.read(name) };
      if (write) {
        await this.library.write(name, req.body);
        return {};
      }
      if (method === 'DELETE') {
        await this.library.delete(name);
        return {};
      }
      throw methodNotAllowed();
    }
    throw unsupportedPath();
  }

  /** A new bind password known only to the service: set in the directory, then stored. */
  private async rotateRoot(): Promise<string> {
    const cfg = this.s.requireConfig();
    if (!cfg.binddn) throw badRequest('binddn is not configured');
    const password = this.s.generatePassword('root');
    if (this.s.rules.rotateRootChangesDirectory) {
      await this.s.withDirectory((session) => session.setPassword(cfg.binddn, password));
    }
    cfg.bindpass = password;
    return password;
  }

  async close(): Promise<void> {
    this.statics.close();
  }
}

export const factory: EngineFactory = (ctx) => new LdapEngine(new Shared(ctx));
