// size: one fixture family per spec document; each needs the others' helpers (mounts, keys, jobs) in the same order
/**
 * The minimum state each family of operations needs before it can be fed generated requests: a
 * run-unique mount, a key, a secret, a job. Each spec document is one family; its fixtures carry
 * the run prefix and are removed after the suite. Where an operation cannot be exercised safely
 * the family says why (`skip`), and the report lists it.
 *
 * Path parameters are named here by their spec name (per family, overridable per operation);
 * everything else about the requests comes from the spec.
 */
import { randomBytes } from 'node:crypto';
import type { SuiteContext } from '../../harness/index.js';
import { redactor } from '../../harness/index.js';
import type { Exchange } from '../../harness/index.js';
import { hcl, jobDefinition } from '../../fixtures/jobs/index.js';
import { mountAliases } from '../../harness/index.js';

export interface OpTweak {
  /** Path parameters of this operation only. */
  params?: Record<string, string>;
  /** The base body (a valid request); otherwise the spec's documented sample. */
  body?: unknown;
  /** Top-level properties left at their base value by boundary cases (they name real resources). */
  pin?: string[];
  /** Boundary cases leave every property at its base value (the operation moves shared state). */
  noBoundaryProperties?: boolean;
  /** Real mount used for the operation's first segment instead of the family's. */
  mount?: string;
}

export interface Family {
  /** Default mount of the spec (`secret`, `transit`, `auth/userpass`) to the run's real mount. */
  mounts: Record<string, string>;
  params: Record<string, string>;
  ops: Record<string, OpTweak>;
  /** Operations that cannot be exercised safely on this target, with the reason and the setting. */
  skip: Record<string, { reason: string; setting?: string }>;
  /** Removes what a successful request created (tokens, identity groups). */
  afterSend?: (operationId: string, ex: Exchange) => Promise<void>;
}

type Setup = (s: SuiteContext) => Promise<Family>;

const b64 = (s: string) => Buffer.from(s).toString('base64');

function ok(ex: Exchange, what: string): Exchange {
  if (ex.response.status >= 300)
    throw new Error(
      `robustness fixture: ${what} answered ${ex.response.status}: ${redactor.text(ex.response.text).slice(0, 200)}`,
    );
  return ex;
}

/** A run-unique mount; `alias` is the documents' default mount it stands for (spec and names). */
async function mount(
  s: SuiteContext,
  base: string,
  type: string,
  alias: string | undefined,
  options: Record<string, string> = {},
  path = 'sys/mounts',
): Promise<string> {
  const name = s.unique(base);
  if (alias) mountAliases.set(path === 'sys/auth' ? `auth/${name}` : name, alias);
  ok(await s.svc.post(`${path}/${name}`, { validate: false, body: { type, options } }), `mounting ${type}`);
  s.track(`mount ${name}`, () => s.svc.delete(`${path}/${name}`, { validate: false }));
  return name;
}

function needsMounts(s: SuiteContext, file: string): void {
  if (!s.config.capabilities.mounts)
    throw new Unavailable(
      `the ${file} operations need run-unique mounts and the token may not mount engines`,
      'capabilities.mounts',
    );
}

/** A family that cannot be set up on this target: its operations are skipped with the reason. */
export class Unavailable extends Error {
  constructor(
    readonly reason: string,
    readonly setting?: string,
  ) {
    super(reason);
  }
}

const kv: Setup = async (s) => {
  needsMounts(s, 'kv');
  const v2 = await mount(s, 'rbkv', 'kv', 'secret', { version: '2' });
  const v1 = await mount(s, 'rbkv1', 'kv', 'secret', { version: '1' });
  const key = s.unique('rb-key');
  ok(await s.svc.post(`${v2}/data/${key}`, { validate: false, body: { data: { a: '1' } } }), 'kv v2 write');
  ok(await s.svc.post(`${v2}/data/${key}`, { validate: false, body: { data: { a: '2' } } }), 'kv v2 write');
  ok(await s.svc.post(`${v1}/${key}`, { validate: false, body: { a: '1' } }), 'kv v1 write');
  const v1ops = ['kv1ListRoot', 'kv1ReadOrList', 'kv1WriteWithPut', 'kv1Write', 'kv1Delete'];
  const versions = { versions: [1] };
  return {
    mounts: { secret: v2 },
    params: { path: key },
    ops: {
      ...Object.fromEntries(v1ops.map((id) => [id, { mount: v1 }])),
      kv1Write: { mount: v1, body: { a: 'x' } },
      kv1WriteWithPut: { mount: v1, body: { a: 'x' } },
      kv2Write: { body: { data: { a: 'x' } } },
      kv2WriteWithPut: { body: { data: { a: 'x' } } },
      ...Object.fromEntries(
        [
          'kv2DeleteVersions',
          'kv2DeleteVersionsWithPut',
          'kv2UndeleteVersions',
          'kv2UndeleteVersionsWithPut',
          'kv2DestroyVersions',
          'kv2DestroyVersionsWithPut',
        ].map((id) => [id, { body: versions }]),
      ),
    },
    skip: {},
  };
};

