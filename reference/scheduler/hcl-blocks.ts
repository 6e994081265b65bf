/**
 * The blocks of a job in the configuration language, as the HCL parser gives them (a block is a
 * list of bodies, a labelled block a map of label to bodies), turned into the API's JSON shapes:
 * snake_case to PascalCase, duration strings to integer nanoseconds, user maps to string maps.
 * hcl.ts assembles the job from them.
 */
import { badRequest } from './errors.js';
import { isObj } from './job.js';

export type Obj = Record<string, unknown>;

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Go-style duration text ("1m30s", "250ms") to integer nanoseconds. */
export function parseDuration(v: unknown, where: string): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v !== 'string')
    throw badRequest(`Failed to parse job: ${where}: expected a duration, got ${JSON.stringify(v)}`);
  if (v === '0') return 0;
  const re = /([0-9]*\.?[0-9]+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let pos = 0;
  while ((m = re.exec(v))) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos !== v.length || pos === 0)
    throw badRequest(`Failed to parse job: ${where}: invalid duration ${JSON.stringify(v)}`);
  return Math.round(total);
}

export const pascal = (k: string) =>
  k
    .split('_')
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('');

/** One block's body: hcl2json writes a block as a list of bodies. */
export const body = (v: unknown): Obj => (Array.isArray(v) ? ((v[0] as Obj) ?? {}) : isObj(v) ? (v as Obj) : {});
export const bodies = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : isObj(v) ? [v as Obj] : []);
/** Labelled blocks (`group "x" {}`) arrive as {label: [body]}; keeps HCL order. */
export const labelled = (v: unknown): Array<[string, Obj]> => {
  const out: Array<[string, Obj]> = [];
  for (const m of bodies(v))
    for (const [label, b] of Object.entries(m)) for (const one of bodies(b)) out.push([label, one]);
  return out;
};
/** A user map (meta, env, config) given as an attribute or a block. */
const userMap = (v: unknown): Obj | null =>
  v === undefined ? null : Array.isArray(v) ? Object.assign({}, ...v.filter(isObj)) : isObj(v) ? v : null;
/** meta and env are string maps: the configuration language turns numbers and booleans into text. */
export const stringMap = (v: unknown): Obj | null => {
  const m = userMap(v);
  return (
    m &&
    Object.fromEntries(
      Object.entries(m).map(([k, x]) => [k, typeof x === 'number' || typeof x === 'boolean' ? String(x) : x]),
    )
  );
};

export function generic(b: Obj, durations: string[], renames: Record<string, string> = {}): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(b)) {
    const key = renames[k] ?? pascal(k);
    out[key] = durations.includes(k) ? parseDuration(v, k) : v;
  }
  return out;
}

export const constraint = (b: Obj): Obj => ({
  LTarget: b.attribute ?? '',
  RTarget: b.value ?? '',
  Operand: b.operator ?? '=',
});
export const affinity = (b: Obj): Obj => ({ ...constraint(b), Weight: b.weight ?? 50 });
export const spread = (b: Obj): Obj => ({
  Attribute: b.attribute ?? '',
  Weight: b.weight ?? 0,
  SpreadTarget: bodies(b.target).length
    ? labelled(b.target).map(([v, t]) => ({ Value: v, Percent: t.percent ?? 0 }))
    : null,
});
const UPDATE_D = ['stagger', 'min_healthy_time', 'healthy_deadline', 'progress_deadline'];
export const update = (b: Obj): Obj => generic(b, UPDATE_D);
const restart = (b: Obj): Obj => generic(b, ['interval', 'delay']);
export const reschedule = (b: Obj): Obj => generic(b, ['interval', 'delay', 'max_delay']);
export const migrate = (b: Obj): Obj => generic(b, ['min_healthy_time', 'healthy_deadline']);

function service(b: Obj): Obj {
  const out: Obj = {
    Name: b.name ?? '',
    PortLabel: b.port !== undefined ? String(b.port) : '',
    Tags: b.tags ?? null,
    Provider: b.provider ?? 'consul',
    AddressMode: b.address_mode ?? 'auto',
    Meta: userMap(b.meta),
  };
  const checks = bodies(b.check).map((c) => ({
    Name: c.name ?? '',
    Type: c.type ?? '',
    Command: c.command ?? '',
    Args: c.args ?? null,
    Path: c.path ?? '',
    Protocol: c.protocol ?? '',
    PortLabel: c.port ?? '',
    Interval: c.interval !== undefined ? parseDuration(c.interval, 'check.interval') : 0,
    Timeout: c.timeout !== undefined ? parseDuration(c.timeout, 'check.timeout') : 0,
    InitialStatus: c.initial_status ?? '',
  }));
  out.Checks = checks.length ? checks : null;
  return out;
}

function network(b: Obj): Obj {
  const dynamic: Obj[] = [];
  const reserved: Obj[] = [];
  for (const [label, p] of labelled(b.port)) {
    const port = { Label: label, Value: p.static ?? 0, To: p.to ?? 0, HostNetwork: p.host_network ?? 'default' };
    (p.static !== undefined ? reserved : dynamic).push(port);
  }
  return {
    Mode: b.mode ?? '',
    Device: '',
    CIDR: '',
    IP: '',
    MBits: b.mbits ?? 0,
    DNS: b.dns ? generic(body(b.dns), []) : null,
    ReservedPorts: reserved.length ? reserved : null,
    DynamicPorts: dynamic.length ? dynamic : null,
  };
}

