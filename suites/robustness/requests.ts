/**
 * The concrete requests of the robustness suite: a generated case of an operation becomes a
 * method, a path inside the family's run-unique fixtures, a query and a body, sent through a
 * client that counts every answer (the run's figures) and remembers what the target handed out
 * as secret.
 */
import { ApiClient, namesOf, redactor, type TargetConfig } from '../../harness/index.js';
import type { Case, Operation, SentRequest, Sender } from '../../harness/robustness/index.js';
import type { Family, OpTweak } from './families.js';

export type Clients = Record<'svc' | 'sched', ApiClient>;

/** One client per API; `counter` counts every answer of the whole suite. */
export function suiteClients(cfg: TargetConfig, counter: { requests: number }): Clients {
  const clientFor = (api: 'svc' | 'sched'): ApiClient => {
    // The profile's names (engine types, fields) apply to generated requests as to every suite's.
    const names = namesOf(api, cfg);
    return new ApiClient(
      api,
      cfg,
      (ex) => {
        counter.requests++;
        // Remember what the target handed out as secret (tokens, passwords) so reports mask it.
        if (api === 'svc') redactor.value(ex.response.body);
      },
      names.identity ? undefined : names,
    );
  };
  return { svc: clientFor('svc'), sched: clientFor('sched') };
}

/** The value of one path parameter for an operation: the operation's own, the family's, or a made-up name. */
export function paramValue(cfg: TargetConfig, fam: Family, tweak: OpTweak, name: string): string {
  return tweak.params?.[name] ?? fam.params[name] ?? `${cfg.prefix}-rb-${name}`;
}

function pathOf(cfg: TargetConfig, op: Operation, fam: Family, tweak: OpTweak, unknownName: boolean): string {
  let tpl = op.api === 'sched' ? op.template.replace(/^\/v1/, '') : op.template;
  for (const [def, real] of Object.entries(fam.mounts).sort((a, b) => b[0].length - a[0].length)) {
    if (tpl === `/${def}` || tpl.startsWith(`/${def}/`)) {
      tpl = `/${tweak.mount ?? real}${tpl.slice(def.length + 1)}`;
      break;
    }
  }
  const slashy = new Set(
    ((op.op.parameters ?? []) as { name: string; in: string; 'x-allow-slashes'?: boolean }[])
      .filter((p) => p['x-allow-slashes'])
      .map((p) => p.name),
  );
  return tpl.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = unknownName ? `${cfg.prefix}-rb-none` : paramValue(cfg, fam, tweak, name);
    return slashy.has(name) ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
}

/** Sends the cases of one operation; `counter` counts the answers for the rule it works for. */
export function senderFor(
  cfg: TargetConfig,
  clients: Clients,
  op: Operation,
  fam: Family,
  tweak: OpTweak,
  counter: { requests: number },
): Sender {
  return {
    client: clients[op.api],
    counter,
    request: (c: Case): SentRequest => ({
      method: op.method,
      path: pathOf(cfg, op, fam, tweak, !!c.unknownName),
      query: c.query,
      ...(c.raw !== undefined ? { raw: c.raw, contentType: c.contentType } : {}),
      ...(c.raw === undefined && c.body !== undefined
        ? { body: c.body, ...(c.contentType !== undefined ? { contentType: c.contentType } : {}) }
        : {}),
    }),
  };
}

/** 5xx statuses the spec documents for the operation or its PUT/POST twin on the same path. */
export function documented5xx(operations: readonly Operation[], op: Operation): Set<number> {
  const twins = ['PUT', 'POST'].includes(op.method)
    ? operations.filter((o) => o.api === op.api && o.template === op.template && ['PUT', 'POST'].includes(o.method))
    : [op];
  return new Set(
    twins.flatMap((o) =>
      Object.keys(o.op.responses ?? {})
        .filter((k) => /^5\d\d$/.test(k))
        .map(Number),
    ),
  );
}
