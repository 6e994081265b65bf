/**
 * Redaction: secret values never reach a report, a log line or a failure message. Fields are
 * redacted by name (passwords, tokens, client secrets, plaintexts, key material) and every value
 * ever redacted by name is remembered, so the same value is also masked wherever else it shows up
 * (an error message that echoes it, a URL, a header).
 *
 * Only whole values are masked: a JSON string or header value equal to a secret, or an occurrence
 * in free text that stands on its own (not glued to letters, digits, `_`, or to a `-`/`.` joined
 * to them). A short secret such as docs/TARGETS.md's `SVC_TOKEN=root` would otherwise eat parts of
 * requirement ids and titles (`ldap.rotate-root`), which breaks `compare` between runs.
 */
export const REDACTED = '[REDACTED]';

const SECRET_FIELD =
  /^(client_token|token|id_token|auth_token|password|last_password|new_password|current_password|bindpass|client_secret|root_password|secret_id|plaintext|input|context|nonce|key|private_key|backup|secret|secrets?token|discoverytoken|secretstoken|sched_token|x-svc-token|x-sched-token|x-nomad-token|x-vault-token|authorization|cookie|set-cookie|hmac_key|encryption_key|signing_key|ciphertext_key|wrapped_key|derived_key|data_key|client_tls_key|bind_password|rootclientsecret|rootpassword|secret_key|security_token|session_token)$/i;

/** Field names whose value is key material even when nested (export responses). */
const SECRET_PARENT = /^(keys|key_material)$/i;

const MIN_SECRET_LENGTH = 4;
/** Below this length a secret is easy to guess and likely to collide with ordinary words: warn. */
export const SHORT_SECRET_LENGTH = 8;

const WORD_CHAR = /[A-Za-z0-9_]/;
const JOINER = /[-.]/;

/** Whether the text around [start, end) leaves the occurrence standing alone (not inside an identifier). */
function standsAlone(text: string, start: number, end: number): boolean {
  const before = text[start - 1];
  const after = text[end];
  if (
    before !== undefined &&
    (WORD_CHAR.test(before) || (JOINER.test(before) && WORD_CHAR.test(text[start - 2] ?? '')))
  )
    return false;
  if (after !== undefined && (WORD_CHAR.test(after) || (JOINER.test(after) && WORD_CHAR.test(text[end + 1] ?? ''))))
    return false;
  return true;
}