const transit: Setup = async (s) => {
  needsMounts(s, 'transit');
  const m = await mount(s, 'rbtransit', 'transit', 'transit');
  const key = s.unique('rb-key');
  const signing = s.unique('rb-sign');
  const rsa = s.unique('rb-rsa');
  ok(
    await s.svc.post(`${m}/keys/${key}`, { validate: false, body: { type: 'aes256-gcm96', exportable: true } }),
    'transit key',
  );
  ok(await s.svc.post(`${m}/keys/${signing}`, { validate: false, body: { type: 'ed25519' } }), 'transit signing key');
  ok(await s.svc.post(`${m}/keys/${rsa}`, { validate: false, body: { type: 'rsa-2048' } }), 'transit rsa key');
  // The wrapping key is generated on first use (RSA-4096, seconds on a busy machine): once here,
  // with a long timeout, so the generated reads measure answers, not key generation.
  ok(await s.svc.get(`${m}/wrapping_key`, { validate: false, timeoutMs: 120_000 }), 'transit wrapping key');
  const input = b64('robustness');
  const enc = ok(
    await s.svc.post(`${m}/encrypt/${key}`, { validate: false, body: { plaintext: input } }),
    'transit encrypt',
  );
  const ciphertext = (enc.response.body as { data: { ciphertext: string } }).data.ciphertext;
  const sig = ok(await s.svc.post(`${m}/sign/${signing}`, { validate: false, body: { input } }), 'transit sign');
  const signature = (sig.response.body as { data: { signature: string } }).data.signature;
  const sign = { params: { name: signing }, body: { input } };
  const verify = { params: { name: signing }, body: { input, signature } };
  return {
    mounts: { transit: m },
    params: {
      name: key,
      type: 'plaintext',
      key_type: 'encryption-key',
      version: '1',
      algorithm: 'sha2-256',
      hash_algorithm: 'sha2-256',
      url_mac_length: '16',
      source_or_bytes: '32',
      source: 'platform',
      bytes: '32',
    },
    ops: {
      transitEncrypt: { body: { plaintext: input } },
      transitDecrypt: { body: { ciphertext } },
      transitRewrap: { body: { ciphertext } },
      transitHmac: { body: { input } },
      transitHmacAlgorithm: { body: { input } },
      transitHash: { body: { input } },
      transitHashAlgorithm: { body: { input } },
      transitSign: sign,
      transitSignAlgorithm: sign,
      transitVerify: verify,
      transitVerifyAlgorithm: verify,
      transitCreateCsr: { params: { name: rsa } },
      transitSetCertificate: { params: { name: rsa } },
      transitByokExport: { params: { destination: rsa, source: key } },
      transitByokExportVersion: { params: { destination: rsa, source: key } },
    },
    skip: {},
  };
};

const ldap: Setup = async (s) => {
  needsMounts(s, 'ldap');
  const m = await mount(s, 'rbldap', 'ldap', 'ldap');
  // An unreachable directory: rotate-root and the credential operations fail (documented 5xx)
  // instead of changing a password some other suite binds with.
  const bindpass = randomBytes(12).toString('hex');
  redactor.add(bindpass);
  ok(
    await s.svc.post(`${m}/config`, {
      validate: false,
      body: {
        binddn: 'cn=robustness,dc=example,dc=org',
        bindpass,
        url: 'ldap://127.0.0.1:1',
        userdn: 'ou=users,dc=example,dc=org',
      },
    }),
    'ldap config',
  );
  const policy = s.unique('rb-pwpol');
  s.track(`password policy ${policy}`, () => s.svc.delete(`sys/policies/password/${policy}`, { validate: false }));
  return {
    mounts: { ldap: m },
    params: { role_name: s.unique('rb-role'), set_name: s.unique('rb-set'), name: policy },
    ops: {
      sysPasswordPolicyWrite: {
        body: { policy: 'length = 20\nrule "charset" {\n  charset = "abcdefghijklmnopqrstuvwxyz"\n}\n' },
      },
      sysPasswordPolicyWritePut: {
        body: { policy: 'length = 20\nrule "charset" {\n  charset = "abcdefghijklmnopqrstuvwxyz"\n}\n' },
      },
    },
    skip: {},
  };
};

