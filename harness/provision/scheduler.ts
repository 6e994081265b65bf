/**
 * Scheduler provisioners (setting sched.provisioner): tokens carrying exactly a set of namespace
 * capabilities, and namespaces besides `default`.
 * - `reference`: the reference scheduler's control endpoint (POST /v1/reference/acl/tokens); its
 *   namespaces come into being when a job is registered in them.
 * - `upstream`: the upstream product's ACL and namespace API (/v1/acl/policy/:name,
 *   /v1/acl/token, /v1/namespace/:name) driven with sched.token as management token. This is the
 *   upstream profile's business, not the documents': these paths are not in the spec.
 * - `config`: tokens and namespaces the user created and listed (sched.tokens, sched.namespaces).
 * What a provisioner creates is a test's set-up: a target refusing it (any error status) makes the test not
 * applicable with the target's answer (Provisioning.precondition), never a failure.
 */
import { CheckFailure, type Check } from '../checks/index.js';
import type { Exchange } from '../http/exchange.js';
import type { Provisioner, Provisioning } from './types.js';

export interface SchedGrant {
  namespace: string;
  /** In the target's names (`dialect.names.sched.capabilities`). */
  capabilities: string[];
  /** The same capabilities in the documents' names, when the dialect renames any. */
  documents?: string[];
}

const enc = encodeURIComponent;

/** A 2xx answer: what the scheduler's provisioning APIs give for a created policy, token or namespace. */
function created(what: string): Check {
  return (ex: Exchange) => {
    const status = ex.response.status;
    if (status < 200 || status > 299)
      throw new CheckFailure(
        'provision',
        `could not create ${what}: ${ex.request.method} ${ex.request.path} answered ${status} ${ex.response.text.slice(0, 200)}`,
        '2xx',
        status,
      );
  };
}