/** Replaces every standalone occurrence of `secret` in `text`. */
function maskStandalone(text: string, secret: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) {
    if (!standsAlone(text, at, at + secret.length)) continue;
    out += text.slice(from, at) + REDACTED;
    from = at + secret.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The default warning goes to stderr once per process: the global setup and the reporter load
 * this module through different loaders (two instances in the same process), so the flag lives
 * on globalThis.
 */
function warnOncePerProcess(message: string): void {
  const g = globalThis as { __svcConformanceShortSecretWarned?: boolean };
  if (g.__svcConformanceShortSecretWarned) return;
  g.__svcConformanceShortSecretWarned = true;
  console.warn(message);
}

/** The safety net for tokens in free text; short words ("Bearer token" in prose) are left alone. */
const BEARER = /(Bearer\s+)[^\s"'\\,}<>]{8,}/gi;

const NONE: readonly string[] = [];
/** Up to this many secrets, comparing each with a text is cheaper than looking them up. */
const FEW_SECRETS = 16;

/**
 * The remembered secrets, indexed so that a text is compared only with the secrets that occur in
 * it. A worker remembers hundreds of secrets and masks tens of thousands of short strings (every
 * transcript field); sorting and scanning every secret for each string was its hottest function.
 */
class Secrets {
  private readonly order = new Map<string, number>();
  /**
   * Secrets by a hash of their first MIN_SECRET_LENGTH characters (every secret is at least that
   * long); a bucket may hold secrets of other prefixes, each is checked where it would start.
   */
  private readonly byPrefix = new Map<number, string[]>();
  /**
   * Secrets that can show up only once another one is masked, across or inside an inserted
   * `[REDACTED]` (they contain a bracket or are part of the word): always compared, as before.
   */
  private readonly afterMasking: string[] = [];

  /**
   * Which pairs of first characters (each character's low byte) some secret starts with: a text
   * position whose pair is absent holds no secret, and most positions of a long text (a large
   * payload's base64) are passed over without computing a hash or looking up a bucket.
   */
  private readonly firstPairs = new Uint8Array(65536);

  /** All secrets in masking order while there are few of them (see `candidates`). */
  private sorted: string[] | undefined;

  has(value: string): boolean {
    return this.order.has(value);
  }

  add(value: string): void {
    if (this.order.has(value)) return;
    this.order.set(value, this.order.size);
    this.sorted = undefined;
    this.firstPairs[pairAt(value, 0)] = 1;
    const key = prefixHash(value, 0);
    const bucket = this.byPrefix.get(key);
    if (bucket) bucket.push(value);
    else this.byPrefix.set(key, [value]);
    if (value.includes('[') || value.includes(']') || REDACTED.includes(value)) this.afterMasking.push(value);
  }

  /**
   * The secrets to compare with `text`, in masking order (longest first; equal lengths in the
   * order they were remembered): every secret occurring in the text, and those that may occur
   * after masking. Any other secret is absent from the text before and after masking.
   */
  candidates(text: string): readonly string[] {
    // A few secrets (the configured ones, in the reporter's process): every one is compared.
    if (this.order.size <= FEW_SECRETS) return (this.sorted ??= this.inMaskingOrder(this.order.keys()));
    let found: Set<string> | undefined = this.afterMasking.length ? new Set(this.afterMasking) : undefined;
    for (let at = 0; at + MIN_SECRET_LENGTH <= text.length; at++) {
      if (this.firstPairs[pairAt(text, at)] === 0) continue;
      const bucket = this.byPrefix.get(prefixHash(text, at));
      if (bucket) for (const v of bucket) if (text.startsWith(v, at)) (found ??= new Set()).add(v);
    }
    if (!found) return NONE;
    return found.size < 2 ? [...found] : this.inMaskingOrder(found);
  }

  private inMaskingOrder(values: Iterable<string>): string[] {
    return [...values].sort((a, b) => b.length - a.length || this.order.get(a)! - this.order.get(b)!);
  }
}

/** The low bytes of the two characters at `at`, as one index. */
function pairAt(text: string, at: number): number {
  return ((text.charCodeAt(at) & 0xff) << 8) | (text.charCodeAt(at + 1) & 0xff);
}

/** A hash of the MIN_SECRET_LENGTH characters at `at` (a number: no string is made per position). */
function prefixHash(text: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + MIN_SECRET_LENGTH; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

export class Redactor {
  private readonly values = new Secrets();
  private warned = false;

  constructor(private readonly warn: (message: string) => void = warnOncePerProcess) {}

  /**
   * Remembers a secret value so it is masked wherever it appears as a whole value. `label` names
   * where it came from (a setting) for the one warning about short secrets; the value is never shown.
   */
  add(value: unknown, label?: string): void {
    // Only configured secrets (labelled) warn: the user can change those; short values the target
    // hands out (a nonce, a context) are masked all the same.
    if (label && typeof value === 'string' && value.length > 0 && value.length < SHORT_SECRET_LENGTH)
      this.warnShort(value.length, label);
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) {
      this.values.add(value);
      // base64 forms of short secrets show up in transit inputs
      if (value.length <= 4096) {
        const b64 = Buffer.from(value).toString('base64');
        if (b64.length >= 8) this.values.add(b64);
      }
    } else if (typeof value === 'number') {
      // numbers are never secret on their own
    } else if (value && typeof value === 'object') {
      for (const v of Object.values(value)) this.add(v, label);
    }
  }

  private warnShort(length: number, label: string | undefined): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(
      `[conformance] redaction: ${label ?? 'a secret value'} is shorter than ${SHORT_SECRET_LENGTH} characters (${length}); it is masked only where it stands as a whole value, never inside ids or titles. Use a longer, random secret.`,
    );
  }

  isSecretField(name: string): boolean {
    return SECRET_FIELD.test(name);
  }

  /** Masks remembered values standing alone in free text. Longest first so overlapping secrets mask fully. */
  text(input: string): string {
    if (this.values.has(input)) return REDACTED;
    let out = input;
    for (const v of this.values.candidates(input)) {
      if (out.includes(v)) out = maskStandalone(out, v);
    }
    return out.replace(BEARER, `$1${REDACTED}`);
  }

  /** A deep copy with secret fields masked and remembered; strings are text-masked. */
  value<T>(input: T, secret = false): T {
    if (typeof input === 'string') {
      if (secret && input !== '') {
        this.add(input);
        return REDACTED as unknown as T;
      }
      return this.text(input) as unknown as T;
    }
    if (Array.isArray(input)) return input.map((v) => this.value(v, secret)) as unknown as T;
    if (input && typeof input === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
        // `keys` is a list of names in LIST answers but a map of key material in exports.
        const material = SECRET_PARENT.test(k) && v !== null && typeof v === 'object' && !Array.isArray(v);
        out[k] =
          material && !secret
            ? this.keyMap(v as Record<string, unknown>)
            : this.value(v, secret || this.isSecretField(k));
      }
      return out as T;
    }
    return input;
  }

  /**
   * Remembers the secrets of `input` that value() would mask by their field, without masking
   * anything: for an answer that is only read for its secrets (the clients remember what the
   * target hands out before the exchange is recorded). Masking every string of a large answer for
   * nothing was a worker's hottest work.
   */
  remember(input: unknown, secret = false): void {
    if (typeof input === 'string') {
      if (secret && input !== '') this.add(input);
      return;
    }
    if (Array.isArray(input)) {
      for (const v of input) this.remember(v, secret);
      return;
    }
    if (!input || typeof input !== 'object') return;
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
      const material = SECRET_PARENT.test(k) && v !== null && typeof v === 'object' && !Array.isArray(v);
      if (material && !secret) {
        // As keyMap: a version's value is key material unless it is an object (a key read's public part).
        for (const version of Object.values(v as Record<string, unknown>))
          this.remember(version, version === null || typeof version !== 'object');
      } else this.remember(v, secret || this.isSecretField(k));
    }
  }

  /**
   * A map of key versions: a version's value is key material when it is the key itself (an export),
   * but a key read maps each version to its public part and creation time, which are not secret
   * and must stay readable (and must not be remembered, or every equal timestamp would be masked).
   */
  private keyMap(map: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [version, v] of Object.entries(map))
      out[version] = v !== null && typeof v === 'object' ? this.value(v) : this.value(v, true);
    return out;
  }

  /** Header maps: token and cookie headers masked by name, the rest text-masked. */
  headers(input: Record<string, unknown>): Record<string, unknown> {
    return this.value(input);
  }
}

/** One redactor per process: tests, clients and the report writer all feed and use it. */
export const redactor = new Redactor();

/** The secrets a target config carries, remembered with the setting each came from. */
export function rememberConfiguredSecrets(cfg: {
  svc: { token: string };
  sched: { token: string };
  ldap?: { bindPass?: string };
  cloud?: { rootClientSecret?: string; readerClientSecret?: string };
}): void {
  redactor.add(cfg.svc.token, 'svc.token (SVC_TOKEN)');
  redactor.add(cfg.sched.token, 'sched.token (SCHED_TOKEN)');
  if (cfg.ldap?.bindPass) redactor.add(cfg.ldap.bindPass, 'ldap.bindPass (LDAP_BIND_PASS)');
  if (cfg.cloud?.rootClientSecret)
    redactor.add(cfg.cloud.rootClientSecret, 'cloud.rootClientSecret (CLOUD_ROOT_CLIENT_SECRET)');
  if (cfg.cloud?.readerClientSecret)
    redactor.add(cfg.cloud.readerClientSecret, 'cloud.readerClientSecret (CLOUD_READER_CLIENT_SECRET)');
}
