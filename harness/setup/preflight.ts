/**
 * The pre-flight check: before any suite starts, each target the run talks to is reached once,
 * with one bounded request, so a target that is down, behind a TLS error or given a wrong token
 * ends the run at once with one message naming the setting, instead of one connection failure per
 * test. Secrets service: `GET auth/token/lookup-self` with the configured token (401/403 = the
 * token). Scheduler: `GET /v1/jobs` (a cheap read every token with list-jobs may make; 401/403 =
 * the token), and where the provisioner drives the product's own ACL API its token self-read.
 * Anything else the target answers passes: judging answers is the suites' business.
 */
import { envOf, settingName } from '../config/settings.js';
import type { TargetConfig } from '../config/types.js';
import { ApiClient, TransportError } from '../http/client.js';
import { redactor } from '../redaction/redact.js';

/** Longest a pre-flight request waits: a target that needs longer is reported as not answering. */
export const PREFLIGHT_TIMEOUT_MS = 5000;

/** Why the run cannot start against this target, and the setting that fixes it. */
export class PreflightFailure extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'PreflightFailure';
  }
}

/** What to ask a scheduler besides `GET /v1/jobs`: the token self-read of a provisioner that has one. */
export const SCHED_SELF_READ: Record<string, string | undefined> = {
  // The upstream product's ACL API (the `upstream` provisioner drives it with sched.token).
  upstream: 'acl/token/self',
};

/**
 * Certificate errors (self-signed, unknown issuer, expired, wrong name): the CA setting. Other TLS
 * failures (https to a plain HTTP port: EPROTO) are the address's.
 */
const CERTIFICATE = /CERT|self[- ]signed|certificate|unable to verify|UNABLE_TO_/i;

function transportSetting(err: TransportError, api: 'svc' | 'sched'): { setting: string; what: string } {
  const message = err.message;
  if (api === 'svc' && CERTIFICATE.test(message))
    return {
      setting: envOf('svc.cacert'),
      what: `failed the TLS handshake (${settingName('svc.cacert')} names the CA that signed its certificate)`,
    };
  if (/no response within/.test(message))
    return {
      setting: envOf(`${api}.addr`),
      what: `did not answer within ${PREFLIGHT_TIMEOUT_MS} ms (timed out)`,
    };
  return { setting: envOf(`${api}.addr`), what: 'could not be reached' };
}

async function ask(
  client: ApiClient,
  api: 'svc' | 'sched',
  path: string,
  addr: string,
  tokenSetting: string,
): Promise<void> {
  const label = api === 'svc' ? 'the secrets service' : 'the scheduler';
  let status: number;
  let detail = '';
  try {
    const ex = await client.get(path, { timeoutMs: PREFLIGHT_TIMEOUT_MS, validate: false });
    status = ex.response.status;
    const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
    detail = Array.isArray(errors) && errors.length ? `: ${errors.slice(0, 2).join('; ')}` : '';
  } catch (err) {
    if (!(err instanceof TransportError)) throw err;
    const { setting, what } = transportSetting(err, api);
    // The transport error without the request line and the client's own hint (the setting is named here).
    const reason = err.message.replace(/^\S+ \S+ failed: /, '').replace(/ \(target from [A-Z_]+\)$/, '');
    throw new PreflightFailure(
      setting,
      redactor.text(`pre-flight: ${label} at ${addr} ${what} (setting ${setting}): GET /v1/${path}: ${reason}`),
    );
  }
  if (status === 401 || status === 403)
    throw new PreflightFailure(
      tokenSetting,
      redactor.text(
        `pre-flight: ${label} at ${addr} refused the configured token: GET /v1/${path} answered ${status}${detail} (setting ${tokenSetting})`,
      ),
    );
}

/**
 * Reaches every target of the run once; throws PreflightFailure naming the setting when one cannot
 * be used. The embedded reference is asked like any other target (and passes).
 */
export async function preflight(cfg: TargetConfig, opts: { sched: boolean }): Promise<void> {
  const bounded: TargetConfig = {
    ...cfg,
    timeouts: { ...cfg.timeouts, requestMs: Math.min(cfg.timeouts.requestMs, PREFLIGHT_TIMEOUT_MS) },
  };
  // The command line asks an external target before vitest starts (harness/cli/run.ts): once is enough.
  const done = new Set(cfg.preflighted ?? []);
  if (cfg.svc.addr && !done.has(cfg.svc.addr)) {
    const svc = new ApiClient('svc', bounded, () => {});
    await ask(svc, 'svc', 'auth/token/lookup-self', cfg.svc.addr, envOf('svc.token'));
  }
  if (opts.sched && cfg.sched.addr && !done.has(cfg.sched.addr)) {
    const sched = new ApiClient('sched', bounded, () => {});
    await ask(sched, 'sched', 'jobs', cfg.sched.addr, envOf('sched.token'));
    const self = SCHED_SELF_READ[cfg.sched.provisioner || 'reference'];
    if (self) await ask(sched, 'sched', self, cfg.sched.addr, envOf('sched.token'));
  }
}
