/**
 * What every part of the transit engine shares: the named keys and the lock of each name, the
 * engine's settings (config/keys, cache-config), the documents' rules with this reference's
 * switches applied (switches/), and the steps several endpoints take: find a key (rotating it when
 * due), create one (the create endpoint and encrypt's upsert), add a version, read it.
 */
import { rulesWith } from '../../../switches.js';
import type { EngineContext, EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest } from '../../errors.js';
import { generateMaterial, type NamedKey } from './keys.js';
import type { OpContext } from './outputs.js';
import { bool, int, str, type Body } from './params.js';
import { documentedRules, type TransitRules } from './rules.js';
import { transitSwitches } from './switches/index.js';
import { KEY_TYPES } from './types.js';

/** The answer of one endpoint, or nothing when the path and method name no endpoint. */
export type Answer = EngineResponse | undefined;

/** One request as the engine's parts see it. */
export interface Call {
  req: EngineRequest;
  /** The path's segments (relative to the mount). */
  seg: string[];
  body: Body;
  /** POST or PUT (the engine treats them alike). */
  post: boolean;
}

/** One endpoint: its answer to a call, or nothing when the call names no endpoint after all. */
export type Endpoint = (call: Call) => Answer | Promise<Answer>;

/** The endpoints of a part: by the path's first segment, or `keys/<action>` under keys/:name. */
export type Routes = [string, Endpoint][];

export class Shared {
  readonly keys = new Map<string, NamedKey>();
  private readonly locks = new Map<string, Promise<unknown>>();
  /** config/keys: disable_upsert. */
  disableUpsert = false;
  /** cache-config: size. */
  cacheSize: number;
  /** The documents' rules, with this reference's switches applied (switches/). */
  readonly rules: TransitRules;
  /** What the per-item operations (ops.ts) need. */
  readonly op: OpContext;

  constructor(readonly ctx: EngineContext) {
    const prefix = typeof ctx.settings.transitOutputPrefix === 'string' ? ctx.settings.transitOutputPrefix : 'svc';
    this.rules = rulesWith(documentedRules, ctx, transitSwitches);
    this.op = { prefix, rules: this.rules };
    this.cacheSize = this.rules.cacheDefaultSize;
  }

  /** Serialises mutations of one key name (creation awaits generation, which yields). */
  async locked<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(name) ?? Promise.resolve();
    const run = prev.catch(() => undefined).then(fn);
    this.locks.set(name, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(name) === run) this.locks.delete(name);
    }
  }

  async key(name: string): Promise<NamedKey> {
    const k = this.rules.keyInUse(name, this.keys.get(name)) ?? this.rules.cachedKey(name);
    if (!k) throw this.rules.missingKey(name);
    await this.autoRotate(k);
    return k;
  }

  /** Rotation is due once auto_rotate_period has elapsed since the last rotation (reference clock). */
  async autoRotate(k: NamedKey): Promise<void> {
    if (!this.rules.autoRotates(k)) return;
    if (this.ctx.clock.now() - k.lastRotatedAt < k.autoRotatePeriod * 1000) return;
    await this.locked(k.name, async () => {
      if (this.ctx.clock.now() - k.lastRotatedAt >= k.autoRotatePeriod * 1000) await this.rotate(k);
    });
  }

  /** The key read (Named key). */
  view(k: NamedKey): Record<string, unknown> {
    return this.rules.keyRead(k);
  }

  /** A new key of `type` as the create endpoint (or the import, `origin`) reads its body. */
  newKey(name: string, type: string, body: Body, origin: 'create' | 'import' = 'create'): NamedKey {
    const derived = origin === 'import' ? this.rules.importDerived(bool(body, 'derived')) : bool(body, 'derived');
    bool(body, 'convergent_encryption');
    const convergent = this.rules.convergentRequested(body, derived);
    this.rules.checkConvergent(convergent, derived);
    const info = KEY_TYPES[type]!;
    if (convergent && info.kind !== 'aead') throw badRequest('convergent encryption not supported for this key type');
    if (derived && !this.rules.derivationSupported(type))
      throw badRequest('key derivation not supported for this key type');
    const requestedPeriod = this.rules.autoRotatePeriodOf(body);
    if (origin === 'import') this.rules.checkImportAutoRotatePeriod(requestedPeriod);
    else this.rules.checkAutoRotatePeriod(requestedPeriod);
    const autoRotatePeriod = this.rules.createAutoRotatePeriod(requestedPeriod);
    return {
      name,
      type,
      derived,
      convergent,
      exportable: bool(body, 'exportable'),
      allowPlaintextBackup: bool(body, 'allow_plaintext_backup'),
      deletionAllowed: false,
      minDecryptionVersion: 1,
      minEncryptionVersion: 0,
      minAvailableVersion: 0,
      latestVersion: 0,
      autoRotatePeriod,
      lastRotatedAt: this.ctx.clock.now(),
      imported: false,
      allowRotation: false,
      rotatedInService: false,
      keySize: 0,
      versions: new Map(),
    };
  }

  keyType(body: Body, field = 'type'): string {
    const type = str(body, field) || this.rules.defaultKeyType;
    const info = KEY_TYPES[type];
    if (!info || !this.rules.typeSupported(type))
      throw badRequest(`unknown key type ${JSON.stringify(type.slice(0, 40))}`);
    if (info.kind === 'managed')
      throw badRequest('managed keys are not supported by this service (enterprise capability)');
    return this.rules.typeCreated(type);
  }

  async create(name: string, body: Body): Promise<EngineResponse> {
    return this.locked(name, async () => {
      // The type is checked first: an unknown type is refused even when the key already exists.
      const type = this.keyType(body);
      const existing = this.keys.get(name);
      if (existing && !this.rules.recreateExisting(existing, body)) return { data: this.view(existing) };
      const k = this.newKey(name, type, body);
      const keySize = int(body, 'key_size', 0);
      if (type === 'hmac') {
        this.rules.checkHmacKeySize(keySize);
        k.keySize = keySize || this.rules.hmacDefaultKeySize;
      } else {
        this.rules.checkKeySizeType(type, keySize);
        k.keySize = keySize;
      }
      await this.rotate(k);
      k.rotatedInService = false;
      this.keys.set(name, k);
      return { data: this.view(k) };
    });
  }

  /** Adds a freshly generated version (creation and rotation). */
  async rotate(k: NamedKey): Promise<void> {
    const material = await generateMaterial(
      this.rules.materialType(k.type, k.latestVersion),
      this.rules.newVersionBytes(k),
    );
    const hmacKey = this.rules.newHmacKey(k.versions.get(k.latestVersion), material);
    const version = k.latestVersion + 1;
    k.versions.set(version, { version, createdAt: this.ctx.clock.now(), hmacKey, ...material });
    k.latestVersion = version;
    k.lastRotatedAt = this.ctx.clock.now();
    if (version > 1) k.rotatedInService = true;
  }
}
