/**
 * Not a conformance suite: the harness's own check that a file holding the secrets domain only
 * shared cannot move the secrets clock. It is never selected by --suite (no suite is named
 * _selftest); tests/harness/concurrency.test.ts runs it by --files and expects both tests to fail
 * with the message naming suites/schedule.yaml, before anything moved.
 */
import { suite, conformance } from '../../harness/index.js';

suite('core');

conformance(
  { id: 'core.routes.v1-prefix', level: 'MUST', title: 'selftest: t.advance in a concurrent file fails' },
  async (t) => {
    await t.advance(1);
  },
);

conformance(
  { id: 'core.routes.v1-prefix', level: 'MUST', title: 'selftest: a direct clock request in a concurrent file fails' },
  async (t) => {
    await t.svc.post('sys/reference/clock', { body: { advance: 1 } });
  },
);
