/** Static roles: existing entries whose passwords the engine rotates now and every rotation_period. */
import { parseDuration } from '../../duration.js';
import { badRequest, notFound } from '../../errors.js';
import { listLevel } from './names.js';
import { boolField, stringField, type Shared } from './shared.js';
import { rfc3339 } from './template.js';

const MIN_PERIOD = 5;
const ZERO_TIME = '0001-01-01T00:00:00Z';

interface StaticRole {
  username: string;
  /** The entry's DN as found by the search (or given). */
  dn: string;
  /** The dn field as written ('' when the role was created with username only). */
  writtenDn: string;
  rotationPeriod: number;
  password?: string;
  lastPassword?: string;
  /** ms of the last rotation by the service; undefined when never rotated. */
  lastRotation?: number;
  /** ms when the schedule last started (creation or last rotation). */
  scheduleFrom: number;
  skipImportRotation: boolean;
  cancel: () => void;
}

export class StaticRoles {
  private readonly roles = new Map<string, StaticRole>();

  constructor(private readonly s: Shared) {}

  has(name: string): boolean {
    return this.roles.has(name);
  }

  list(prefix: string): { keys: string[] } {
    return { keys: listLevel(this.roles.keys(), prefix) };
  }

  read(name: string): Record<string, unknown> {
    const r = this.get(name);
    return {
      dn: this.shownDn(r),
      username: r.username,
      rotation_period: r.rotationPeriod,
      last_svc_rotation: this.lastRotation(r),
      skip_import_rotation: r.skipImportRotation,
    };
  }

  private shownDn(r: StaticRole): string {
    return this.s.variant('ldap.static-dn-as-written') ? r.writtenDn : r.dn;
  }

  private lastRotation(r: StaticRole): string {
    if (r.lastRotation === undefined) return ZERO_TIME;
    return this.s.variant('ldap.last-rotation-subsecond')
      ? new Date(r.lastRotation).toISOString()
      : rfc3339(r.lastRotation);
  }

  private get(name: string): StaticRole {
    const r = this.roles.get(name);
    if (!r) throw notFound(`static role "${name}" not found`);
    return r;
  }

  async write(name: string, body: Record<string, unknown>): Promise<void> {
    const existing = this.roles.get(name);
    let period: number | undefined;
    if (body.rotation_period !== undefined && body.rotation_period !== null) {
      try {
        period = parseDuration(body.rotation_period);
      } catch {
        throw badRequest('rotation_period must be a duration (seconds or a string such as 1h)');
      }
      const min = this.s.fault('ldap.static-rotation-period-4s-accepted') ? 4 : MIN_PERIOD;
      if (period < min) throw badRequest(`rotation_period must be at least ${MIN_PERIOD} seconds`);
    }
    const username = stringField(body, 'username');
    const dn = stringField(body, 'dn');
    if (existing) {
      const mutable = this.s.fault('ldap.static-username-mutable');
      if (username !== undefined && username !== existing.username && !mutable)
        throw badRequest('username cannot be changed after creation');
      if (dn !== undefined && dn !== '' && dn !== existing.dn && !mutable)
        throw badRequest('dn cannot be changed after creation');
      if (mutable && username) existing.username = username;
      if (period !== undefined && period !== existing.rotationPeriod) {
        existing.rotationPeriod = period;
        this.schedule(name, existing);
      }
      return;
    }
    if (!username) throw badRequest('username is required');
    if (period === undefined) throw badRequest('rotation_period is required');
    const cfg = this.s.requireConfig();
    const roleSkip = boolField(body, 'skip_import_rotation');
    const configDefault = this.s.fault('ldap.static-config-skip-default-ignored')
      ? false
      : cfg.skipStaticRoleImportRotation;
    let skip = roleSkip ?? configDefault;
    if (this.s.fault('ldap.static-skip-import-ignored')) skip = false;
    if (this.s.fault('ldap.static-import-not-rotated')) skip = true;
    const attr = this.s.userAttr();
    const foundDn = await this.s.withDirectory(async (session) => {
      const useDn = this.s.fault('ldap.static-dn-ignored') ? undefined : dn || undefined;
      return session.findAccount(username, useDn, attr);
    });
    if (!foundDn && !this.s.fault('ldap.static-missing-entry-accepted')) {
      throw badRequest(`no entry found for ${dn ? `dn "${dn}"` : `${attr}="${username}" under userdn`}`);
    }
    // Fault path: a role for an absent entry is stored with a guessed DN and never rotated.
    if (!foundDn) skip = true;
    const role: StaticRole = {
      username,
      dn: foundDn ?? (dn || `${attr}=${username},${cfg.userdn}`),
      writtenDn: dn ?? '',
      rotationPeriod: period,
      scheduleFrom: this.s.now(),
      skipImportRotation: roleSkip ?? cfg.skipStaticRoleImportRotation,
      cancel: () => {},
    };
    if (!skip) await this.rotate(role, false);
    this.roles.set(name, role);
    this.schedule(name, role);
  }

  async delete(name: string): Promise<void> {
    const r = this.roles.get(name);
    if (!r) return;
    r.cancel();
    this.roles.delete(name);
  }

  cred(name: string): Record<string, unknown> {
    const r = this.get(name);
    const next = r.scheduleFrom + r.rotationPeriod * 1000;
    const ttl = this.s.fault('ldap.static-ttl-is-period')
      ? r.rotationPeriod
      : Math.max(0, Math.ceil((next - this.s.now()) / 1000));
    if (r.password === undefined && this.s.variant('ldap.static-cred-before-rotation-error'))
      throw badRequest('the password of this role is not known until its first rotation');
    const data: Record<string, unknown> = {
      dn: this.shownDn(r),
      username: r.username,
      rotation_period: r.rotationPeriod,
      ttl: Math.min(ttl, r.rotationPeriod),
      last_svc_rotation: this.lastRotation(r),
    };
    // Until the first rotation the engine does not know the password, so it cannot supply it.
    if (r.password !== undefined) data.password = r.password;
    if (r.lastPassword !== undefined && !this.s.fault('ldap.static-last-password-missing'))
      data.last_password = r.lastPassword;
    return data;
  }

  async rotateNow(name: string): Promise<void> {
    const r = this.get(name);
    await this.rotate(r, this.s.fault('ldap.rotate-role-not-applied'));
    this.schedule(name, r);
  }

  private async rotate(role: StaticRole, skipDirectory: boolean): Promise<void> {
    if (!role.dn) throw badRequest('the role has no entry to rotate');
    const password = this.s.generatePassword();
    if (!skipDirectory) await this.s.withDirectory((session) => session.setPassword(role.dn, password));
    if (role.password !== undefined) role.lastPassword = role.password;
    role.password = password;
    role.lastRotation = this.s.now();
    role.scheduleFrom = role.lastRotation;
  }

  private schedule(name: string, role: StaticRole): void {
    role.cancel();
    if (this.s.fault('ldap.static-no-scheduled-rotation')) return;
    const at = role.scheduleFrom + role.rotationPeriod * 1000;
    role.cancel = this.s.ctx.clock.at(at, async () => {
      if (this.roles.get(name) !== role) return;
      try {
        await this.rotate(role, false);
      } catch (err) {
        this.s.ctx.log(`static role rotation failed: ${(err as Error).message}`);
        role.scheduleFrom = this.s.now();
      }
      this.schedule(name, role);
    });
  }

  close(): void {
    for (const r of this.roles.values()) r.cancel();
  }
}
