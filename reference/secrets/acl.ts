/**
 * ACL policies (`sys/policies/acl/:name`). Semantics follow the real product closely enough for
 * conformance: a trailing `*` is a prefix glob, `+` matches one path segment, the most specific
 * matching rule wins (exact beats glob, longer beats shorter), rules of several policies for the
 * same pattern merge, and `deny` overrides everything.
 */

export type Capability = 'create' | 'read' | 'update' | 'delete' | 'list' | 'sudo' | 'deny' | 'patch';
const CAPABILITIES = new Set<Capability>(['create', 'read', 'update', 'delete', 'list', 'sudo', 'deny', 'patch']);

export interface PathRule {
  pattern: string;
  capabilities: Set<Capability>;
}

export interface Policy {
  name: string;
  source: string;
  rules: PathRule[];
}

/** Parses a policy body written in HCL or JSON. Throws with a readable message. */
export async function parsePolicy(name: string, source: string): Promise<Policy> {
  let doc: unknown;
  const trimmed = source.trim();
  if (trimmed.startsWith('{')) {
    try {
      doc = JSON.parse(trimmed);
    } catch {
      throw new Error('policy is not valid JSON');
    }
  } else {
    try {
      // Loaded on the first policy: importing the parser starts its WebAssembly module (see scheduler/hcl.ts).
      const { parse: hclParse } = await import('@cdktf/hcl2json');
      doc = await hclParse(`${name}.hcl`, source);
    } catch (err) {
      throw new Error(`failed to parse policy: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const pathBlock = (doc as { path?: unknown }).path;
  if (!pathBlock || typeof pathBlock !== 'object') throw new Error('policy has no path blocks');
  const rules: PathRule[] = [];
  for (const [pattern, value] of Object.entries(pathBlock as Record<string, unknown>)) {
    const bodies = Array.isArray(value) ? value : [value];
    const caps = new Set<Capability>();
    for (const body of bodies) {
      const list = (body as { capabilities?: unknown }).capabilities;
      if (!Array.isArray(list)) throw new Error(`path "${pattern}" needs a capabilities list`);
      for (const c of list) {
        if (typeof c !== 'string' || !CAPABILITIES.has(c as Capability))
          throw new Error(`path "${pattern}": unknown capability ${JSON.stringify(c)}`);
        caps.add(c as Capability);
      }
    }
    rules.push({ pattern, capabilities: caps });
  }
  return { name, source, rules };
}

/** Whether a policy path pattern (a trailing `*` glob, `+` segments) matches a path. */
export function segmentsMatch(pattern: string, path: string): boolean {
  const glob = pattern.endsWith('*');
  const body = glob ? pattern.slice(0, -1) : pattern;
  const pSeg = body.split('/');
  const aSeg = path.split('/');
  if (!glob && pSeg.length !== aSeg.length) return false;
  if (glob && aSeg.length < pSeg.length) return false;
  for (let i = 0; i < pSeg.length; i++) {
    const p = pSeg[i]!;
    const a = aSeg[i]!;
    const last = i === pSeg.length - 1;
    if (p === '+') continue;
    if (last && glob) return a.startsWith(p);
    if (p !== a) return false;
  }
  return true;
}

/** Higher is more specific. */
function specificity(pattern: string): number[] {
  const glob = pattern.endsWith('*') ? 0 : 1;
  const plus = -pattern.split('/').filter((s) => s === '+').length;
  return [glob, pattern.length, plus];
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Capabilities granted on `path` by `policies`. Root is handled by the caller. */
export function capabilitiesFor(policies: Policy[], path: string): Set<Capability> {
  let best: number[] | undefined;
  let caps = new Set<Capability>();
  for (const policy of policies) {
    for (const rule of policy.rules) {
      if (!segmentsMatch(rule.pattern, path)) continue;
      const spec = specificity(rule.pattern);
      const cmp = best ? compare(spec, best) : 1;
      if (cmp > 0) {
        best = spec;
        caps = new Set(rule.capabilities);
      } else if (cmp === 0) {
        for (const c of rule.capabilities) caps.add(c);
      }
    }
  }
  if (caps.has('deny')) return new Set();
  return caps;
}

/** Policies every token may carry without a stored body. */
export const DEFAULT_POLICY_SOURCE = `
path "auth/token/lookup-self" { capabilities = ["read"] }
path "auth/token/renew-self" { capabilities = ["update"] }
path "auth/token/revoke-self" { capabilities = ["update"] }
path "sys/leases/renew" { capabilities = ["update"] }
path "sys/leases/lookup" { capabilities = ["update"] }
`;
