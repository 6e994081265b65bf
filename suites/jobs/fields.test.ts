/**
 * The fields of the Job, Task group and Task lists the "everything" read-back (resources.test.ts)
 * does not send, or sends in a form that cannot tell a dropped field from its default (one item
 * where several are allowed, the name equal to the ID, a false flag): one job per field, read back
 * with GET /v1/job/:job_id, so a scheduler that drops one field fails that field's test only.
 * Each job is placed nowhere (datacenter cf-nowhere): only its stored definition matters.
 *
 * A field whose registration needs an integration the document leaves to the scheduler (a secrets
 * service, task kinds, storage plugins, task scaling policies) is sent as a set-up: a scheduler
 * without it may refuse the job, and the test is then not applicable with its answer.
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { expectThat } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { expectContains, missingFrom, ok, readJob, register, trackJob, type Obj } from './helpers.js';

suite('jobs');

const SECOND = 1_000_000_000;

/** One field of the job definition, sent on a job of its own and read back. */
interface FieldCase {
  /** The test's name: what is sent. */
  title: string;
  /** Adds the field to the job (a service job, its group `cache` and task `redis`). */
  set(job: Obj, id: string): void;
  /** What the job read must hold (every key, every element in its order: see missingFrom). */
  expected(job: Obj): unknown;
  /** Where it is read: the part of the job read that must hold `expected`. */
  actual(read: Obj): unknown;
  /** Another place the read may hold it instead (a job-level default a scheduler keeps in its groups). */
  orElse?: (read: Obj) => unknown[];
  /** The integration the field needs, if any: a refusal of the job then makes the test not applicable. */
  needs?: string;
}

const group = (job: Obj): Obj => job.TaskGroups[0];
const task = (job: Obj): Obj => job.TaskGroups[0].Tasks[0];
const groupsRead = (read: Obj): Obj[] => (Array.isArray(read.TaskGroups) ? read.TaskGroups : []);

