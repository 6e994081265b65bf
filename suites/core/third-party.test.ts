/**
 * 502: a third party the service called answered with an error (secrets-service-core.md, Errors).
 * The third party is the cloud directory behind the cloud engine (cloud-fixture.ts): configured
 * with a client secret the directory refuses (after its role was written with the right one), a
 * credentials request makes the engine's call fail.
 */
import { randomBytes } from 'node:crypto';
import { suite, conformance } from '../../harness/index.js';
import { errorsArray, statusIs } from '../../harness/checks/index.js';
import { applicationRole, cloudEngine, configure } from './cloud-fixture.js';

suite('core');

conformance(
  {
    id: 'core.errors.status-502',
    level: 'MUST',
    title: 'GET /cloud/creds/:name answers 502 when the cloud directory refuses the configured client secret',
  },
  async (t) => {
    const wrong = `wrong-${randomBytes(12).toString('base64url')}`;
    t.secret(wrong);
    const mount = await cloudEngine(t);
    const role = await applicationRole(t, mount, 600);
    await configure(t, mount, { clientSecret: wrong });
    const ex = await t.svc.get(`${mount}/creds/${role}`);
    t.check(ex, statusIs(502), errorsArray);
  },
);
