/**
 * Impact analysis for the mutation run: which switches each test of a clean run reaches
 * (harness/cli/mutation-plan.ts reads the result). A traced reference (`startReference({ trace:
 * true })`) runs every request in the context its sender names in the `x-conformance-trace` header
 * (the harness's mutation workers send `test:<file> > <title>`, or `file:<file>` for a file's set-up
 * and cleanup); the switch tables (switches.ts, traceSwitches) report each switch that is off at
 * the moments it would have changed something, and this module keeps them per context. A request
 * the reference sends itself (the cloud engine to its directory) carries the context on; work done
 * outside any request (a start, a timer started at start) is kept under ''.
 *
 * The tracer is one per thread (the tables' switches are module state): every reference of the
 * thread built while tracing is on is traced, so traced and untraced references never run side by
 * side in one thread (compose/reference-host.ts runs the traced ones alone).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { TRACE_HEADER } from '../contract/reference-host.js';
import { traceSwitches } from './switches.js';

interface Tracing {
  users: number;
  end(): void;
}

let tracing: Tracing | undefined;
/** Per context, the switches reached: kept after the traced references stopped, until taken. */
const seen = new Map<string, Set<string>>();

type Headers = Record<string, string | string[] | undefined>;

/** Starts tracing in this thread (or joins it); the returned function leaves it. */
export function joinTracing(): () => void {
  if (!tracing) tracing = startTracing();
  const t = tracing;
  t.users++;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    if (--t.users === 0) {
      t.end();
      if (tracing === t) tracing = undefined;
    }
  };
}

/** Whether references built now are traced. */
export function tracingOn(): boolean {
  return tracing !== undefined;
}

/** What the traced references of this thread reached so far, per context; then forgets it. */
export function takeReach(): Record<string, string[]> {
  const out = Object.fromEntries([...seen].map(([k, v]) => [k, [...v].sort()]));
  seen.clear();
  return out;
}

function startTracing(): Tracing {
  const als = new AsyncLocalStorage<string>();
  // Each request the servers of this thread receive runs in its sender's context.
  const onRequest = (message: unknown) => {
    const { request } = message as { request: { headers: Headers } };
    const named = request.headers[TRACE_HEADER];
    als.enterWith(typeof named === 'string' ? named : '');
  };
  // A request the reference sends itself (fetch) carries the context on.
  const onFetch = (message: unknown) => {
    const { request } = message as { request: { addHeader(name: string, value: string): void } };
    const context = als.getStore();
    if (context) request.addHeader(TRACE_HEADER, context);
  };
  diagnostics.subscribe('http.server.request.start', onRequest);
  diagnostics.subscribe('undici:request:create', onFetch);
  traceSwitches({
    reached(name) {
      const context = als.getStore() ?? '';
      let names = seen.get(context);
      if (!names) seen.set(context, (names = new Set()));
      names.add(name);
    },
  });
  return {
    users: 0,
    end() {
      diagnostics.unsubscribe('http.server.request.start', onRequest);
      diagnostics.unsubscribe('undici:request:create', onFetch);
      traceSwitches(undefined);
    },
  };
}
