/**
 * A small client for the action stream (GET /v1/job/:job_id/action upgraded to a WebSocket):
 * sends the given frames once open and collects every output frame until the server closes, `until`
 * holds or `timeoutMs` passed (then `timedOut`: a stream left open is reported, not thrown).
 */
import WebSocket from 'ws';
import type { T } from '../../harness/index.js';

export interface ActionRun {
  /** HTTP status when the upgrade was refused. */
  refusedStatus?: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are open-ended (the documents' "other fields: not shown")
  frames: Record<string, any>[];
  /** Frames that were not JSON. */
  invalid: string[];
  closeCode?: number;
  /**
   * The stream was still open when the run stopped waiting (`timeoutMs`): it neither closed nor
   * met `until`. Not an error of the run: whether a stream must end is the frames rule's to judge
   * (checkFrames), and a test about something else reads what the frames show.
   */
  timedOut?: boolean;
}

export interface ActionOptions {
  query: Record<string, string | boolean | undefined>;
  /** Send the configured token as a header (default) or not at all. */
  tokenHeader?: boolean;
  token?: string;
  /** Frames sent right after the connection opens, in order. */
  send?: unknown[];
  timeoutMs?: number;
  /**
   * Stop reading (and close the connection) as soon as this holds of what came so far: a test that
   * needs only the action's output, not the end of the stream, does not wait for the end.
   */
  until?: (run: ActionRun) => boolean;
}

/**
 * The action URL. The document's table names the allocation `alloc_id` and its sample upgrade
 * request spells it `allocID`: both are sent, so a scheduler reading either gets it.
 */
export function actionUrl(t: T, jobId: string, query: ActionOptions['query']): string {
  const base = t.config.sched.addr.replace(/\/+$/, '').replace(/^http/, 'ws');
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
  if (query.alloc_id !== undefined && !('allocID' in query)) qs.set('allocID', String(query.alloc_id));
  return `${base}/v1/job/${encodeURIComponent(jobId)}/action?${qs}`;
}

export function runAction(t: T, jobId: string, opts: ActionOptions): Promise<ActionRun> {
  const headers: Record<string, string> = {};
  const token = opts.token ?? t.config.sched.token;
  if (opts.tokenHeader !== false && token) headers[t.config.dialect.schedTokenHeader] = token;
  const url = actionUrl(t, jobId, opts.query);
  t.note(`WebSocket ${url.replace(/auth_token=[^&]*/g, 'auth_token=***')}`);
  const timeoutMs = opts.timeoutMs ?? 5000;
  return new Promise((resolve, reject) => {
    const run: ActionRun = { frames: [], invalid: [] };
    const ws = new WebSocket(url, { headers, handshakeTimeout: timeoutMs });
    let settled = false;
    const finish = (patch: Partial<ActionRun> = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      Object.assign(run, patch);
      resolve(run);
    };
    const timer = setTimeout(() => {
      ws.terminate();
      finish({ timedOut: true });
    }, timeoutMs);
    ws.on('unexpected-response', (_req, res) => {
      run.refusedStatus = res.statusCode;
      res.resume();
      ws.terminate();
      finish();
    });
    ws.on('open', () => {
      for (const f of opts.send ?? []) ws.send(JSON.stringify(f));
    });
    ws.on('message', (data) => {
      const text = data.toString();
      try {
        run.frames.push(JSON.parse(text) as (typeof run.frames)[number]);
      } catch {
        run.invalid.push(text);
      }
      if (opts.until?.(run)) {
        ws.terminate();
        finish();
      }
    });
    ws.on('close', (code) => finish({ closeCode: code }));
    ws.on('error', (err) => {
      if (run.refusedStatus !== undefined || settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The bytes of every stdout data frame, decoded and joined. */
export function stdoutText(run: ActionRun): string {
  return run.frames
    .filter((f) => typeof f.stdout?.data === 'string')
    .map((f) => Buffer.from(f.stdout.data, 'base64').toString('utf8'))
    .join('');
}

/** The action ran: the upgrade was accepted and it produced output or its exited frame. */
export function ranAction(run: ActionRun): boolean {
  return (
    run.refusedStatus === undefined && run.frames.some((f) => f.exited === true || typeof f.stdout?.data === 'string')
  );
}

/** Stops a run once the action's whole line of output (`text` and a line end) or its exited frame came. */
export const outputLine =
  (text: string) =>
  (run: ActionRun): boolean =>
    run.frames.some((f) => f.exited === true) || new RegExp(`${text}\\r?\\n`).test(stdoutText(run));
