/**
 * Password policies at `sys/policies/password/:name` (the path the real product uses). A policy
 * body is HCL in the real product; the reference accepts the same shape as JSON-in-HCL subset:
 * `length = N` and `rule "charset" { charset = "..." min-chars = N }` blocks.
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
  const all = policy.rules.length ? [...new Set(policy.rules.map((r) => r.charset).join(''))].join('') : DEFAULT_CHARSET;
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

/** Parses the small HCL subset of a password policy body. */
export function parsePasswordPolicy(source: string): PasswordPolicy {
  const lengthMatch = /(^|\n)\s*length\s*=\s*(\d+)/.exec(source);
  if (!lengthMatch) throw new Error('password policy needs "length = N"');
  const rules: PasswordPolicy['rules'] = [];
  const ruleRe = /rule\s+"charset"\s*\{([^}]*)\}/g;
  for (let m = ruleRe.exec(source); m; m = ruleRe.exec(source)) {
    const body = m[1]!;
    const charset = /charset\s*=\s*"([^"]*)"/.exec(body)?.[1];
    const min = /min-chars\s*=\s*(\d+)/.exec(body)?.[1];
    if (!charset) throw new Error('charset rule needs "charset"');
    rules.push({ charset, minChars: min ? Number(min) : 0 });
  }
  const length = Number(lengthMatch[2]);
  if (length < 4 || length > 100) throw new Error('length must be between 4 and 100');
  return { length, rules, source };
}
