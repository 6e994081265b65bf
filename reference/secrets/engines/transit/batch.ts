/**
 * Batch semantics shared by every batch operation: results in input order, `reference` echoed, an
 * `error` per failed item, 400 on partial failure unless partial_failure_response_code, and an
 * error status when every item fails. The rules themselves are in rules.ts.
 */
import type { EngineResponse } from '../../engine.js';
import { SvcError } from '../../errors.js';
import type { Body } from './params.js';
import type { TransitRules } from './rules.js';

export type BatchRules = Pick<
  TransitRules,
  'batchEcho' | 'batchItemError' | 'batchOrder' | 'batchStatus' | 'batchFailureBody'
>;

export async function runBatch(
  items: unknown[],
  rules: BatchRules,
  partialCode: number | undefined,
  fn: (item: Body, index: number) => Promise<Record<string, unknown>> | Record<string, unknown>,
  /** The operation (partial_failure_response_code is documented for encrypt and decrypt only). */
  operation: string,
): Promise<EngineResponse> {
  const collected: Record<string, unknown>[] = [];
  const errors: string[] = [];
  for (const [i, raw] of items.entries()) {
    const item = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Body) : undefined;
    const echo = rules.batchEcho(item && typeof item.reference === 'string' ? item.reference : '', operation);
    try {
      if (!item) throw new SvcError(400, ['batch item must be an object']);
      collected.push({ ...(await fn(item, i)), ...echo });
    } catch (err) {
      const message = err instanceof SvcError ? err.messages.join('; ') : 'internal error processing the item';
      collected.push(rules.batchItemError(message, echo));
      errors.push(`batch item ${i}: ${message}`);
    }
  }
  const data = { batch_results: rules.batchOrder(collected) };
  if (errors.length === 0) return { data };
  const tiedToPartialCode = operation === 'encrypt' || operation === 'decrypt';
  const status = rules.batchStatus({
    total: errors.length === items.length,
    partialCode,
    tiedToPartialCode,
    operation,
  });
  if (status < 400) return { status, data };
  return { status, rawBody: rules.batchFailureBody(data, errors) };
}
