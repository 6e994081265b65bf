/**
 * The API clients a test or a suite's set-up gets (`t.svc`, `t.sched`): every exchange is renamed
 * through the target's dialect, matched against the spec (findings go to a ledger, not to the
 * test), guarded against moving a domain the file does not hold exclusively, and recorded in the
 * transcript with secrets masked.
 */
import { inject } from 'vitest';
import { observeAgainstSpec, specPath } from '../checks/schema.js';
import type { TargetConfig } from '../config/types.js';
import { NameTranslator } from '../dialect/names.js';
import { currentLease, type HeldLease } from '../domain-locks/current.js';
import { globalEffect, guardGlobal, type InFileOrder } from '../domain-locks/declarations.js';
import { ApiClient } from '../http/client.js';
import type { Transcript } from '../http/transcript.js';
import { redactor } from '../redaction/redact.js';
import { mergeObservations, type SpecObservation } from '../spec/findings.js';
import { mountAliases } from '../spec/mount-aliases.js';
import type { SpecRegistry } from '../spec/registry.js';

/** The dialect's names for one API; paths are scoped by the documents' mount they fall under. */
export function namesOf(api: 'svc' | 'sched', cfg: TargetConfig): NameTranslator {
  return new NameTranslator(api, cfg.dialect.names, (p) => specPath(p, { mountAliases, namespace: cfg.svc.namespace }));
}

/**
 * The domain locks this worker's file holds, for the guard: undefined outside the harness's
 * project (no lock service, nothing to guard); a lease holding nothing when the lock service runs
 * but the file took no lease (the setup file did not run for it), so such a file moves nothing.
 */
export function heldLease(): HeldLease | undefined {
  const lease = currentLease();
  if (lease) return lease;
  let running = false;
  try {
    running = inject('conformanceLocks') !== undefined;
  } catch {
    // Not inside a vitest worker.
  }
  return running ? { label: 'this file (it took no lease)', wants: {} } : undefined;
}

/** Spec observations of one test (or one file's setup), merged per operation and status. */
export class SpecLedger {
  private readonly byKey = new Map<string, SpecObservation>();

  record(obs: SpecObservation): void {
    mergeObservations(this.byKey, {
      ...obs,
      // Findings carry pieces of response bodies: mask secret fields by name and remembered values.
      findings: obs.findings.map((f) => ({ ...f, actual: safeActual(f.pointer, f.actual) })),
    });
  }

  get observations(): SpecObservation[] {
    return [...this.byKey.values()];
  }
}

function safeActual(pointer: string, actual: unknown): unknown {
  const last = pointer.split('/').pop() ?? '';
  if (actual !== undefined && redactor.isSecretField(last)) return '[REDACTED]';
  const masked = redactor.value(actual);
  const text = typeof masked === 'string' ? masked : JSON.stringify(masked);
  return text !== undefined && text.length > 300 ? `${text.slice(0, 300)}…` : masked;
}

export function makeClient(
  api: 'svc' | 'sched',
  cfg: TargetConfig,
  registry: SpecRegistry,
  transcript: () => Transcript | undefined,
  ledger: () => SpecLedger | undefined,
  order?: InFileOrder,
): ApiClient {
  const names = namesOf(api, cfg);
  return new ApiClient(
    api,
    cfg,
    (ex, validate) => {
      if (api === 'svc') {
        // Remember secrets the target handed out (passwords, client secrets, tokens) before recording.
        redactor.remember(ex.response.body);
      }
      if (validate) {
        // A spec finding is evidence for the operation's schema requirement, not a failure of the
        // test that happened to send the request (checks that assert the shape consult ex.spec).
        const result = observeAgainstSpec(ex, registry, { mountAliases, namespace: cfg.svc.namespace });
        ex.operation = result.operation;
        ex.spec = result.observation;
        const observed = result.observation;
        // An answer that broke the spec keeps its exchange: the schema result's curl reproduction.
        if (observed)
          ledger()?.record(
            observed.findings.length && transcript() ? { ...observed, example: transcript()!.entryOf(ex) } : observed,
          );
      }
      transcript()?.exchange(ex);
    },
    names.identity ? undefined : names,
    (method, path) => {
      // Checked before anything is sent: a file moves only the domains it holds exclusively.
      const effect = globalEffect(api, method, path);
      if (effect) guardGlobal(heldLease(), effect.domain, effect.what, order);
    },
  );
}
