/**
 * Redaction: secret values never reach a report, a log line or a failure message. Fields are
 * redacted by name (passwords, tokens, client secrets, plaintexts, key material) and every value
 * ever redacted by name is remembered, so the same value is also masked wherever else it shows up
 * (an error message that echoes it, a URL, a header).
 */
export const REDACTED = '[REDACTED]';

const SECRET_FIELD = /^(client_token|token|id_token|auth_token|password|last_password|new_password|current_password|bindpass|client_secret|root_password|secret_id|plaintext|input|context|nonce|key|private_key|backup|secret|secrets?token|discoverytoken|secretstoken|sched_token|x-svc-token|x-sched-token|x-nomad-token|x-vault-token|authorization|cookie|set-cookie|hmac_key|encryption_key|signing_key|ciphertext_key|wrapped_key|derived_key|data_key|client_tls_key|bind_password|rootclientsecret|rootpassword|secret_key|security_token|session_token)$/i;

/** Field names whose value is key material even when nested (export responses). */
const SECRET_PARENT = /^(keys|key_material)$/i;

const MIN_SECRET_LENGTH = 4;

export class Redactor {
  private readonly values = new Set<string>();

  /** Remembers a secret value so it is masked wherever it appears. */
  add(value: unknown): void {
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
      for (const v of Object.values(value)) this.add(v);
    }
  }

  isSecretField(name: string): boolean {
    return SECRET_FIELD.test(name);
  }

  /** Masks remembered values inside free text. Longest first so overlapping secrets mask fully. */
  text(input: string): string {
    let out = input;
    for (const v of [...this.values].sort((a, b) => b.length - a.length)) {
      if (out.includes(v)) out = out.split(v).join(REDACTED);
    }
    // A safety net for tokens in free text; short words ("Bearer token" in prose) are left alone.
    out = out.replace(/(Bearer\s+)[^\s"'\\,}<>]{8,}/gi, `$1${REDACTED}`);
    return out;
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
        out[k] = this.value(v, secret || this.isSecretField(k) || material);
      }
      return out as T;
    }
    return input;
  }

  /** Header maps: token and cookie headers masked by name, the rest text-masked. */
  headers(input: Record<string, unknown>): Record<string, unknown> {
    return this.value(input);
  }
}

/** One redactor per process: tests, clients and the report writer all feed and use it. */
export const redactor = new Redactor();