const CASES: FieldCase[] = [
  // ---- Job ------------------------------------------------------------------------------------------
  {
    title: 'Name other than the ID',
    set: (job, id) => {
      job.Name = `${id}-named`;
    },
    expected: (job) => job.Name,
    actual: (read) => read.Name,
  },
  {
    title: 'AllAtOnce true',
    set: (job) => {
      job.AllAtOnce = true;
    },
    expected: () => true,
    actual: (read) => read.AllAtOnce,
  },
  {
    title: 'two Datacenters',
    set: (job) => {
      job.Datacenters = ['cf-nowhere', 'cf-elsewhere'];
    },
    expected: () => ['cf-nowhere', 'cf-elsewhere'],
    actual: (read) => read.Datacenters,
  },
  {
    title: 'two job Constraints',
    set: (job) => {
      job.Constraints = [
        { LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' },
        { LTarget: '${node.class}', RTarget: 'cf-class', Operand: '!=' },
      ];
    },
    expected: (job) => job.Constraints,
    actual: (read) => read.Constraints,
  },
  {
    title: 'two job Spreads',
    set: (job) => {
      job.Spreads = [
        { Attribute: '${node.datacenter}', Weight: 60 },
        { Attribute: '${meta.rack}', Weight: 40 },
      ];
    },
    expected: (job) => job.Spreads,
    actual: (read) => read.Spreads,
  },
  {
    title: 'Multiregion (a strategy, no region besides this one)',
    set: (job) => {
      job.Multiregion = { Strategy: { MaxParallel: 1, OnFailure: 'fail_all' }, Regions: [] };
    },
    // An empty list may read as null (it holds nothing): the strategy is what is compared.
    expected: (job) => ({ Strategy: job.Multiregion.Strategy }),
    actual: (read) => read.Multiregion,
  },
  {
    title: 'Migrate at the job level (kept on the job, or in each group that sets none)',
    set: (job) => {
      job.Migrate = {
        MaxParallel: 2,
        HealthCheck: 'task_states',
        MinHealthyTime: 17 * SECOND,
        HealthyDeadline: 170 * SECOND,
      };
    },
    expected: (job) => job.Migrate,
    actual: (read) => read.Migrate,
    orElse: (read) => groupsRead(read).map((g) => g.Migrate),
  },
  {
    title: 'Reschedule at the job level (kept on the job, or in each group that sets none)',
    set: (job) => {
      job.Reschedule = {
        Attempts: 4,
        Interval: 7200 * SECOND,
        Delay: 45 * SECOND,
        DelayFunction: 'fibonacci',
        MaxDelay: 1700 * SECOND,
        Unlimited: false,
      };
    },
    expected: (job) => job.Reschedule,
    actual: (read) => read.Reschedule,
    orElse: (read) => groupsRead(read).map((g) => g.ReschedulePolicy),
  },
  {
    title: 'SecretsNamespace',
    set: (job) => {
      job.SecretsNamespace = 'cf-secrets';
    },
    expected: () => 'cf-secrets',
    actual: (read) => read.SecretsNamespace,
  },
  {
    title: 'Meta with values beyond ASCII',
    set: (job) => {
      job.Meta = { team: 'cache', note: 'naïve café – ✓ 日本語' };
    },
    expected: (job) => job.Meta,
    actual: (read) => read.Meta,
  },
  // ---- Task group -------------------------------------------------------------------------------------
  {
    title: 'two group Affinities',
    set: (job) => {
      group(job).Affinities = [
        { LTarget: '${meta.rack}', RTarget: 'r1', Operand: '=', Weight: 40 },
        { LTarget: '${node.class}', RTarget: 'fast', Operand: '=', Weight: -20 },
      ];
    },
    expected: (job) => group(job).Affinities,
    actual: (read) => groupsRead(read)[0]?.Affinities,
  },
  // ---- Task ---------------------------------------------------------------------------------------------
  {
    title: 'two task Constraints',
    set: (job) => {
      task(job).Constraints = [
        { LTarget: '${attr.cpu.arch}', RTarget: 'amd64', Operand: '=' },
        { LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' },
      ];
    },
    expected: (job) => task(job).Constraints,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Constraints,
  },
  {
    title: 'a template read from SourcePath',
    set: (job) => {
      task(job).Templates = [{ SourcePath: 'local/in.tpl', DestPath: 'local/out.conf', ChangeMode: 'noop' }];
    },
    expected: (job) => task(job).Templates,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Templates,
  },
  {
    title: 'Resources with DiskMB',
    set: (job) => {
      task(job).Resources = { CPU: 100, MemoryMB: 128, DiskMB: 150 };
    },
    expected: (job) => task(job).Resources,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Resources,
  },
  {
    title: 'Resources with IOPS',
    set: (job) => {
      task(job).Resources = { CPU: 100, MemoryMB: 128, IOPS: 40 };
    },
    expected: (job) => task(job).Resources,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Resources,
  },
  {
    title: 'Resources with Networks',
    set: (job) => {
      task(job).Resources = { CPU: 100, MemoryMB: 128, Networks: [{ MBits: 20 }] };
    },
    expected: (job) => task(job).Resources,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Resources,
  },
  {
    title: 'Resources with Devices',
    set: (job) => {
      task(job).Resources = { CPU: 100, MemoryMB: 128, Devices: [{ Name: 'nvidia/gpu', Count: 1 }] };
    },
    expected: (job) => task(job).Resources,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Resources,
  },
  {
    title: 'LogConfig with Disabled true',
    set: (job) => {
      task(job).LogConfig = { Disabled: true, MaxFiles: 2, MaxFileSizeMB: 4 };
    },
    expected: (job) => task(job).LogConfig,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.LogConfig,
  },
  {
    title: 'two Artifacts',
    set: (job) => {
      task(job).Artifacts = [
        {
          GetterSource: 'https://example.com/cf-one.tar.gz',
          GetterOptions: { archive: 'false' },
          RelativeDest: 'local/one',
        },
        {
          GetterSource: 'https://example.com/cf-two.tar.gz',
          GetterOptions: { archive: 'false' },
          RelativeDest: 'local/two',
        },
      ];
    },
    expected: (job) => task(job).Artifacts,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Artifacts,
  },
  {
    title: 'a task Kind',
    needs: 'a task kind names an integration (a sidecar proxy, a gateway) the scheduler may not offer',
    set: (job) => {
      task(job).Kind = 'connect-proxy:cf-svc';
    },
    expected: () => 'connect-proxy:cf-svc',
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Kind,
  },
  {
    title: 'a Vault-integration block',
    needs: 'the Vault-integration block needs a secrets service the scheduler may not be connected to',
    set: (job) => {
      task(job).Vault = { Policies: ['cf-policy'], ChangeMode: 'restart', Env: true };
    },
    expected: (job) => task(job).Vault,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.Vault,
  },
  {
    title: 'a CSIPluginConfig',
    needs: 'a storage plugin task needs a driver that can run it privileged',
    set: (job) => {
      task(job).CSIPluginConfig = { ID: 'cf-plugin', Type: 'node', MountDir: '/csi' };
    },
    expected: (job) => task(job).CSIPluginConfig,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.CSIPluginConfig,
  },
  {
    title: 'task ScalingPolicies',
    needs: "task scaling policies need a scaling integration (the real scheduler's are enterprise-only)",
    set: (job) => {
      task(job).ScalingPolicies = [{ Type: 'vertical_cpu', Target: {}, Policy: {}, Min: 50, Max: 500, Enabled: true }];
    },
    expected: (job) => task(job).ScalingPolicies,
    actual: (read) => groupsRead(read)[0]?.Tasks?.[0]?.ScalingPolicies,
  },
];

/** Registers a service job placed nowhere, with `change` applied (a set-up registration when `needs` is given). */
async function registerWith(t: T, base: string, change: (job: Obj, id: string) => void, needs?: string) {
  const id = t.unique(base);
  const job = jobDefinition('service', id, { Datacenters: ['cf-nowhere'] }) as Obj;
  change(job, id);
  if (needs === undefined) {
    await register(t, job as never);
    return { id, job };
  }
  // A set-up registration: a refusal makes the test not applicable, with what it needs and the answer.
  trackJob(t, id);
  const ex = await t.sched.post('jobs', { body: { Job: job } });
  if (ex.response.status < 200 || ex.response.status > 299)
    t.notApplicable(
      `${needs}: POST /v1/jobs answered ${ex.response.status} (${String(ex.response.body).slice(0, 200)})`,
    );
  return { id, job };
}

for (const c of CASES) {
  conformance(
    { id: 'jobs.read.returns-job', level: 'MUST', title: `GET /v1/job/:job_id returns ${c.title} as registered` },
    async (t) => {
      const { id, job } = await registerWith(t, 'field', c.set, c.needs);
      const read = await readJob(t, id);
      const expected = c.expected(job);
      if (!c.orElse) {
        expectContains(c.actual(read), expected, `${c.title}: read back`);
        return;
      }
      // A job-level default is held on the job, or by every group that sets none of its own.
      const inGroups = c.orElse(read);
      const kept =
        missingFrom(c.actual(read), expected) === undefined ||
        (inGroups.length > 0 && inGroups.every((g) => missingFrom(g, expected) === undefined));
      expectThat(
        kept,
        'field',
        {
          job: c.actual(read),
          groups: inGroups,
        },
        expected,
        `${c.title}: read back on the job or in every group`,
      );
    },
  );
}

conformance(
  {
    id: 'jobs.read.returns-job',
    level: 'MUST',
    title: 'POST /v1/jobs takes a job carrying SecretsToken and DiscoveryToken, which read back as strings if at all',
  },
  async (t) => {
    const { id } = await registerWith(t, 'tokens', (job) => {
      job.SecretsToken = 'cf-secrets-token';
      job.DiscoveryToken = 'cf-discovery-token';
    });
    const read = await readJob(t, id);
    // Tokens a scheduler may keep secret: not read back, blanked, or as sent; never another type.
    for (const f of ['SecretsToken', 'DiscoveryToken'])
      expectThat(
        read[f] === undefined || typeof read[f] === 'string',
        'field',
        read[f],
        'absent or a string',
        `${f} of the job read is a string, if it is shown`,
      );
  },
);

conformance(
  {
    id: 'jobs.read.returns-job',
    level: 'MUST',
    title: 'GET /v1/job/:job_id of an ID in other letter case does not answer the job',
  },
  async (t) => {
    const { id } = await registerWith(t, 'casejob', () => undefined);
    const other = await t.sched.get(`job/${encodeURIComponent(id.toUpperCase())}`);
    t.check(await t.sched.get(`job/${encodeURIComponent(id)}`), ok);
    expectThat(
      !(other.response.status >= 200 && other.response.status < 300 && (other.response.body as Obj | null)?.ID === id),
      'job_id',
      { status: other.response.status, ID: (other.response.body as Obj | null)?.ID },
      'a refusal or another job',
      `GET /v1/job/${id.toUpperCase()} does not answer the job ${id} (IDs differ by case)`,
    );
  },
);