function sameSet(a: string[], b: string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

const referenceProvisioner: Provisioner<SchedGrant> = {
  name: 'reference',
  async token(p, grant) {
    if (!p.config.capabilities.schedControl) {
      p.skip(
        "the reference provisioner needs the reference scheduler's control endpoint; set sched.provisioner to upstream or config for another scheduler",
        'sched.provisioner',
      );
    }
    const ex = await p.sched.post('reference/acl/tokens', {
      body: {
        Name: p.unique('acl'),
        Type: 'client',
        Namespaces: { [grant.namespace]: { Capabilities: grant.capabilities } },
      },
      validate: false,
    });
    p.precondition(ex, created('a scheduler token through the reference control'));
    const { SecretID, AccessorID } = ex.response.body as { SecretID: string; AccessorID: string };
    p.secret(SecretID);
    p.track('scheduler token', () => p.sched.delete(`reference/acl/tokens/${enc(AccessorID)}`, { validate: false }));
    return SecretID;
  },
  async namespace(p) {
    // The reference creates a namespace when the first job is registered in it.
    return p.unique('ns');
  },
};

/** HCL of an upstream ACL policy granting `capabilities` in one namespace. */
export function upstreamPolicy(grant: SchedGrant): string {
  return `namespace "${grant.namespace}" {\n  capabilities = [${grant.capabilities.map((c) => `"${c}"`).join(', ')}]\n}\n`;
}

const upstreamProvisioner: Provisioner<SchedGrant> = {
  name: 'upstream',
  async token(p, grant) {
    const policy = p.unique('pol');
    const pol = await p.sched.post(`acl/policy/${enc(policy)}`, {
      body: { Name: policy, Description: 'svc-conformance', Rules: upstreamPolicy(grant) },
      validate: false,
    });
    p.precondition(pol, created(`scheduler ACL policy ${policy}`));
    p.track(`scheduler policy ${policy}`, () => p.sched.delete(`acl/policy/${enc(policy)}`, { validate: false }));
    const tok = await p.sched.post('acl/token', {
      body: { Name: p.unique('acl'), Type: 'client', Policies: [policy] },
      validate: false,
    });
    p.precondition(tok, created('a scheduler token'));
    const { SecretID, AccessorID } = tok.response.body as { SecretID: string; AccessorID: string };
    p.secret(SecretID);
    p.track('scheduler token', () => p.sched.delete(`acl/token/${enc(AccessorID)}`, { validate: false }));
    return SecretID;
  },
  async namespace(p) {
    const name = p.unique('ns');
    const ex = await p.sched.post(`namespace/${enc(name)}`, {
      body: { Name: name, Description: 'svc-conformance' },
      validate: false,
    });
    p.precondition(ex, created(`scheduler namespace ${name}`));
    // Registered before the jobs placed in it, so it is removed after they are purged (newest first).
    p.track(`scheduler namespace ${name}`, () => p.sched.delete(`namespace/${enc(name)}`, { validate: false }));
    return name;
  },
};

const configProvisioner: Provisioner<SchedGrant> = {
  name: 'config',
  async token(p, grant) {
    // A listed token may name its capabilities the target's way or the documents' way.
    const found = p.config.sched.tokens.find(
      (t) =>
        t.namespace === grant.namespace &&
        (sameSet(t.capabilities, grant.capabilities) || sameSet(t.capabilities, grant.documents ?? grant.capabilities)),
    );
    if (!found) {
      return p.skip(
        `no listed scheduler token carries exactly [${grant.capabilities.join(', ')}] in namespace ${grant.namespace}`,
        'sched.tokens',
      );
    }
    p.secret(found.secret);
    return found.secret;
  },
  async namespace(p, index = 0) {
    const name = p.config.sched.namespaces[index];
    if (!name)
      return p.skip(
        `the test needs ${index + 1} namespace(s) besides default and sched.namespaces lists ${p.config.sched.namespaces.length}`,
        'sched.namespaces',
      );
    return name;
  },
};

const PROVISIONERS: Record<string, Provisioner<SchedGrant>> = {
  reference: referenceProvisioner,
  upstream: upstreamProvisioner,
  config: configProvisioner,
};

/** The provisioner the config names (target preparation fills in the default). */
export function schedProvisioner(p: Provisioning): Provisioner<SchedGrant> {
  return PROVISIONERS[p.config.sched.provisioner || 'reference']!;
}

/** Tokens already minted, per test (or suite set-up) and grant. */
const minted = new WeakMap<Provisioning, Map<string, Promise<string>>>();

/**
 * A scheduler token with exactly `capabilities` (the documents' names) in `namespace`: one per grant
 * and test, so a test that checks many endpoints with the same grant asks the provisioner once (and
 * revokes once). It is asked of the provisioner in the target's names: the jobs document's
 * `policy-override` is the upstream scheduler's `sentinel-override` (`dialect.names.sched.capabilities`).
 */
export function schedTokenWith(p: Provisioning, capabilities: string[], namespace = 'default'): Promise<string> {
  let mine = minted.get(p);
  if (!mine) minted.set(p, (mine = new Map()));
  const key = `${namespace}\u0000${[...new Set(capabilities)].sort().join(',')}`;
  let token = mine.get(key);
  if (!token) {
    const names = p.config.dialect.names?.sched?.capabilities ?? {};
    const target = capabilities.map((c) => names[c] ?? c);
    const renamed = target.some((c, i) => c !== capabilities[i]);
    token = schedProvisioner(p).token(p, {
      namespace,
      capabilities: target,
      ...(renamed ? { documents: capabilities } : {}),
    });
    mine.set(key, token);
    // A refused or skipped grant is asked again (and refused again) by the next caller.
    token.catch(() => mine.delete(key));
  }
  return token;
}

/** A namespace besides default (see Provisioner.namespace). */
export function schedNamespace(p: Provisioning, index = 0): Promise<string> {
  return schedProvisioner(p).namespace(p, index);
}

/**
 * The grants the jobs suite asks a provisioner for (all in namespace `default`): with
 * sched.provisioner `config`, list one token for each (see docs/TARGETS.md, "A real scheduler").
 */
export const SCHED_SUITE_GRANTS: SchedGrant[] = [
  ['read-logs'],
  ['list-jobs'],
  ['submit-job'],
  ['parse-job'],
  ['read-job'],
  ['dispatch-job'],
  ['read-job-scaling'],
  ['scale-job'],
  ['submit-job', 'policy-override'],
  ['scale-job', 'policy-override'],
  ['policy-override'],
  ['read-job', 'list-jobs'],
  ['parse-job', 'submit-job'],
  ['alloc-exec'],
  ['alloc-exec', 'alloc-node-exec'],
].map((capabilities) => ({ namespace: 'default', capabilities }));
