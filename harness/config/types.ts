/** The one typed object that describes a target. Built once, injected into every test. */
import type { CloudConfig } from './cloud.js';
import type { ProvisionedDirectory } from '../directory/provision.js';
import type { NamesDialect } from '../dialect/names.js';

export interface Dialect {
  /** Client token header (documents: X-Svc-Token). */
  tokenHeader: string;
  /** Namespace header (documents: X-Svc-Namespace). */
  namespaceHeader: string;
  /** Header required by `require_request_header` (documents: X-Svc-Request). */
  requestHeader: string;
  /** Scheduler pagination header (documents: X-Sched-NextToken). */
  nextTokenHeader: string;
  /** Scheduler token header (not shown in the documents; assumption). */
  schedTokenHeader: string;
  /** Prefix of ciphertexts and signatures (documents: svc). */
  outputPrefix: string;
  /**
   * Engine types, field names, enum values and environment variable names of the target, per API
   * (harness/dialect/names.ts); absent: the documents' own names.
   */
  names?: NamesDialect;
  /**
   * Where the product reports its version (the documents define no such endpoint): a GET of
   * `path` (relative to /v1) and the JSON pointer of the version in its answer. Asked only when
   * svc.version is not set; upstream products answer `sys/health` with `/version`.
   */
  versionProbe?: { path: string; pointer: string };
}

export interface Capabilities {
  namespaces: boolean;
  enterprise: boolean;
  cmac: boolean;
  managedKeys: boolean;
  sealRandom: boolean;
  /** The target exposes the reference's controllable clock (sys/reference/clock). */
  clock: boolean;
  /** The token may mount engines (sys/mounts) so the run uses run-unique mounts. */
  mounts: boolean;
  /** The listener enforces require_request_header. */
  requireRequestHeader: boolean;
  /** The scheduler has ACLs enabled. */
  schedAcl: boolean;
  /** The target is the reference: its control endpoints (sys/reference/*) answer. */
  referenceControl: boolean;
  /** The reference's knob to hold a scheduler deployment active is available. */
  schedControl: boolean;
}

/** A scheduler token listed in the config: its secret and the capabilities it carries in a namespace. */
export interface SchedTokenGrant {
  secret: string;
  namespace: string;
  capabilities: string[];
}

/** The directory the ldap suite verifies (harness/directory/provision.ts), without its stop(). */
export type LdapTarget = Omit<ProvisionedDirectory, 'stop' | 'started'> & { started?: boolean };

export type { CloudConfig as CloudTarget } from './cloud.js';

/** How assumption differences count: reported apart (default) or failing the run. */
export type AssumptionMode = 'report' | 'strict';