function task(name: string, b: Obj): Obj {
  const t: Obj = { Name: name };
  for (const [k, v] of Object.entries(b)) {
    switch (k) {
      case 'driver':
        t.Driver = v;
        break;
      case 'user':
        t.User = v;
        break;
      case 'config':
        t.Config = userMap(v);
        break;
      case 'env':
        t.Env = stringMap(v);
        break;
      case 'meta':
        t.Meta = stringMap(v);
        break;
      case 'service':
        t.Services = bodies(v).map(service);
        break;
      case 'constraint':
        t.Constraints = bodies(v).map(constraint);
        break;
      case 'affinity':
        t.Affinities = bodies(v).map(affinity);
        break;
      case 'restart':
        t.RestartPolicy = restart(body(v));
        break;
      case 'kill_timeout':
        t.KillTimeout = parseDuration(v, k);
        break;
      case 'shutdown_delay':
        t.ShutdownDelay = parseDuration(v, k);
        break;
      case 'kill_signal':
        t.KillSignal = v;
        break;
      case 'leader':
        t.Leader = v;
        break;
      case 'kind':
        t.Kind = v;
        break;
      case 'resources': {
        const r = body(v);
        t.Resources = { CPU: r.cpu, MemoryMB: r.memory, MemoryMaxMB: r.memory_max, Cores: r.cores, DiskMB: r.disk };
        for (const key of Object.keys(t.Resources as Obj))
          if ((t.Resources as Obj)[key] === undefined) delete (t.Resources as Obj)[key];
        break;
      }
      case 'dispatch_payload':
        t.DispatchPayload = { File: body(v).file ?? '' };
        break;
      case 'logs': {
        const l = body(v);
        t.LogConfig = {
          Disabled: l.disabled ?? false,
          MaxFiles: l.max_files ?? 10,
          MaxFileSizeMB: l.max_file_size ?? 10,
        };
        break;
      }
      case 'template':
        t.Templates = bodies(v).map((x) => ({
          SourcePath: x.source ?? '',
          DestPath: x.destination ?? '',
          EmbeddedTmpl: x.data ?? '',
          ChangeMode: x.change_mode ?? 'restart',
          ChangeSignal: x.change_signal ?? '',
          Splay: x.splay !== undefined ? parseDuration(x.splay, 'splay') : 5e9,
          Perms: x.perms ?? '0644',
        }));
        break;
      case 'artifact':
        t.Artifacts = bodies(v).map((x) => ({
          GetterSource: x.source ?? '',
          GetterOptions: userMap(x.options),
          RelativeDest: x.destination ?? 'local/',
        }));
        break;
      case 'lifecycle': {
        const l = body(v);
        t.Lifecycle = { Hook: l.hook ?? '', Sidecar: l.sidecar ?? false };
        break;
      }
      case 'action':
        t.Actions = labelled(v).map(([n, a]) => ({ Name: n, Command: a.command ?? '', Args: a.args ?? null }));
        break;
      case 'vault':
        t.Vault = generic(body(v), []);
        break;
      default:
        t[pascal(k)] = Array.isArray(v) && v.every(isObj) ? generic(body(v), []) : v;
    }
  }
  return t;
}

export function group(name: string, b: Obj): Obj {
  const g: Obj = { Name: name };
  for (const [k, v] of Object.entries(b)) {
    switch (k) {
      case 'count':
        g.Count = v;
        break;
      case 'meta':
        g.Meta = stringMap(v);
        break;
      case 'constraint':
        g.Constraints = bodies(v).map(constraint);
        break;
      case 'affinity':
        g.Affinities = bodies(v).map(affinity);
        break;
      case 'spread':
        g.Spreads = bodies(v).map(spread);
        break;
      case 'restart':
        g.RestartPolicy = restart(body(v));
        break;
      case 'reschedule':
        g.ReschedulePolicy = reschedule(body(v));
        break;
      case 'migrate':
        g.Migrate = migrate(body(v));
        break;
      case 'update':
        g.Update = update(body(v));
        break;
      case 'ephemeral_disk': {
        const e = body(v);
        g.EphemeralDisk = { Sticky: e.sticky ?? false, SizeMB: e.size ?? 300, Migrate: e.migrate ?? false };
        break;
      }
      case 'network':
        g.Networks = bodies(v).map(network);
        break;
      case 'service':
        g.Services = bodies(v).map(service);
        break;
      case 'task':
        g.Tasks = labelled(v).map(([n, t]) => task(n, t));
        break;
      case 'scaling':
        g.Scaling = generic(body(v), []);
        break;
      case 'shutdown_delay':
      case 'max_client_disconnect':
      case 'stop_after_client_disconnect':
        g[pascal(k)] = parseDuration(v, k);
        break;
      case 'volume':
        g.Volumes = Object.fromEntries(labelled(v).map(([n, x]) => [n, { Name: n, ...generic(x, []) }]));
        break;
      default:
        g[pascal(k)] = Array.isArray(v) && v.every(isObj) ? generic(body(v), []) : v;
    }
  }
  return g;
}