const cloud: Setup = async (s) => {
  needsMounts(s, 'cloud');
  const m = await mount(s, 'rbcloud', 'cloud', 'cloud');
  // Credentials nobody issued: rotate-root and credential issuing fail (documented 5xx) instead of
  // rotating the root secret the cloud suite logs in with.
  const secret = randomBytes(12).toString('hex');
  redactor.add(secret);
  ok(
    await s.svc.post(`${m}/config`, {
      validate: false,
      body: {
        subscription_id: '00000000-0000-0000-0000-000000000000',
        tenant_id: '00000000-0000-0000-0000-000000000001',
        client_id: 'robustness',
        client_secret: secret,
      },
    }),
    'cloud config',
  );
  return { mounts: { cloud: m }, params: { name: s.unique('rb-role') }, ops: {}, skip: {} };
};

const core: Setup = async (s) => {
  const name = s.unique('rb-sys');
  s.track(`mount ${name}`, () => s.svc.delete(`sys/mounts/${name}`, { validate: false }));
  s.track(`auth method ${name}`, () => s.svc.delete(`sys/auth/${name}`, { validate: false }));
  s.track(`policy ${name}`, () => s.svc.delete(`sys/policies/acl/${name}`, { validate: false }));
  const skip: Family['skip'] = {};
  if (!s.config.capabilities.namespaces) {
    for (const id of [
      'listNamespaces',
      'readNamespace',
      'createNamespace',
      'createNamespaceWithPut',
      'deleteNamespace',
    ])
      skip[id] = { reason: 'the target has no namespaces', setting: 'capabilities.namespaces' };
  } else {
    s.track(`namespace ${name}`, () => s.svc.delete(`sys/namespaces/${name}`, { validate: false }));
  }
  // CORS is a setting every client of the service sees: a generated write would change it under
  // the files running beside this suite (only files holding the secrets domain alone may).
  for (const id of ['writeCorsConfig', 'deleteCorsConfig'])
    skip[id] = {
      reason: 'changes a setting every client of the service sees (CORS); exercised by suites/core/cors.test.ts',
    };
  if (!s.config.capabilities.clock || !s.config.capabilities.referenceControl) {
    for (const id of ['readReferenceClock', 'advanceReferenceClock'])
      skip[id] = {
        reason: "the reference's controllable clock is not available on this target",
        setting: 'capabilities.clock',
      };
  }
  const policy = 'path "robustness/*" {\n  capabilities = ["read"]\n}\n';
  return {
    mounts: {},
    params: { path: name, name },
    ops: {
      enableSecretsEngine: { body: { type: 'kv' } },
      enableSecretsEngineWithPut: { body: { type: 'kv' } },
      enableAuthMethod: { body: { type: 'userpass' } },
      enableAuthMethodWithPut: { body: { type: 'userpass' } },
      writeAclPolicy: { body: { policy } },
      writeAclPolicyWithPut: { body: { policy } },
      // The clock is shared by every file of the run: only a zero move is sent as a valid request;
      // invalid moves (negative, past the largest date, wrong type) are all sent.
      advanceReferenceClock: { noBoundaryProperties: true, body: { advance: 0 } },
    },
    skip,
  };
};

const auth: Setup = async (s) => {
  needsMounts(s, 'auth');
  const m = await mount(s, 'rbuserpass', 'userpass', 'auth/userpass', {}, 'sys/auth');
  const user = s.unique('rb-user');
  const password = randomBytes(12).toString('hex');
  redactor.add(password);
  ok(await s.svc.post(`auth/${m}/users/${user}`, { validate: false, body: { password } }), 'userpass user');
  const auths = ok(await s.svc.get('sys/auth', { validate: false }), 'sys/auth');
  const listing = auths.response.body as Record<string, { accessor?: string }> & {
    data?: Record<string, { accessor?: string }>;
  };
  const accessor = (listing.data ?? listing)[`${m}/`]?.accessor ?? 'robustness';
  return {
    mounts: { 'auth/userpass': `auth/${m}` },
    params: { username: user, mount_accessor: accessor, alias_identifier: user },
    ops: {},
    skip: {},
    afterSend: revokeIssuedToken(s),
  };
};

