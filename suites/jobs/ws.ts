/**
 * A small client for the action stream (GET /v1/job/:job_id/action upgraded to a WebSocket):
 * sends the given frames once open and collects every output frame until the server closes.
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
}

export interface ActionOptions {
  query: Record<string, string | boolean | undefined>;
  /** Send the configured token as a header (default) or not at all. */
  tokenHeader?: boolean;
  token?: string;
  /** Frames sent right after the connection opens, in order. */
  send?: unknown[];
  timeoutMs?: number;
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
  return new Promise((resolve, reject) => {
    const run: ActionRun = { frames: [], invalid: [] };
    const ws = new WebSocket(url, { headers, handshakeTimeout: opts.timeoutMs ?? 5000 });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(
        new Error(
          `the action stream did not close within ${opts.timeoutMs ?? 5000} ms; frames so far: ${JSON.stringify(run.frames).slice(0, 500)}`,
        ),
      );
    }, opts.timeoutMs ?? 5000);
    ws.on('unexpected-response', (_req, res) => {
      run.refusedStatus = res.statusCode;
      res.resume();
      clearTimeout(timer);
      ws.terminate();
      resolve(run);
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
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      run.closeCode = code;
      resolve(run);
    });
    ws.on('error', (err) => {
      if (run.refusedStatus !== undefined) return;
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
