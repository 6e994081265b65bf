// size: one schema, one described property per setting (docs/CONFIGURATION.md is generated from it).
/**
 * JSON schema of the target configuration: what ajv checks (a violation names the setting and
 * where it came from) and the source of docs/CONFIGURATION.md (`npm run docs:config`). Every
 * property has a `description`; annotations the validator ignores (ajv strict mode off) say what
 * else sets it: `x-env` (environment variable), `x-cli` (command-line flag). `readOnly` marks what
 * the harness fills in itself (a file may not need to set it).
 */
import { cloudConfigSchema } from './cloud.js';
import { namesSchema } from './names-schema.js';
import { d } from './schema-describe.js';

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const posInt = { type: 'integer', minimum: 1 } as const;
const nonNegInt = { type: 'integer', minimum: 0 } as const;
const httpUrl = { type: 'string', pattern: '^https?://[^\\s/]+(/.*)?$' } as const;
const headerName = { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" } as const;
/** A scheduler task: `{Driver, Config}`. */
const task = (what: string) =>
  d(what, {
    type: 'object',
    additionalProperties: false,
    required: ['Driver', 'Config'],
    properties: {
      Driver: d('the task driver', { type: 'string', minLength: 1 }),
      Config: d("the driver's task config", { type: 'object' }),
    },
  });

const CAPABILITIES: Record<string, string> = {
  namespaces: 'the target has namespaces (an enterprise feature); probed on an external target',
  enterprise:
    'the target has the enterprise features (the embedded reference sets it; no test asks for it on its own today)',
  cmac: 'the transit engine offers CMAC keys and the cmac endpoint',
  managedKeys: 'the transit engine offers managed keys (no test asks for it today)',
  sealRandom: 'the transit engine offers random bytes from the seal (`transit/random/seal`)',
  clock:
    "the target exposes the reference's controllable clock (sys/reference/clock), so time-dependent rules move it instead of sleeping; probed",
  mounts:
    'the token may mount engines (sys/mounts), so the run uses run-unique mounts; false: set `mounts.<engine>` for every suite',
  requireRequestHeader:
    'the listener enforces require_request_header (the request header of `dialect.requestHeader`); probed',
  referenceControl: 'the target is the reference: its control endpoints (sys/reference/*) answer; probed',
  schedAcl: 'the scheduler has ACLs enabled; probed',
  schedControl:
    'the scheduler is the reference: its control endpoints (clock, tokens, the knob that holds a deployment active) answer; probed',
};

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'runId',
    'prefix',
    'svc',
    'sched',
    'capabilities',
    'dialect',
    'timeouts',
    'timing',
    'limits',
    'lockout',
    'assumptions',
    'mounts',
    'robustness',
    'reference',
    'run',
  ],
  properties: {
    runId: d(
      'run-unique id, chosen at random for every run; it names the run in reports',
      { type: 'string', pattern: '^[a-z0-9]{4,12}$' },
      { readOnly: true },
    ),
    prefix: d(
      'prefix of every resource name the run creates (`cf-<runId>`): what the cleanup and the sweep after the run look for',
      { type: 'string', pattern: '^[a-z][a-z0-9-]{1,30}$' },
      { readOnly: true },
    ),
    embedded: d('true when the harness started the embedded reference for the secrets service', bool, {
      readOnly: true,
    }),
    schedEmbedded: d('true when the harness started the embedded reference for the scheduler', bool, {
      readOnly: true,
    }),
    svc: d('The secrets service under test.', {
      type: 'object',
      additionalProperties: false,
      required: ['addr', 'token', 'namespace', 'skipVerify', 'version'],
      properties: {
        addr: d(
          'address of the secrets service (`https://host:8200`); empty: the harness starts the embedded reference',
          { anyOf: [httpUrl, { const: '' }] },
          { env: 'SVC_ADDR' },
        ),
        token: d('the token the run uses (needs rights to mount engines and write policies)', str, {
          env: 'SVC_TOKEN',
        }),
        namespace: d(
          'namespace every request is sent in (the namespace header); empty: the root namespace',
          { type: 'string', pattern: '^([A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*)?/?$' },
          { env: 'SVC_NAMESPACE' },
        ),
        cacert: d("PEM file of the CA that signed the target's TLS certificate", str, { env: 'SVC_CACERT' }),
        skipVerify: d("do not verify the target's TLS certificate", bool, { env: 'SVC_SKIP_VERIFY' }),
        version: d(
          "the target's version (semver), which gates the release notes' known issues; empty: asked through `dialect.versionProbe`, else version-gated tests are not applicable",
          { anyOf: [{ type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+([-+].*)?$' }, { const: '' }] },
          { env: 'SVC_VERSION' },
        ),
        versionSource: d(
          'where the version came from (config file, environment, probe, embedded reference), for the report',
          str,
          { readOnly: true },
        ),
      },
    }),
    sched: d('The job scheduler under test (see docs/TARGETS.md, "A real scheduler").', {
      type: 'object',
      additionalProperties: false,
      required: ['addr', 'token', 'provisioner', 'tokens', 'namespaces', 'runningTask', 'failingTask', 'actionTasks'],
      properties: {
        addr: d(
          'address of the scheduler; empty: the embedded reference serves it',
          { anyOf: [httpUrl, { const: '' }] },
          { env: 'SCHED_ADDR' },
        ),
        token: d('scheduler token (management rights for the ACL tests)', str, { env: 'SCHED_TOKEN' }),
        provisioner: d(
          "where scheduler tokens with chosen capabilities and extra namespaces come from: `reference` (its control endpoint), `upstream` (the upstream product's ACL and namespace API, driven with `sched.token`), `config` (`sched.tokens` and `sched.namespaces`); empty: `config` when those list something, else `reference`",
          { enum: ['', 'reference', 'upstream', 'config'] },
          { env: 'SCHED_PROVISIONER' },
        ),
        tokens: d(
          'for the `config` provisioner: existing tokens, one per grant the suite asks for (`SCHED_SUITE_GRANTS` in harness/provision/scheduler.ts); a grant without a listed token skips its test naming this setting',
          {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['secret', 'namespace', 'capabilities'],
              properties: {
                secret: d('the token', { type: 'string', minLength: 1 }),
                namespace: d('the namespace its capabilities apply in', { type: 'string', minLength: 1 }),
                capabilities: d('the namespace capabilities it carries', { type: 'array', items: str }),
              },
            },
          },
        ),
        namespaces: d('for the `config` provisioner: existing namespaces besides `default`', {
          type: 'array',
          items: { type: 'string', pattern: '^[a-zA-Z0-9-]{1,128}$' },
        }),
        runningTask: task(
          '`{Driver, Config}` of the tasks that must keep running (service jobs); the default, `raw_exec` running `/bin/sleep 3600`, is what a dev agent offers without a container engine',
        ),
        failingTask: task(
          '`{Driver, Config}` of a task that exits with a failure at once (a failed allocation for the evaluate `ForceReschedule` test); the default is `raw_exec` running `/bin/false`',
        ),
        actionTasks: d(
          '`{isolated, unisolated}`: `{Driver, Config}` of a task whose driver has file system isolation and of one whose driver lacks it, for the action stream\'s ACL ("alloc-exec (and alloc-node-exec when the task driver lacks file system isolation)"); the defaults are the upstream scheduler\'s `exec` and `raw_exec`. A target whose client does not run one of them leaves its test not applicable',
          {
            type: 'object',
            additionalProperties: false,
            required: ['isolated', 'unisolated'],
            properties: Object.fromEntries(
              ['isolated', 'unisolated'].map((k) => [k, task(`the task of the ${k} driver`)]),
            ),
          },
        ),
      },
    }),
    capabilities: d(
      'What the target offers. A test needing a capability that is off is skipped, naming the setting. On an external target `referenceControl`, `clock`, `namespaces`, `requireRequestHeader`, `schedAcl` and `schedControl` are probed with one bounded request each unless the file or environment sets them; a value the file or environment sets is never changed by probing or by starting the embedded reference.',
      {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(Object.entries(CAPABILITIES).map(([k, text]) => [k, d(text, bool)])),
      },
    ),
    probe: d(
      'the capabilities the file and environment left unset, probed on an external target',
      { type: 'array', items: { type: 'string' } },
      { readOnly: true },
    ),
    userCapabilities: d(
      'the capabilities the file or environment set: probing and the embedded reference never change them',
      { type: 'array', items: { type: 'string' } },
      { readOnly: true },
    ),
    dialect: d(
      "How the target spells what the documents name: header names, the output prefix and the names map (see docs/TARGETS.md, \"Mapping a product's names\"); a profile maps them to a real product's names without touching the suites. The dialect applies to an external API only: an API the embedded reference serves speaks the documents' names.",
      {
        type: 'object',
        additionalProperties: false,
        required: [
          'tokenHeader',
          'namespaceHeader',
          'requestHeader',
          'nextTokenHeader',
          'schedTokenHeader',
          'outputPrefix',
        ],
        properties: {
          tokenHeader: d('client token header', headerName),
          namespaceHeader: d('namespace header', headerName),
          requestHeader: d('the header `require_request_header` asks for', headerName),
          nextTokenHeader: d("the scheduler's pagination header", headerName),
          schedTokenHeader: d("the scheduler's token header (the documents do not show it: an assumption)", headerName),
          outputPrefix: d('prefix of ciphertexts and signatures (`svc:v1:...`)', {
            type: 'string',
            pattern: '^[a-z][a-z0-9]*$',
          }),
          names: d(
            'engine types, field names, enum values and environment variable names of the target, per API; the HTTP layer renames requests to them and responses back. A wrong or unknown key is a configuration error (exit 2); a name left out passes as it is',
            namesSchema,
          ),
          versionProbe: d(
            'where the product reports its version (the documents define no such endpoint): a GET of `path` (relative to /v1) and the JSON pointer of the version in the answer; asked only when `svc.version` is not set. fixtures/profiles/upstream-names.yaml sets `sys/health` `/version`',
            {
              type: 'object',
              additionalProperties: false,
              required: ['path', 'pointer'],
              properties: {
                path: d('the path to GET', { type: 'string', pattern: '^[A-Za-z0-9_./-]+$' }),
                pointer: d('JSON pointer of the version in the answer', { type: 'string', pattern: '^(/[^/]+)+$' }),
              },
            },
          ),
        },
      },
    ),
    timeouts: d('Every request, test and hook has a timeout.', {
      type: 'object',
      additionalProperties: false,
      required: ['requestMs', 'testMs', 'hookMs'],
      properties: {
        requestMs: d('per HTTP request', posInt),
        testMs: d('per test', posInt),
        hookMs: d("per set-up and cleanup hook (a file's mounts, its cleanup)", posInt),
        lockWaitMs: d(
          "longest a test file waits for its domain locks; the files ahead of it are bounded by their own test and hook timeouts, so this only has to outlast a slow target's exclusive files. After it the file fails with the lock service's account: who held the lock and who was queued ahead. Also the longest a test worker waits for the target to be ready (the run's start)",
          posInt,
        ),
      },
    }),
    timing: d('Waiting for time to pass and for state a target reaches after answering.', {
      type: 'object',
      additionalProperties: false,
      required: ['maxRealWaitSeconds', 'pollMs', 'settleSeconds'],
      properties: {
        maxRealWaitSeconds: d(
          'longest real sleep a test may take on a target without the controllable clock; 0: such secrets-service tests are skipped (scheduler tests poll instead)',
          nonNegInt,
        ),
        pollMs: d(
          'how often a test polls for state a scheduler reaches after answering (allocations, deployments, evaluations, garbage collection)',
          { type: 'integer', minimum: 10, maximum: 60_000 },
        ),
        settleSeconds: d(
          'how long a test polls for that state; a real deployment needs its MinHealthyTime (10 s by default), so 60 is a safe bound on a real scheduler',
          posInt,
        ),
      },
    }),
    limits: d('Limits of the target.', {
      type: 'object',
      additionalProperties: false,
      required: ['maxRequestBytes'],
      properties: {
        maxRequestBytes: d(
          "the target's request size limit in bytes (the documents: 32 MB, tunable per listener)",
          posInt,
        ),
      },
    }),
    lockout: d('User lockout parameters of the target.', {
      type: 'object',
      additionalProperties: false,
      required: ['threshold', 'durationSeconds', 'resetSeconds', 'allowLongWaits'],
      properties: {
        threshold: d('failed logins that lock a user out', posInt),
        durationSeconds: d('how long a lockout lasts', posInt),
        resetSeconds: d('after how long without a failure the count starts again', posInt),
        allowLongWaits: d(
          'run the cases that wait the full lockout duration on a target without the controllable clock',
          bool,
        ),
      },
    }),
    mounts: d(
      "Existing mounts to use instead of creating run-unique ones, keyed by the documents' default mount (`secret`, `transit`, `ldap`, `cloud`, ...). Tests that must change an engine's configuration mount their own engine of the same type beside it, or are skipped when `capabilities.mounts` is false.",
      { type: 'object', additionalProperties: { type: 'string', pattern: '^[A-Za-z0-9_./-]+$' } },
    ),
    assumptions: d(
      '`assumptions.<id>: false` switches off an assumption of the catalogue (an entry of kind `assumption`, where the documents are silent) for this target: its tests are skipped naming this setting. Rules of the documents cannot be switched off; list them as known failures in an expectations file instead.',
      { type: 'object', additionalProperties: { type: 'boolean' } },
    ),
    ldap: d(
      'The directory the LDAP engine manages and the ldap suite verifies; unset: the harness starts its own (slapd, or OpenLDAP through testcontainers).',
      {
        type: 'object',
        additionalProperties: false,
        required: ['url', 'bindDn', 'bindPass'],
        properties: {
          url: d("the directory's URL", { type: 'string', pattern: '^ldaps?://' }, { env: 'LDAP_URL' }),
          bindDn: d('DN the engine and the suite bind as', str, { env: 'LDAP_BIND_DN' }),
          bindPass: d('its password', str, { env: 'LDAP_BIND_PASS' }),
          baseDn: d('base DN of the entries the suite works with', str, { env: 'LDAP_BASE_DN' }),
          userDn: d('DN under which users (and service accounts) live', str, { env: 'LDAP_USER_DN' }),
          groupDn: d('DN under which groups live', str),
          serviceAccounts: d(
            'existing service accounts for the library and static roles (comma-separated in the environment)',
            { type: 'array', items: str },
            { env: 'LDAP_SERVICE_ACCOUNTS' },
          ),
          users: d(
            'existing users (comma-separated in the environment)',
            { type: 'array', items: str },
            {
              env: 'LDAP_USERS',
            },
          ),
          started: d('true when the harness started this directory itself', bool, { readOnly: true }),
        },
      },
    ),
    cloud: cloudConfigSchema,
    preflighted: d(
      'target addresses the pre-flight check already reached before vitest started (harness/setup/preflight.ts): not asked again',
      { type: 'array', items: str },
      { readOnly: true },
    ),
    unavailable: d(
      'suites whose prerequisites the harness could not provide (no directory for ldap), with the reason and the setting: their tests skip and the run is incomplete',
      {
        type: 'object',
        additionalProperties: {
          type: 'object',
          required: ['reason', 'setting'],
          properties: {
            reason: d('why the suite cannot run', { type: 'string' }),
            setting: d('the setting that would provide what it lacks', { type: 'string' }),
          },
        },
      },
      { readOnly: true },
    ),
    reference: d('The embedded reference, when the harness starts it.', {
      type: 'object',
      additionalProperties: false,
      required: ['faults', 'version'],
      properties: {
        faults: d(
          'fault switches of the embedded reference: each breaks one catalogued rule (`npm run mutation` sets them)',
          { type: 'array', items: str },
          { env: 'REF_FAULTS', cli: '--faults' },
        ),
        variants: d(
          'legal variants of the embedded reference: behaviours the documents allow',
          { type: 'array', items: str },
          { env: 'REF_VARIANTS', cli: '--variants' },
        ),
        version: d(
          'the version the embedded reference reports (both sides of every known-issue gate can be exercised)',
          { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+' },
          { cli: '--reference-version' },
        ),
      },
    }),
    robustness: d('The robustness suite, generated from the OpenAPI documents (docs/ROBUSTNESS.md).', {
      type: 'object',
      additionalProperties: false,
      required: ['seed', 'examplesPerOperation', 'timeCapSeconds', 'concurrency'],
      properties: {
        seed: d(
          'seed of the generated requests; the same seed replays the same requests. Chosen at random when unset, printed at the start and end of the run',
          { type: 'integer', minimum: 0, maximum: 2147483647 },
          { cli: '--seed' },
        ),
        examplesPerOperation: d('generated requests per rule and operation', {
          type: 'integer',
          minimum: 1,
          maximum: 10000,
        }),
        timeCapSeconds: d(
          'wall-clock cap of the suite, after which each remaining rule sends one request per kind of case',
          { type: 'integer', minimum: 1 },
        ),
        concurrency: d(
          "rules of independent operations in flight at once. The default, 8, is one per spec document, so every document's chain of writes runs at once and the longest (transit's) bounds the suite; against a remote target it overlaps latency, on the embedded reference the cores are the limit. Verdicts, findings and shrunk counterexamples do not depend on it; 1 sends one request at a time",
          { type: 'integer', minimum: 1, maximum: 64 },
        ),
      },
    }),
    run: d('What to run and where the reports go.', {
      type: 'object',
      additionalProperties: false,
      required: ['suites', 'reportDir'],
      properties: {
        suites: d(
          'the suites to run: core, kv, auth, transit, ldap, cloud, jobs, release, robustness',
          { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } },
          { cli: '--suite' },
        ),
        files: d(
          "only these test files (suite files, or the harness's own fixture suites in tests/harness/fixtures/); mutation runs target the files naming the broken requirement",
          {
            type: 'array',
            items: {
              type: 'string',
              pattern: '^(suites/.+\\.test\\.ts|tests/harness/fixtures/[a-z0-9-]+\\.suite\\.ts)$',
            },
          },
          { cli: '--files' },
        ),
        reportDir: d(
          'where junit.xml, results.json and index.html go',
          { type: 'string', minLength: 1 },
          {
            cli: '--report-dir',
          },
        ),
        expectationsFile: d(
          'known failures of the target, keyed by requirement id (docs/TARGETS.md, "Known failures of a target")',
          str,
          { cli: '--expectations' },
        ),
        previousResults: d('results.json of an earlier run, compared with in the HTML report', str, {
          cli: '--previous',
        }),
        requireComplete: d(
          'exit 1 when the run is incomplete: a selected suite did not run, or tests were skipped for a missing prerequisite',
          bool,
          { cli: '--require-complete' },
        ),
        assumptions: d(
          'What a difference from a catalogue assumption (kind `assumption`: the documents are silent or vague, the suite states a reading) does to the run. `report` (the default): it is an assumption difference, counted and reported apart with the assumption, why it exists and its setting, and the run does not fail on it. `strict`: a MUST assumption difference fails the run like a violation of the documents (for teams whose own product defines the reading). See docs/VERDICTS.md.',
          { enum: ['report', 'strict'] },
          { env: 'CONFORMANCE_ASSUMPTIONS', cli: '--assumptions' },
        ),
      },
    }),
  },
} as const;
