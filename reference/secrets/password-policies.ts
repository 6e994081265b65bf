/**
 * Password policies at `sys/policies/password/:name` (the path the real product uses). A policy
 * body is HCL, as in the real product: `length = N` and `rule "charset" { charset = "..." min-chars = N }`
 * blocks.
 */
import { randomInt } from 'node:crypto';

export interface PasswordPolicy {
  length: number;
  rules: { charset: string; minChars: number }[];
  source: string;
}

const DEFAULT_CHARSET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export class PasswordPolicies {
  private readonly policies = new Map<string, PasswordPolicy>();

  set(name: string, policy: PasswordPolicy): void {
    this.policies.set(name, policy);
  }
  get(name: string): PasswordPolicy | undefined {
    return this.policies.get(name);
  }
  delete(name: string): boolean {
    return this.policies.delete(name);
  }
  names(): string[] {
    return [...this.policies.keys()].sort();
  }

  /** Generates a password from a named policy; throws when the policy does not exist. */
  generate(name: string): string {
    const policy = this.policies.get(name);
    if (!policy) throw new Error(`password policy "${name}" does not exist`);
    return generateFromPolicy(policy);
  }
}

export function generateFromPolicy(policy: PasswordPolicy): string {
  const chars: string[] = [];
  for (const rule of policy.rules) {
    for (let i = 0; i < rule.minChars; i++) chars.push(rule.charset[randomInt(rule.charset.length)]!);
  }
  const all = policy.rules.length
    ? [...new Set(policy.rules.map((r) => r.charset).join(''))].join('')
    : DEFAULT_CHARSET;
  while (chars.length < policy.length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** The pre-policy default generator: alphanumerics at the given length (default 64). */
export function defaultPassword(length = 64): string {
  let out = '';
  for (let i = 0; i < length; i++) out += DEFAULT_CHARSET[randomInt(DEFAULT_CHARSET.length)];
  return out;
}

/** Parses a password policy body (HCL, as the real product takes it) with @cdktf/hcl2json. */
export async function parsePasswordPolicy(source: string): Promise<PasswordPolicy> {
  const { parse } = await import('@cdktf/hcl2json');
  let doc: Record<string, unknown>;
  try {
    doc = (await parse('policy.hcl', source)) as Record<string, unknown>;
  } catch (err) {
    // The parser's message quotes the offending text position, never a secret.
    throw new Error(`policy is not valid HCL: ${(err as Error).message.replace(/^parse config: /, '')}`);
  }
  const length = doc.length;
  if (typeof length !== 'number' || !Number.isInteger(length)) throw new Error('password policy needs "length = N"');
  if (length < 4 || length > 100) throw new Error('length must be between 4 and 100');
  const rules: PasswordPolicy['rules'] = [];
  const ruleBlock = doc.rule;
  const charsetRules =
    ruleBlock && typeof ruleBlock === 'object' ? (ruleBlock as Record<string, unknown>).charset : undefined;
  for (const raw of Array.isArray(charsetRules) ? charsetRules : charsetRules ? [charsetRules] : []) {
    const r = raw as Record<string, unknown>;
    if (typeof r.charset !== 'string' || r.charset === '') throw new Error('charset rule needs "charset"');
    const min = r['min-chars'] ?? 0;
    if (typeof min !== 'number' || !Number.isInteger(min) || min < 0)
      throw new Error('min-chars must be a non-negative integer');
    rules.push({ charset: r.charset, minChars: min });
  }
  if (ruleBlock && typeof ruleBlock === 'object' && Object.keys(ruleBlock).some((k) => k !== 'charset')) {
    throw new Error(
      `unknown rule type ${Object.keys(ruleBlock)
        .filter((k) => k !== 'charset')
        .join(', ')}`,
    );
  }
  if (rules.reduce((n, r) => n + r.minChars, 0) > length) throw new Error('min-chars of all rules exceed length');
  return { length, rules, source };
}
