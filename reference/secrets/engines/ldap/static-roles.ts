/** Static roles: existing entries whose passwords the engine rotates now and every rotation_period. */
import { badRequest, notFound } from '../../errors.js';
import { boolField, stringField, type Shared } from './shared.js';
import { MIN_ROTATION_PERIOD } from './rules.js';

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
  /** Whether the service has set the password (import rotation, rotate-role, schedule). */
  rotatedByService: boolean;
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
    return { keys: this.s.rules.staticList(this.roles.keys(), prefix) };
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
    return this.s.rules.staticShownDn(r.dn, r.writtenDn);
  }

  private lastRotation(r: StaticRole): string {
    if (r.lastRotation === undefined) return ZERO_TIME;
    return this.s.rules.lastRotationTime(r.lastRotation);
  }

  private get(name: string): StaticRole {
    const r = this.roles.get(name);
    if (!r) throw notFound(`static role "${name}" not found`);
    return r;
  }

  async write(name: string, body: Record<string, unknown>): Promise<void> {
    const existing = this.roles.get(name);
    const rules = this.s.rules;
    if (!existing) rules.checkStaticRoleName(name);
    let period: number | undefined;
    if (body.rotation_period !== undefined && body.rotation_period !== null) {
      try {
        period = rules.rotationPeriod(body.rotation_period);
      } catch {
        throw badRequest('rotation_period must be a duration (seconds or a string such as 1h)');
      }
      if (
        period < this.s.rules.minRotationPeriod &&
        rules.rotationPeriodMinimumApplies(body.rotation_period, !!existing)
      )
        throw badRequest(`rotation_period must be at least ${MIN_ROTATION_PERIOD} seconds`);
    }
    const username = stringField(body, 'username');
    const dn = stringField(body, 'dn');
    const roleSkip = boolField(body, 'skip_import_rotation');
    if (existing) {
      this.update(name, existing, { username, dn, period, roleSkip });
      return;
    }
    if (!username && rules.staticUsernameRequired) throw badRequest('username is required');
    if (period === undefined) {
      if (rules.staticRotationPeriodRequired) throw badRequest('rotation_period is required');
      period = 24 * 3600;
    }
    const cfg = this.s.requireConfig();
    let skip = rules.skipImportRotation(roleSkip, cfg.skipStaticRoleImportRotation);
    const attr = this.s.userAttr();
    // Only when a rule above is replaced: a role without username is stored without an entry.
    const foundDn = username
      ? await this.s.withDirectory(async (session) => session.findAccount(username, rules.staticLookupDn(dn), attr))
      : undefined;
    if (!foundDn && rules.staticEntryMustExist && username) {
      throw badRequest(`no entry found for ${dn ? `dn "${dn}"` : `${attr}="${username}" under userdn`}`);
    }
    // Only when the rule above is replaced: a role for an absent entry gets a guessed DN, never rotated.
    if (!foundDn) skip = true;
    const role: StaticRole = {
      username: username ?? '',
      dn: foundDn ?? (dn || `${attr}=${username},${cfg.userdn}`),
      writtenDn: dn ?? '',
      rotationPeriod: period,
      scheduleFrom: this.s.now(),
      rotatedByService: false,
      skipImportRotation: roleSkip ?? cfg.skipStaticRoleImportRotation,
      cancel: () => {},
    };
    if (!skip) await this.rotate(role);
    this.roles.set(name, role);
    this.schedule(name, role);
  }

  /** A POST on an existing role: username and dn stay, rotation_period may change. */
  private update(
    name: string,
    existing: StaticRole,
    sent: { username?: string; dn?: string; period?: number; roleSkip?: boolean },
  ): void {
    const rules = this.s.rules;
    const { username, dn, period, roleSkip } = sent;
    if (!rules.staticUpdateMayOmit && (username === undefined || period === undefined))
      throw badRequest('username and rotation_period are required');
    const usernameChanged = username !== undefined && username !== existing.username;
    if (usernameChanged && rules.staticUsernameImmutable) {
      const refusal = rules.identityChangeRefused('username');
      if (refusal) throw refusal;
    }
    const sameDn = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const dnChanged = dn !== undefined && dn !== '' && !sameDn(dn, existing.dn) && !sameDn(dn, existing.writtenDn);
    if (dnChanged && rules.staticDnImmutable) {
      const refusal = rules.identityChangeRefused('dn');
      if (refusal) throw refusal;
    }
    if (roleSkip !== undefined) {
      const refusal = rules.skipImportOnUpdate();
      if (refusal) throw refusal;
    }
    // Only when the rules above are replaced: the identity moves to what was sent.
    if (!rules.staticUsernameImmutable && username) existing.username = username;
    if (!rules.staticDnImmutable && dnChanged) {
      existing.dn = dn!;
      existing.writtenDn = dn!;
    }
    if (roleSkip === true && rules.skipImportOnUpdateForgets) {
      existing.password = undefined;
      existing.lastPassword = undefined;
      existing.rotatedByService = false;
    }
    if (period !== undefined && period !== existing.rotationPeriod && rules.staticUpdateApplies) {
      existing.rotationPeriod = period;
      this.schedule(name, existing);
    }
  }

  async delete(name: string): Promise<void> {
    const r = this.roles.get(name);
    if (!r || !this.s.rules.staticDeleteRemoves) return;
    r.cancel();
    this.roles.delete(name);
  }

  cred(name: string): Record<string, unknown> {
    const r = this.get(name);
    const next = r.scheduleFrom + r.rotationPeriod * 1000;
    const left = Math.max(0, Math.ceil((next - this.s.now()) / 1000));
    const ttl = this.s.rules.staticCredTtl(left, r.rotationPeriod);
    const supplies =
      r.password !== undefined && this.s.rules.credSuppliesPassword(r.rotatedByService, r.skipImportRotation);
    if (!supplies) this.s.rules.credBeforeFirstRotation();
    const data: Record<string, unknown> = {
      dn: this.shownDn(r),
      username: r.username,
      rotation_period: r.rotationPeriod,
      ttl: Math.min(ttl, r.rotationPeriod),
      last_svc_rotation: this.lastRotation(r),
    };
    // Until the first rotation the engine does not know the password, so it cannot supply it.
    if (supplies) data.password = r.password;
    if (r.lastPassword !== undefined && this.s.rules.reportsLastPassword) data.last_password = r.lastPassword;
    return data;
  }

  async rotateNow(name: string): Promise<void> {
    const r = this.get(name);
    await this.rotate(r, this.s.rules.rotateRoleChangesDirectory, this.s.rules.rotateRoleRestartsPeriod);
    this.schedule(name, r);
  }

  private async rotate(role: StaticRole, changeDirectory = true, restartPeriod = true): Promise<void> {
    if (!role.dn) throw badRequest('the role has no entry to rotate');
    const password = this.s.generatePassword('static');
    if (changeDirectory) await this.s.withDirectory((session) => session.setPassword(role.dn, password));
    if (role.password !== undefined) role.lastPassword = role.password;
    role.password = password;
    role.rotatedByService = true;
    const now = this.s.now();
    role.lastRotation = this.s.rules.lastRotationAfter(role.lastRotation, now);
    if (restartPeriod) role.scheduleFrom = now;
  }

  private schedule(name: string, role: StaticRole): void {
    role.cancel();
    if (!this.s.rules.scheduledRotation) return;
    const at = role.scheduleFrom + role.rotationPeriod * 1000;
    role.cancel = this.s.ctx.clock.at(at, async () => {
      if (this.roles.get(name) !== role) return;
      try {
        await this.rotate(role);
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
