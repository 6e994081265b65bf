// size: one schema, one declaration per setting (everything else about a setting follows from it).
/**
 * Every setting of the harness, declared once (contract/setting.ts): its type, its description,
 * its environment variable (`env`), its flag of `run` (`flag`) and its default. From this one
 * declaration follow the TypeScript type (types.ts), the validation with ajv (a violation names
 * the setting and where it came from), the environment and flag readers and the defaults
 * (settings.ts), the options of `run` (harness/cli/program.ts) and docs/CONFIGURATION.md
 * (`npm run docs:config`). `harness: true` marks what the harness fills in itself.
 * tests/harness/settings-once.test.ts proves that no other hand-written declaration names a setting.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { cloudSection } from '../../contract/cloud-settings.js';
import { map, oneOf, part, section, setting } from '../../contract/setting.js';
import { namesSchema } from './names-schema.js';

/** The suites a run can select. */
export const ALL_SUITES: string[] = ['core', 'kv', 'auth', 'transit', 'ldap', 'cloud', 'jobs', 'release', 'robustness'];

const posInt = () => Type.Integer({ minimum: 1 });
const httpUrl = Type.String({ pattern: '^https?://[^\\s/]+(/.*)?$' });
const headerName = () => Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" });
const list = () => Type.Array(Type.String());
/** A scheduler task: `{Driver, Config}`. */
const task = () =>
  Type.Object(
    {
      Driver: part('the task driver', Type.String({ minLength: 1 })),
      Config: part("the driver's task config", Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: false },
  );
const sleeping = (Driver: string) => ({ Driver, Config: { command: '/bin/sleep', args: ['3600'] } });

const capabilities = section(
  'What the target offers. A test needing a capability that is off is skipped, naming the setting. On an external target `referenceControl`, `clock`, `namespaces`, `requireRequestHeader`, `schedAcl` and `schedControl` are probed with one bounded request each unless the file or environment sets them; a value the file or environment sets is never changed by probing or by starting the embedded reference.',
  {
    namespaces: setting(
      'the target has namespaces (an enterprise feature); probed on an external target',
      Type.Boolean(),
      { default: false },
    ),
    enterprise: setting(
      'the target has the enterprise features (the embedded reference sets it; no test asks for it on its own today)',
      Type.Boolean(),
      { default: false },
    ),
    cmac: setting('the transit engine offers CMAC keys and the cmac endpoint', Type.Boolean(), { default: false }),
    managedKeys: setting('the transit engine offers managed keys (no test asks for it today)', Type.Boolean(), {
      default: false,
    }),
    sealRandom: setting(
      'the transit engine offers random bytes from the seal (`transit/random/seal`)',
      Type.Boolean(),
      { default: false },
    ),
    clock: setting(
      "the target exposes the reference's controllable clock (sys/reference/clock), so time-dependent rules move it instead of sleeping; probed",
      Type.Boolean(),
      { default: false },
    ),
    mounts: setting(
      'the token may mount engines (sys/mounts), so the run uses run-unique mounts; false: set `mounts.<engine>` for every suite',
      Type.Boolean(),
      { default: true },
    ),
    requireRequestHeader: setting(
      'the listener enforces require_request_header (the request header of `dialect.requestHeader`); probed',
      Type.Boolean(),
      { default: false },
    ),
    referenceControl: setting(
      'the target is the reference: its control endpoints (sys/reference/*) answer; probed',
      Type.Boolean(),
      { default: false },
    ),
    schedAcl: setting('the scheduler has ACLs enabled; probed', Type.Boolean(), { default: false }),
    schedControl: setting(
      'the scheduler is the reference: its control endpoints (clock, tokens, the knob that holds a deployment active) answer; probed',
      Type.Boolean(),
      { default: false },
    ),
  },
);
const capabilityName = Type.KeyOf(capabilities);

export const configSchema = Type.Object(
  {
    runId: setting(
      'run-unique id, chosen at random for every run; it names the run in reports',
      Type.String({ pattern: '^[a-z0-9]{4,12}$' }),
      {
        harness: true,
        perRun: () =>
          randomBytes(4)
            .toString('hex')
            .replace(/^[0-9]/, 'r')
            .slice(0, 6),
      },
    ),
    prefix: setting(
      'prefix of every resource name the run creates (`cf-<runId>`): what the cleanup and the sweep after the run look for',
      Type.String({ pattern: '^[a-z][a-z0-9-]{1,30}$' }),
      { harness: true, perRun: (d) => `cf-${String(d.runId)}` },
    ),
    embedded: setting('true when the harness started the embedded reference for the secrets service', Type.Boolean(), {
      harness: true,
      default: false,
    }),
    schedEmbedded: setting('true when the harness started the embedded reference for the scheduler', Type.Boolean(), {
      harness: true,
      default: false,
    }),
    svc: section('The secrets service under test.', {
      addr: setting(
        'address of the secrets service (`https://host:8200`); empty: the harness starts the embedded reference',
        Type.Union([httpUrl, Type.Literal('')]),
        { env: 'SVC_ADDR', default: '' },
      ),
      token: setting('the token the run uses (needs rights to mount engines and write policies)', Type.String(), {
        env: 'SVC_TOKEN',
        default: '',
      }),
      namespace: setting(
        'namespace every request is sent in (the namespace header); empty: the root namespace',
        Type.String({ pattern: '^([A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*)?/?$' }),
        { env: 'SVC_NAMESPACE', default: '' },
      ),
      cacert: setting("PEM file of the CA that signed the target's TLS certificate", Type.String(), {
        env: 'SVC_CACERT',
      }),
      skipVerify: setting("do not verify the target's TLS certificate", Type.Boolean(), {
        env: 'SVC_SKIP_VERIFY',
        default: false,
      }),
      version: setting(
        "the target's version (semver), which gates the release notes' known issues; empty: asked through `dialect.versionProbe`, else version-gated tests are not applicable",
        Type.Union([Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+([-+].*)?$' }), Type.Literal('')]),
        { env: 'SVC_VERSION', default: '' },
      ),
      versionSource: setting(
        'where the version came from (config file, environment, probe, embedded reference), for the report',
        Type.String(),
        { harness: true },
      ),
    }),
    sched: section('The job scheduler under test (see docs/TARGETS.md, "A real scheduler").', {
      addr: setting(
        'address of the scheduler; empty: the embedded reference serves it',
        Type.Union([httpUrl, Type.Literal('')]),
        { env: 'SCHED_ADDR', default: '' },
      ),
      token: setting('scheduler token (management rights for the ACL tests)', Type.String(), {
        env: 'SCHED_TOKEN',
        default: '',
      }),
      provisioner: setting(
        "where scheduler tokens with chosen capabilities and extra namespaces come from: `reference` (its control endpoint), `upstream` (the upstream product's ACL and namespace API, driven with `sched.token`), `config` (`sched.tokens` and `sched.namespaces`); empty: `config` when those list something, else `reference`",
        oneOf(['', 'reference', 'upstream', 'config']),
        { env: 'SCHED_PROVISIONER', default: '' },
      ),
      tokens: setting(
        'for the `config` provisioner: existing tokens, one per grant the suite asks for (`SCHED_SUITE_GRANTS` in harness/provision/scheduler.ts); a grant without a listed token skips its test naming this setting',
        Type.Array(
          Type.Object(
            {
              secret: part('the token', Type.String({ minLength: 1 })),
              namespace: part('the namespace its capabilities apply in', Type.String({ minLength: 1 })),
              capabilities: part('the namespace capabilities it carries', list()),
            },
            { additionalProperties: false },
          ),
        ),
        { default: [] },
      ),
      namespaces: setting(
        'for the `config` provisioner: existing namespaces besides `default`',
        Type.Array(Type.String({ pattern: '^[a-zA-Z0-9-]{1,128}$' })),
        { default: [] },
      ),
      runningTask: setting(
        '`{Driver, Config}` of the tasks that must keep running (service jobs); the default, `raw_exec` running `/bin/sleep 3600`, is what a dev agent offers without a container engine',
        task(),
        { default: sleeping('raw_exec') },
      ),
      failingTask: setting(
        '`{Driver, Config}` of a task that exits with a failure at once (a failed allocation for the evaluate `ForceReschedule` test); the default is `raw_exec` running `/bin/false`',
        task(),
        { default: { Driver: 'raw_exec', Config: { command: '/bin/false' } } },
      ),
      actionTasks: setting(
        '`{isolated, unisolated}`: `{Driver, Config}` of a task whose driver has file system isolation and of one whose driver lacks it, for the action stream\'s ACL ("alloc-exec (and alloc-node-exec when the task driver lacks file system isolation)"); the defaults are the upstream scheduler\'s `exec` and `raw_exec`. A target whose client does not run one of them leaves its test not applicable',
        Type.Object(
          {
            isolated: part('the task of the isolated driver', task()),
            unisolated: part('the task of the unisolated driver', task()),
          },
          { additionalProperties: false },
        ),
        { default: { isolated: sleeping('exec'), unisolated: sleeping('raw_exec') } },
      ),
    }),
    capabilities,
    probe: setting(
      'the capabilities the file and environment left unset, probed on an external target',
      Type.Array(capabilityName),
      { harness: true, default: [] },
    ),
    userCapabilities: setting(
      'the capabilities the file or environment set: probing and the embedded reference never change them',
      Type.Array(capabilityName),
      { harness: true },
    ),
    dialect: section(
      "How the target spells what the documents name: header names, the output prefix and the names map (see docs/TARGETS.md, \"Mapping a product's names\"); a profile maps them to a real product's names without touching the suites. The dialect applies to an external API only: an API the embedded reference serves speaks the documents' names.",
      {
        tokenHeader: setting('client token header', headerName(), { default: 'X-Svc-Token' }),
        namespaceHeader: setting('namespace header', headerName(), { default: 'X-Svc-Namespace' }),
        requestHeader: setting('the header `require_request_header` asks for', headerName(), {
          default: 'X-Svc-Request',
        }),
        nextTokenHeader: setting("the scheduler's pagination header", headerName(), { default: 'X-Sched-NextToken' }),
        schedTokenHeader: setting(
          "the scheduler's token header (the documents do not show it: an assumption)",
          headerName(),
          { default: 'X-Sched-Token' },
        ),
        outputPrefix: setting(
          'prefix of ciphertexts and signatures (`svc:v1:...`)',
          Type.String({ pattern: '^[a-z][a-z0-9]*$' }),
          { default: 'svc' },
        ),
        names: setting(
          'engine types, field names, enum values and environment variable names of the target, per API; the HTTP layer renames requests to them and responses back. A wrong or unknown key is a configuration error (exit 2); a name left out passes as it is',
          namesSchema,
        ),
        versionProbe: setting(
          'where the product reports its version (the documents define no such endpoint): a GET of `path` (relative to /v1) and the JSON pointer of the version in the answer; asked only when `svc.version` is not set. fixtures/profiles/upstream-names.yaml sets `sys/health` `/version`',
          Type.Object(
            {
              path: part('the path to GET', Type.String({ pattern: '^[A-Za-z0-9_./-]+$' })),
              pointer: part('JSON pointer of the version in the answer', Type.String({ pattern: '^(/[^/]+)+$' })),
            },
            { additionalProperties: false },
          ),
        ),
      },
    ),
    timeouts: section('Every request, test and hook has a timeout.', {
      requestMs: setting('per HTTP request', posInt(), { default: 10_000 }),
      testMs: setting('per test', posInt(), { default: 60_000 }),
      hookMs: setting("per set-up and cleanup hook (a file's mounts, its cleanup)", posInt(), { default: 60_000 }),
      lockWaitMs: setting(
        "longest a test file waits for its domain locks; the files ahead of it are bounded by their own test and hook timeouts, so this only has to outlast a slow target's exclusive files. After it the file fails with the lock service's account: who held the lock and who was queued ahead. Also the longest a test worker waits for the target to be ready (the run's start)",
        posInt(),
        { default: 900_000 },
      ),
    }),
    timing: section('Waiting for time to pass and for state a target reaches after answering.', {
      maxRealWaitSeconds: setting(
        'longest real sleep a test may take on a target without the controllable clock; 0: such secrets-service tests are skipped (scheduler tests poll instead)',
        Type.Integer({ minimum: 0 }),
        { default: 0 },
      ),
      pollMs: setting(
        'how often a test polls for state a scheduler reaches after answering (allocations, deployments, evaluations, garbage collection)',
        Type.Integer({ minimum: 10, maximum: 60_000 }),
        { default: 100 },
      ),
      settleSeconds: setting(
        'how long a test polls for that state; a real deployment needs its MinHealthyTime (10 s by default), so 60 is a safe bound on a real scheduler',
        posInt(),
        { default: 10 },
      ),
    }),
    limits: section('Limits of the target.', {
      maxRequestBytes: setting(
        "the target's request size limit in bytes (the documents: 32 MB, tunable per listener)",
        posInt(),
        { default: 32 * 1024 * 1024 },
      ),
    }),
    lockout: section('User lockout parameters of the target.', {
      threshold: setting('failed logins that lock a user out', posInt(), { default: 5 }),
      durationSeconds: setting('how long a lockout lasts', posInt(), { default: 900 }),
      resetSeconds: setting('after how long without a failure the count starts again', posInt(), { default: 900 }),
      allowLongWaits: setting(
        'run the cases that wait the full lockout duration on a target without the controllable clock',
        Type.Boolean(),
        { default: false },
      ),
    }),
    mounts: setting(
      "Existing mounts to use instead of creating run-unique ones, keyed by the documents' default mount (`secret`, `transit`, `ldap`, `cloud`, ...). Tests that must change an engine's configuration mount their own engine of the same type beside it, or are skipped when `capabilities.mounts` is false.",
      map(Type.String({ pattern: '^[A-Za-z0-9_./-]+$' })),
      { default: {} },
    ),
    assumptions: setting(
      '`assumptions.<id>: false` switches off an assumption of the catalogue (an entry of kind `assumption`, where the documents are silent) for this target: its tests are skipped naming this setting. Rules of the documents cannot be switched off; list them as known failures in an expectations file instead.',
      map(Type.Boolean()),
      { default: {} },
    ),
    ldap: section(
      'The directory the LDAP engine manages and the ldap suite verifies; unset: the harness starts its own (slapd, or OpenLDAP through testcontainers). Its variables are read only when LDAP_URL is set.',
      {
        url: setting("the directory's URL", Type.String({ pattern: '^ldaps?://' }), {
          env: 'LDAP_URL',
          required: true,
        }),
        bindDn: setting('DN the engine and the suite bind as', Type.String(), { env: 'LDAP_BIND_DN', required: true }),
        bindPass: setting('its password', Type.String(), { env: 'LDAP_BIND_PASS', required: true }),
        baseDn: setting('base DN of the entries the suite works with', Type.String(), { env: 'LDAP_BASE_DN' }),
        userDn: setting('DN under which users (and service accounts) live', Type.String(), { env: 'LDAP_USER_DN' }),
        groupDn: setting('DN under which groups live', Type.String()),
        serviceAccounts: setting(
          'existing service accounts for the library and static roles (comma-separated in the environment)',
          list(),
          { env: 'LDAP_SERVICE_ACCOUNTS' },
        ),
        users: setting('existing users (comma-separated in the environment)', list(), { env: 'LDAP_USERS' }),
        started: setting('true when the harness started this directory itself', Type.Boolean(), { harness: true }),
      },
      { optional: true, envOnlyWith: 'url' },
    ),
    cloud: cloudSection,
    preflighted: setting(
      'target addresses the pre-flight check already reached before vitest started (harness/setup/preflight.ts): not asked again',
      list(),
      { harness: true },
    ),
    unavailable: setting(
      'suites whose prerequisites the harness could not provide (no directory for ldap), with the reason and the setting: their tests skip and the run is incomplete',
      map(
        Type.Object({
          reason: part('why the suite cannot run', Type.String()),
          setting: part('the setting that would provide what it lacks', Type.String()),
        }),
      ),
      { harness: true },
    ),
    reference: section('The embedded reference, when the harness starts it.', {
      faults: setting(
        'fault switches of the embedded reference: each breaks one catalogued rule (`npm run mutation` sets them)',
        list(),
        { env: 'REF_FAULTS', flag: '--faults <names>', default: [] },
      ),
      variants: setting('legal variants of the embedded reference: behaviours the documents allow', list(), {
        env: 'REF_VARIANTS',
        flag: '--variants <names>',
        default: [],
      }),
      version: setting(
        'the version the embedded reference reports (both sides of every known-issue gate can be exercised)',
        Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+' }),
        { flag: '--reference-version <semver>', default: '1.13.10' },
      ),
    }),
    robustness: section('The robustness suite, generated from the OpenAPI documents (docs/ROBUSTNESS.md).', {
      seed: setting(
        'seed of the generated requests; the same seed replays the same requests. Chosen at random when unset, printed at the start and end of the run',
        Type.Integer({ minimum: 0, maximum: 2147483647 }),
        { flag: '--seed <n>', perRun: () => randomInt(0, 2 ** 31 - 1) },
      ),
      examplesPerOperation: setting(
        'generated requests per rule and operation',
        Type.Integer({ minimum: 1, maximum: 10000 }),
        { default: 8 },
      ),
      timeCapSeconds: setting(
        'wall-clock cap of the suite, after which each remaining rule sends one request per kind of case',
        Type.Integer({ minimum: 1 }),
        { default: 30 },
      ),
      concurrency: setting(
        "rules of independent operations in flight at once. The default, 8, is one per spec document, so every document's chain of writes runs at once and the longest (transit's) bounds the suite; against a remote target it overlaps latency, on the embedded reference the cores are the limit. Verdicts, findings and shrunk counterexamples do not depend on it; 1 sends one request at a time",
        Type.Integer({ minimum: 1, maximum: 64 }),
        { default: 8 },
      ),
    }),
    run: section('What to run and where the reports go.', {
      suites: setting(
        `the suites to run: ${ALL_SUITES.join(', ')}`,
        Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*$' })),
        { flag: '--suite <names>', default: [...ALL_SUITES] },
      ),
      files: setting(
        "only these test files (suite files, or the harness's own fixture suites in tests/harness/fixtures/); mutation runs target the files naming the broken requirement",
        Type.Array(
          Type.String({ pattern: '^(suites/.+\\.test\\.ts|tests/harness/fixtures/[a-z0-9-]+\\.suite\\.ts)$' }),
        ),
        { flag: '--files <paths>' },
      ),
      reportDir: setting('where junit.xml, results.json and index.html go', Type.String({ minLength: 1 }), {
        flag: '--report-dir <dir>',
        default: 'reports',
      }),
      expectationsFile: setting(
        'known failures of the target, keyed by requirement id (docs/TARGETS.md, "Known failures of a target")',
        Type.String(),
        { flag: '--expectations <file>' },
      ),
      previousResults: setting('results.json of an earlier run, compared with in the HTML report', Type.String(), {
        flag: '--previous <file>',
      }),
      shard: setting(
        '`i/n`: run only the i-th of n deterministic parts of the selected files (recorded in results.json); `merge` combines the parts',
        Type.String({ pattern: '^\\d+/\\d+$' }),
        { flag: '--shard <i/n>' },
      ),
      requireComplete: setting(
        'exit 1 when the run is incomplete: a selected suite did not run, or tests were skipped for a missing prerequisite',
        Type.Boolean(),
        { flag: '--require-complete' },
      ),
      assumptions: setting(
        'What a difference from a catalogue assumption (kind `assumption`: the documents are silent or vague, the suite states a reading) does to the run. `report` (the default): it is an assumption difference, counted and reported apart with the assumption, why it exists and its setting, and the run does not fail on it. `strict`: a MUST assumption difference fails the run like a violation of the documents (for teams whose own product defines the reading). See docs/VERDICTS.md.',
        oneOf(['report', 'strict']),
        { env: 'CONFORMANCE_ASSUMPTIONS', flag: '--assumptions <mode>' },
      ),
    }),
  },
  { additionalProperties: false },
);
