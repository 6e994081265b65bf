import { cloudConfigSchema } from '../cloud/config.js';

/** JSON schema of the target configuration; a violation names the setting and where it came from. */
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const posInt = { type: 'integer', minimum: 1 } as const;
const nonNegInt = { type: 'integer', minimum: 0 } as const;
const httpUrl = { type: 'string', pattern: '^https?://[^\\s/]+(/.*)?$' } as const;
const headerName = { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" } as const;
/** A name map: documents' name -> target's name (non-empty strings). */
const nameMap = {
  type: 'object',
  additionalProperties: { type: 'string', minLength: 1 },
  propertyNames: { minLength: 1 },
} as const;
/** Renames inside one scope (harness/dialect/names.ts ScopeNames). */
const scopeNames = {
  type: 'object',
  additionalProperties: false,
  properties: { fields: nameMap, values: { type: 'object', additionalProperties: nameMap } },
} as const;
const envName = {
  type: 'object',
  additionalProperties: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
} as const;
/** dialect.names: one block per API so each side of a profile stands alone. */
const namesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    svc: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mountTypes: nameMap,
        engines: { type: 'object', additionalProperties: scopeNames },
        env: envName,
      },
    },
    sched: {
      type: 'object',
      additionalProperties: false,
      properties: { ...scopeNames.properties, env: envName },
    },
  },
} as const;

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
    runId: { type: 'string', pattern: '^[a-z0-9]{4,12}$' },
    prefix: { type: 'string', pattern: '^[a-z][a-z0-9-]{1,30}$' },
    embedded: bool,
    schedEmbedded: bool,
    svc: {
      type: 'object',
      additionalProperties: false,
      required: ['addr', 'token', 'namespace', 'skipVerify', 'version'],
      properties: {
        addr: { anyOf: [httpUrl, { const: '' }] },
        token: str,
        namespace: { type: 'string', pattern: '^([A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*)?/?$' },
        cacert: str,
        skipVerify: bool,
        // '' = unknown: taken from dialect.versionProbe, else version-gated tests are not applicable.
        version: { anyOf: [{ type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+([-+].*)?$' }, { const: '' }] },
        versionSource: str,
      },
    },
    sched: {
      type: 'object',
      additionalProperties: false,
      required: ['addr', 'token', 'provisioner', 'tokens', 'namespaces', 'runningTask'],
      properties: {
        addr: { anyOf: [httpUrl, { const: '' }] },
        token: str,
        provisioner: { enum: ['', 'reference', 'upstream', 'config'] },
        tokens: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['secret', 'namespace', 'capabilities'],
            properties: {
              secret: { type: 'string', minLength: 1 },
              namespace: { type: 'string', minLength: 1 },
              capabilities: { type: 'array', items: str },
            },
          },
        },
        namespaces: { type: 'array', items: { type: 'string', pattern: '^[a-zA-Z0-9-]{1,128}$' } },
        runningTask: {
          type: 'object',
          additionalProperties: false,
          required: ['Driver', 'Config'],
          properties: { Driver: { type: 'string', minLength: 1 }, Config: { type: 'object' } },
        },
      },
    },
    capabilities: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        [
          'namespaces',
          'enterprise',
          'cmac',
          'managedKeys',
          'sealRandom',
          'clock',
          'mounts',
          'requireRequestHeader',
          'referenceControl',
          'schedAcl',
          'schedControl',
        ].map((k) => [k, bool]),
      ),
    },
    probe: { type: 'array', items: { type: 'string' } },
    userCapabilities: { type: 'array', items: { type: 'string' } },
    dialect: {
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
        tokenHeader: headerName,
        namespaceHeader: headerName,
        requestHeader: headerName,
        nextTokenHeader: headerName,
        schedTokenHeader: headerName,
        outputPrefix: { type: 'string', pattern: '^[a-z][a-z0-9]*$' },
        names: namesSchema,
        versionProbe: {
          type: 'object',
          additionalProperties: false,
          required: ['path', 'pointer'],
          properties: {
            path: { type: 'string', pattern: '^[A-Za-z0-9_./-]+$' },
            pointer: { type: 'string', pattern: '^(/[^/]+)+$' },
          },
        },
      },
    },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      required: ['requestMs', 'testMs', 'hookMs'],
      properties: { requestMs: posInt, testMs: posInt, hookMs: posInt, lockWaitMs: posInt },
    },
    timing: {
      type: 'object',
      additionalProperties: false,
      required: ['maxRealWaitSeconds', 'pollMs', 'settleSeconds'],
      properties: {
        maxRealWaitSeconds: nonNegInt,
        pollMs: { type: 'integer', minimum: 10, maximum: 60_000 },
        settleSeconds: posInt,
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      required: ['maxRequestBytes'],
      properties: { maxRequestBytes: posInt },
    },
    lockout: {
      type: 'object',
      additionalProperties: false,
      required: ['threshold', 'durationSeconds', 'resetSeconds', 'allowLongWaits'],
      properties: { threshold: posInt, durationSeconds: posInt, resetSeconds: posInt, allowLongWaits: bool },
    },
    mounts: { type: 'object', additionalProperties: { type: 'string', pattern: '^[A-Za-z0-9_./-]+$' } },
    assumptions: { type: 'object', additionalProperties: { type: 'boolean' } },
    ldap: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'bindDn', 'bindPass'],
      properties: {
        url: { type: 'string', pattern: '^ldaps?://' },
        bindDn: str,
        bindPass: str,
        baseDn: str,
        userDn: str,
        groupDn: str,
        serviceAccounts: { type: 'array', items: str },
        users: { type: 'array', items: str },
        started: bool,
      },
    },
    cloud: cloudConfigSchema,
    unavailable: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['reason', 'setting'],
        properties: { reason: { type: 'string' }, setting: { type: 'string' } },
      },
    },
    reference: {
      type: 'object',
      additionalProperties: false,
      required: ['faults', 'version'],
      properties: {
        faults: { type: 'array', items: str },
        variants: { type: 'array', items: str },
        version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+' },
      },
    },
    robustness: {
      type: 'object',
      additionalProperties: false,
      required: ['seed', 'examplesPerOperation', 'timeCapSeconds', 'concurrency'],
      properties: {
        seed: { type: 'integer', minimum: 0, maximum: 2147483647 },
        examplesPerOperation: { type: 'integer', minimum: 1, maximum: 10000 },
        timeCapSeconds: { type: 'integer', minimum: 1 },
        concurrency: { type: 'integer', minimum: 1, maximum: 64 },
      },
    },
    run: {
      type: 'object',
      additionalProperties: false,
      required: ['suites', 'reportDir'],
      properties: {
        suites: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } },
        // Suite files, or the harness's own fixture suites (tests/harness/fixtures/*.suite.ts).
        files: {
          type: 'array',
          items: {
            type: 'string',
            pattern: '^(suites/.+\\.test\\.ts|tests/harness/fixtures/[a-z0-9-]+\\.suite\\.ts)$',
          },
        },
        reportDir: { type: 'string', minLength: 1 },
        expectationsFile: str,
        previousResults: str,
        requireComplete: bool,
      },
    },
  },
} as const;
