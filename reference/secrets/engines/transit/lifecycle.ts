/**
 * The key lifecycle of the transit engine (transit document: Key management: create, read, list,
 * delete, config, rotate, trim; config/keys and cache-config; States and transitions).
 */
import type { EngineResponse } from '../../engine.js';
import { badRequest, methodNotAllowed } from '../../errors.js';
import type { TransitRules } from './rules.js';
import { bool, int, str, type Body } from './params.js';
import type { Answer, Call, Routes, Shared } from './shared.js';

/** Creating, reading, listing, configuring, rotating, trimming and deleting keys; the engine settings. */
export class KeyLifecycle {
  private readonly rules: TransitRules;

  constructor(private readonly s: Shared) {
    this.rules = s.rules;
  }

  routes(): Routes {
    return [
      ['keys', (c) => this.keysRoute(c)],
      ['keys/config', (c) => (c.post ? this.config(c.seg[1]!, c.body) : undefined)],
      ['keys/rotate', (c) => (c.post ? this.rotateRoute(c.seg[1]!, c.body) : undefined)],
      ['keys/trim', (c) => (c.post ? this.trim(c.seg[1]!, c.body) : undefined)],
      ['config', (c) => this.configKeys(c)],
      ['cache-config', (c) => this.cacheConfig(c)],
    ];
  }

  /** keys (LIST) and keys/:name (read, create, delete). */
  private async keysRoute({ req, seg, body, post }: Call): Promise<Answer> {
    const m = req.method;
    if (seg.length === 1) {
      if (m === 'LIST' || (m === 'GET' && req.query.get('list') === 'true')) return this.list();
      if (post) return this.rules.createWithoutName();
      throw methodNotAllowed();
    }
    if (seg.length !== 2) return undefined;
    const name = seg[1]!;
    if (m === 'GET') {
      if (!this.s.keys.has(name)) throw this.rules.missingKeyRead(name);
      return { data: this.s.view(await this.s.key(name)) };
    }
    if (post) return this.s.create(name, body);
    if (m === 'DELETE') return this.delete(name);
    throw methodNotAllowed();
  }

  /** config/keys: the engine's upsert setting. */
  private configKeys({ req, seg, body, post }: Call): Answer {
    if (seg.length !== 2 || seg[1] !== 'keys') return undefined;
    if (post) {
      const previous = this.readDisableUpsert();
      this.s.disableUpsert = this.rules.disableUpsertWrite(
        this.s.disableUpsert,
        bool(body, 'disable_upsert', this.s.disableUpsert),
      );
      return { data: { disable_upsert: this.rules.disableUpsertAnswer(previous, this.readDisableUpsert()) } };
    }
    if (req.method === 'GET') return { data: { disable_upsert: this.readDisableUpsert() } };
    return undefined;
  }

  /** cache-config: the key cache size, applied (in the real product) only after a plugin reload. */
  private cacheConfig({ req, seg, body, post }: Call): Answer {
    if (seg.length !== 1) return undefined;
    if (post) {
      const size = int(body, 'size', this.rules.cacheDefaultSize);
      this.rules.checkCacheSize(size);
      this.s.cacheSize = size;
      return {
        warnings: ['cache configurations will be applied when this backend is restarted'],
        data: { size },
      };
    }
    if (req.method === 'GET') return { data: { size: this.rules.cacheSizeRead(this.s.cacheSize) } };
    return undefined;
  }

  private list(): EngineResponse {
    // Map order is creation order.
    return { data: { keys: this.rules.listed([...this.s.keys.keys()]).sort() } };
  }

  private async rotateRoute(name: string, body: Body): Promise<EngineResponse> {
    str(body, 'managed_key_name');
    str(body, 'managed_key_id');
    return this.s.locked(name, async () => {
      const k = await this.s.key(name);
      this.rules.checkRotation(k);
      // A public-only imported key can still rotate: the service generates a full pair.
      if (this.rules.rotatesOnRequest(k)) await this.s.rotate(k);
      return { data: this.s.view(k) };
    });
  }

  private async delete(name: string): Promise<EngineResponse> {
    return this.s.locked(name, async () => {
      const k = this.s.keys.get(name);
      if (!k) return {};
      this.rules.checkDeletion(k);
      this.rules.removeKey(this.s.keys, name);
      return {};
    });
  }

  private async config(name: string, body: Body): Promise<EngineResponse> {
    return this.s.locked(name, async () => {
      const k = await this.s.key(name);
      const next = { ...k };
      this.rules.applyOmittedConfig(next, body);
      this.rules.applyDeletionAllowed(next, body);
      if (body.exportable !== undefined) {
        const v = bool(body, 'exportable');
        if (v || !k.exportable || this.rules.disableFlag('exportable', k)) next.exportable = v;
      }
      if (body.allow_plaintext_backup !== undefined) {
        const v = bool(body, 'allow_plaintext_backup');
        if (v || !k.allowPlaintextBackup || this.rules.disableFlag('allow_plaintext_backup', k))
          next.allowPlaintextBackup = v;
      }
      if (body.min_decryption_version !== undefined) next.minDecryptionVersion = int(body, 'min_decryption_version');
      if (body.min_encryption_version !== undefined) next.minEncryptionVersion = int(body, 'min_encryption_version');
      if (next.minDecryptionVersion === 0) next.minDecryptionVersion = 1;
      if (next.minDecryptionVersion < 0 || next.minEncryptionVersion < 0)
        throw badRequest('minimum versions cannot be negative');
      if (next.minDecryptionVersion > k.latestVersion)
        throw badRequest('cannot set min_decryption_version above the latest version');
      if (next.minEncryptionVersion > k.latestVersion)
        throw badRequest('cannot set min_encryption_version above the latest version');
      this.rules.checkMinVersions(next);
      if (next.minAvailableVersion > 0 && next.minDecryptionVersion < next.minAvailableVersion)
        throw badRequest('min_decryption_version cannot be below the trimmed minimum available version');
      const period = this.rules.autoRotatePeriodOf(body);
      this.rules.checkAutoRotatePeriod(period);
      if (period !== undefined) next.autoRotatePeriod = this.rules.autoRotateUpdate(next.autoRotatePeriod, period);
      if (period !== undefined && period > 0 && k.autoRotatePeriod === 0) next.lastRotatedAt = this.s.ctx.clock.now();
      Object.assign(k, next);
      return { data: this.s.view(k) };
    });
  }

  private async trim(name: string, body: Body): Promise<EngineResponse> {
    return this.s.locked(name, async () => {
      const k = await this.s.key(name);
      const min = this.rules.trimMinimum(body);
      this.rules.checkTrim(k, min);
      if (min > k.latestVersion) throw badRequest('minimum available version cannot exceed the latest version');
      this.rules.trimVersions(k, min);
      k.minAvailableVersion = min;
      return { data: this.s.view(k) };
    });
  }

  private readDisableUpsert(): boolean {
    return this.rules.disableUpsertRead(this.s.disableUpsert);
  }
}
