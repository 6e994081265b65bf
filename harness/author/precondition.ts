/**
 * A set-up answer (`t.precondition`, `SuiteContext.precondition`): when the target refuses the
 * request (any error status, 4xx or 5xx) what depends on it is not applicable, with the target's
 * answer; a broken connection or a malformed success still fails. A 5xx counts as a refusal too:
 * the set-up is not the rule under test, and real products answer many refusals with 500 (OpenBao
 * refuses an identity group naming an entity of a parent namespace with 500), so failing there
 * would charge the test's rule with something it never reached.
 */
import { charge } from '../attribution.js';
import { type Check, CheckFailure } from '../checks/index.js';
import type { Exchange } from '../http/exchange.js';
import { redactor } from '../redaction/redact.js';
import { NotApplicable } from './test-api.js';

/** Whether an answer is the target refusing a request (an error status, as opposed to a broken exchange). */
function refused(ex: Exchange): boolean {
  const s = ex.response.status;
  return s >= 400 && s < 600;
}

function answerOf(ex: Exchange): string {
  const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
  const detail = Array.isArray(errors) && errors.length ? `: ${errors.slice(0, 3).join('; ')}` : '';
  return redactor.text(`${ex.request.method} ${ex.request.path} answered ${ex.response.status}${detail}`).slice(0, 500);
}

export function requirePrecondition(ex: Exchange, checks: Check[]): Exchange {
  try {
    for (const c of checks) c(ex, {});
  } catch (err) {
    charge(err, { exchange: ex });
    if (!refused(ex)) throw err;
    const why = err instanceof CheckFailure ? err.message.split('\n')[0] : String(err);
    throw new NotApplicable({
      reason: `a precondition was refused by the target (${why})`,
      answer: answerOf(ex),
    });
  }
  return ex;
}