/** A token the generator made a service issue (valid token-create requests) is revoked at once. */
function revokeIssuedToken(s: SuiteContext) {
  return async (_id: string, ex: Exchange): Promise<void> => {
    const token = (ex.response.body as { auth?: { client_token?: unknown } } | undefined)?.auth?.client_token;
    if (ex.response.status < 300 && typeof token === 'string' && token) {
      redactor.add(token);
      await s.svc.post('auth/token/revoke', { validate: false, body: { token } });
    }
  };
}

const release: Setup = async (s) => {
  const skip: Family['skip'] = {};
  const mounts: Record<string, string> = {};
  const aws = s.config.mounts.aws?.replace(/\/+$/, '');
  if (aws) mounts.aws = aws;
  else if (s.config.embedded && s.config.capabilities.mounts) mounts.aws = await mount(s, 'rbaws', 'aws', 'aws');
  else
    for (const id of ['readAwsRole', 'writeAwsRole', 'deleteAwsRole', 'generateAwsStsCredentials'])
      skip[id] = { reason: "needs a mount of the cloud provider's secrets engine", setting: 'mounts.aws' };
  let from: string | undefined;
  if (s.config.capabilities.mounts) {
    from = await mount(s, 'rbremount', 'kv', undefined);
    s.track(`mount ${from}-moved`, () => s.svc.delete(`sys/mounts/${from}-moved`, { validate: false }));
  } else skip.remountSecretsEngine = { reason: 'needs a run-unique mount to move', setting: 'capabilities.mounts' };
  const revoke = revokeIssuedToken(s);
  return {
    mounts,
    params: { name: s.unique('rb-role'), id: s.unique('rb-none') },
    ops: {
      // Both ends name run-unique mounts: a generated name could move a mount someone uses.
      remountSecretsEngine: { body: { from, to: `${from}-moved` }, pin: ['from', 'to'] },
      readPluginCatalogEntry: { params: { type: 'auth', name: 'app-id' } },
    },
    skip,
    async afterSend(id, ex) {
      await revoke(id, ex);
      const group = (ex.response.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (id === 'createIdentityGroup' && ex.response.status < 300 && typeof group === 'string')
        await s.svc.delete(`identity/group/id/${group}`, { validate: false });
      if (id === 'remountSecretsEngine' && ex.response.status < 300 && from) {
        // Moved: move it back so the next case finds it (the move may finish asynchronously).
        await s.svc.post('sys/remount', { validate: false, body: { from: `${from}-moved`, to: from } });
      }
    },
  };
};

const jobs: Setup = async (s) => {
  const purge = (id: string) =>
    s.track(`job ${id}`, () =>
      s.sched.delete(`job/${encodeURIComponent(id)}`, { validate: false, query: { purge: true } }),
    );
  const register = async (definition: string, base: string) => {
    const id = s.unique(base);
    purge(id);
    const job = jobDefinition(definition, id);
    ok(await s.sched.post('jobs', { validate: false, body: { Job: job } }), `registering job ${definition}`);
    return { id, job };
  };
  const service = await register('service', 'rb-job');
  const parameterized = await register('parameterized', 'rb-param');
  const periodic = await register('periodic', 'rb-periodic');
  const group = String((service.job.TaskGroups as { Name: string }[])[0]!.Name);
  const dispatch = { params: { job_id: parameterized.id } };
  return {
    mounts: {},
    params: { job_id: service.id, tag_name: 'rb-tag' },
    ops: {
      createJob: { body: { Job: service.job } },
      updateJob: { body: { Job: service.job } },
      planJob: { body: { Job: service.job } },
      parseJob: { body: { JobHCL: hcl('example.hcl') } },
      scaleTaskGroup: { body: { Count: 1, Target: { Group: group }, Message: 'robustness' } },
      revertJob: { body: { JobID: service.id, JobVersion: 0 } },
      setJobStability: { body: { JobID: service.id, JobVersion: 0, Stable: true } },
      createJobEvaluation: { body: { JobID: service.id } },
      dispatchJob: dispatch,
      dispatchJobRawPayload: dispatch,
      forcePeriodicInstance: { params: { job_id: periodic.id } },
    },
    skip: {},
  };
};

/** The family of each spec document (its path under spec/). */
export const FAMILIES: Record<string, Setup> = {
  'kv/openapi.yaml': kv,
  'transit/openapi.yaml': transit,
  'ldap/openapi.yaml': ldap,
  'cloud/openapi.yaml': cloud,
  'core/openapi.yaml': core,
  'auth/openapi.yaml': auth,
  'release/openapi.yaml': release,
  'jobs/openapi.yaml': jobs,
};