export interface TargetConfig {
  /** Run-unique id; every resource name the run creates starts with `prefix`. */
  runId: string;
  prefix: string;
  /** True when the harness started the embedded reference for the secrets service. */
  embedded: boolean;
  schedEmbedded: boolean;
  svc: {
    addr: string;
    token: string;
    namespace: string;
    cacert?: string;
    skipVerify: boolean;
    /** Version of the target (semver), used by release-gated checks; '' = unknown. */
    version: string;
    /** Where the version came from (config file, environment, probe, embedded reference), for the report. */
    versionSource?: string;
  };
  sched: {
    addr: string;
    token: string;
    /**
     * Where scheduler tokens with chosen capabilities and extra namespaces come from
     * (harness/provision/): `reference` (its control endpoint), `upstream` (the upstream product's
     * ACL and namespace API, driven with sched.token), `config` (sched.tokens and
     * sched.namespaces below). Empty: `config` when tokens are listed, else `reference`.
     */
    provisioner: '' | 'reference' | 'upstream' | 'config';
    /** Tokens listed by the user for the `config` provisioner. */
    tokens: SchedTokenGrant[];
    /** Existing namespaces (besides default) listed by the user for the `config` provisioner. */
    namespaces: string[];
    /**
     * Driver and config of the tasks that must keep running (service jobs). Default: raw_exec
     * running /bin/sleep, which a real dev agent offers without a container engine.
     */
    runningTask: { Driver: string; Config: Record<string, unknown> };
    /** A task that exits with a failure at once (the evaluate ForceReschedule test). */
    failingTask: { Driver: string; Config: Record<string, unknown> };
    /**
     * A task whose driver has file system isolation and one whose driver lacks it (the action
     * stream then also needs alloc-node-exec). Default: the upstream scheduler's exec and raw_exec.
     */
    actionTasks: Record<'isolated' | 'unisolated', { Driver: string; Config: Record<string, unknown> }>;
  };
  capabilities: Capabilities;
  /** Capabilities not set by file or environment: probed on an external target before the run. */
  probe: (keyof Capabilities)[];
  /** Capabilities the file or environment set: target preparation and probing never change them. */
  userCapabilities?: (keyof Capabilities)[];
  dialect: Dialect;
  timeouts: {
    /** Per HTTP request. */
    requestMs: number;
    /** Per test. */
    testMs: number;
    /** Per setup/cleanup hook. */
    hookMs: number;
    /**
     * Longest a test file waits for its domain locks (harness/domain-locks/): files ahead of it are bounded
     * by their own test and hook timeouts, so this only has to outlast a slow target's exclusive files.
     */
    lockWaitMs: number;
  };
  timing: {
    /** Longest real sleep a test may take when the target has no controllable clock. */
    maxRealWaitSeconds: number;
    /** Interval between two reads while polling for state a target reaches after answering. */
    pollMs: number;
    /** Longest a poll waits for that state (deployments, allocations, evaluations, GC). */
    settleSeconds: number;
  };
  limits: {
    /** The target's maximum request size in bytes (documents: 32 MB, tunable per listener). */
    maxRequestBytes: number;
  };
  lockout: {
    threshold: number;
    durationSeconds: number;
    resetSeconds: number;
    /** Run cases that must wait the full lockout duration against a real target. */
    allowLongWaits: boolean;
  };
  /**
   * Assumptions of the catalogue (entries of kind `assumption`, where the documents are silent)
   * switched off for this target: tests that check them are skipped, naming the setting.
   */
  assumptions: Record<string, boolean>;
  /** Existing mounts to use instead of creating run-unique ones (key: engine, value: path). */
  mounts: Record<string, string>;
  ldap?: LdapTarget;
  cloud?: CloudConfig;
  /** Target addresses the pre-flight check already reached (harness/setup/preflight.ts): not asked again. */
  preflighted?: string[];
  /** Suites whose prerequisites the harness could not provide, with the reason (their tests skip). */
  unavailable?: Record<string, { reason: string; setting: string }>;
  /** The spec-driven robustness suite (suites/robustness): its seed and budget. */
  robustness: {
    /** Seed of the generated requests; the same seed replays the same requests. Chosen at random when unset. */
    seed: number;
    /** Generated requests per rule and operation (a gate keeps this small). */
    examplesPerOperation: number;
    /** Wall-clock cap of the whole suite; operations reached after it get one request per rule. */
    timeCapSeconds: number;
    /**
     * Rules of independent operations in flight at once (harness/robustness/lanes.ts says which are
     * independent). The verdicts do not depend on it; the wall time does, against a remote target.
     */
    concurrency: number;
  };
  reference: {
    /** Fault switches of the embedded reference (mutation runs). */
    faults: string[];
    /** Legal variants of the embedded reference (behaviours the documents allow). */
    variants: string[];
    /** Version the embedded reference reports. */
    version: string;
  };
  run: {
    suites: string[];
    /** Run only these test files (mutation runs target the files naming the broken requirement). */
    files?: string[];
    reportDir: string;
    expectationsFile?: string;
    previousResults?: string;
    /** `i/n`: this run is one shard (set by `--shard`, recorded in results.json). */
    shard?: string;
    /** Exit 1 when the run is incomplete (a selected suite did not run, prerequisite skips). */
    requireComplete?: boolean;
    /**
     * What a difference from a catalogue assumption does (harness/config/schema.ts has the whole
     * description): `report` (default) counts it apart and the run does not fail on it; `strict`
     * fails the run on it like a violation.
     */
    assumptions?: AssumptionMode;
  };
}
