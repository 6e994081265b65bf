/**
 * Batch semantics shared by every batch operation: results in input order, `reference` echoed, an
 * `error` per failed item, 400 on partial failure unless partial_failure_response_code, and an
 * error status when every item fails.
 */
import { randomUUID } from 'node:crypto';
import type { Faults } from '../../../faults.js';
import type { EngineResponse } from '../../engine.js';
import { SvcError } from '../../errors.js';
import type { Body } from './params.js';

/** How a batch answer is shaped where the documents leave a choice (legal variants). */
export interface BatchShape {
  /** Status of a partial failure without partial_failure_response_code (400, or 200 for a variant). */
  partialStatus: number;
  /** The 400 body is the envelope with data.batch_results only, without a top-level `errors`. */
  envelopeOnly: boolean;
  /** A result whose item had no reference carries no `reference` field. */
  omitEmptyReference: boolean;
}

const PLAIN: BatchShape = { partialStatus: 400, envelopeOnly: false, omitEmptyReference: false };

export async function runBatch(
  items: unknown[],
  faults: Faults,
  partialCode: number | undefined,
  fn: (item: Body, index: number) => Promise<Record<string, unknown>> | Record<string, unknown>,
  shape: BatchShape = PLAIN,
): Promise<EngineResponse> {
  const results: Record<string, unknown>[] = [];
  const errors: string[] = [];
  for (const [i, raw] of items.entries()) {
    const item = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Body) : undefined;
    const reference = item && typeof item.reference === 'string' ? item.reference : '';
    const echo =
      faults.has('transit.batch-reference-dropped') || (shape.omitEmptyReference && reference === '')
        ? {}
        : { reference };
    try {
      if (!item) throw new SvcError(400, ['batch item must be an object']);
      results.push({ ...(await fn(item, i)), ...echo });
    } catch (err) {
      const message = err instanceof SvcError ? err.messages.join('; ') : 'internal error processing the item';
      results.push(faults.has('transit.batch-error-dropped') ? { ...echo } : { error: message, ...echo });
      errors.push(`batch item ${i}: ${message}`);
    }
  }
  if (faults.has('transit.batch-order-reversed') && results.length > 1) {
    // Swap the first two results: "out of order" without touching single-item batches.
    [results[0], results[1]] = [results[1]!, results[0]!];
  }
  const data = { batch_results: results };
  if (errors.length === 0) return { data };
  const total = errors.length === items.length;
  let status = total ? 400 : shape.partialStatus;
  if (!total && partialCode !== undefined && !faults.has('transit.batch-partial-code-ignored')) status = partialCode;
  if (total && partialCode !== undefined && faults.has('transit.batch-total-failure-ok')) status = partialCode;
  if (!total && faults.has('transit.batch-partial-200')) status = 200;
  if (status < 400) return { status, data };
  return {
    status,
    rawBody: {
      request_id: randomUUID(),
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      data,
      wrap_info: null,
      warnings: null,
      auth: null,
      ...(shape.envelopeOnly ? {} : { errors }),
    },
  };
}
