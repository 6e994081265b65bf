/**
 * 403 for a disallowed origin with CORS enabled (secrets-service-core.md, Errors). CORS is a
 * setting every client of the service sees, enabled here through the real product's
 * sys/config/cors (the documents name no way to enable it): a target that refuses it makes the
 * test not applicable. The file holds the secrets domain exclusively (suites/domain-locks.yaml)
 * and turns CORS off again after the test.
 */
import { suite, conformance } from '../../harness/index.js';
import { errorsArray, statusIs, success } from '../../harness/checks/index.js';

suite('core');

const ALLOWED = 'https://allowed.conformance.example';
const OTHER = 'https://elsewhere.conformance.example';

conformance(
  {
    id: 'core.errors.status-403-cors',
    level: 'MUST',
    title:
      'with CORS enabled, GET /sys/mounts from an origin outside the allowed list answers 403; from an allowed one, 200',
    sequential: 'enables CORS, which every request of the service sees, and turns it off again',
  },
  async (t) => {
    t.track('CORS settings', () => t.svc.delete('sys/config/cors'));
    t.precondition(await t.svc.post('sys/config/cors', { body: { allowed_origins: [ALLOWED] } }), success);
    t.check(await t.svc.get('sys/mounts', { headers: { Origin: OTHER } }), statusIs(403), errorsArray);
    t.check(await t.svc.get('sys/mounts', { headers: { Origin: ALLOWED } }), statusIs(200));
  },
);
