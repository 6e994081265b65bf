/** ACL policies and the existence check (secrets-service-core.md, "Authentication" 4, "Conventions" 1). */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, statusIs, success } from '../../harness/checks/index.js';
import { policyToken } from '../lib/secrets.js';

const s = suite('core');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });

conformance(
  {
    id: 'core.acl.policy-crud',
    level: 'MUST',
    title: 'POST, GET, LIST and DELETE /sys/policies/acl/:name manage a policy',
  },
  async (t) => {
    const name = t.unique('pol');
    t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
    const text = `path "${kv1.path}/crud/*" { capabilities = ["read", "list"] }`;
    t.check(await t.svc.post(`sys/policies/acl/${name}`, { body: { policy: text } }), success);
    t.check(
      await t.svc.get(`sys/policies/acl/${name}`),
      statusIs(200),
      bodyAt('/data/policy', text, 'is the policy text written'),
    );
    const list = await t.svc.list('sys/policies/acl');
    t.check(
      list,
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(name), `includes ${name}`),
    );
    t.check(await t.svc.delete(`sys/policies/acl/${name}`), success);
    t.check(await t.svc.get(`sys/policies/acl/${name}`), statusIs(404), errorsArray);
  },
);

conformance(
  {
    id: 'core.acl.policy-missing-400',
    level: 'MUST',
    title: 'POST /sys/policies/acl/:name without a policy field answers 400',
  },
  async (t) => {
    const name = t.unique('pol');
    t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
    t.check(await t.svc.post(`sys/policies/acl/${name}`, { body: {}, validate: false }), statusIs(400), errorsArray);
    t.check(await t.svc.get(`sys/policies/acl/${name}`), statusIs(404));
  },
);

conformance(
  {
    id: 'core.acl.policy-missing-400',
    level: 'MUST',
    title: 'POST /sys/policies/acl/:name with unparsable policy text answers 400',
  },
  async (t) => {
    const name = t.unique('pol');
    t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
    const ex = await t.svc.post(`sys/policies/acl/${name}`, { body: { policy: 'path "x" { capabilities = ["fly"] ' } });
    t.check(ex, statusIs(400), errorsArray);
  },
);

conformance(
  {
    id: 'core.acl.existence-check',
    level: 'MAY',
    title: 'POST /secret/:path with a create-only policy creates a new secret but cannot update it',
  },
  async (t) => {
    const dir = t.unique('exist');
    const token = await policyToken(t, `path "${kv1.path}/${dir}/*" { capabilities = ["create", "read"] }`);
    t.check(await t.svc.post(`${kv1.path}/${dir}/k`, { body: { a: '1' }, token }), success);
    // An ACL refusal is 403, or 404 to hide the path (Errors: "no permission to see a path").
    t.check(await t.svc.post(`${kv1.path}/${dir}/k`, { body: { a: '2' }, token }), statusIs(403, 404), errorsArray);
    t.check(
      await t.svc.get(`${kv1.path}/${dir}/k`, { token }),
      statusIs(200),
      bodyAt('/data/a', '1', 'is the value created, not the refused update'),
    );
  },
);

conformance(
  {
    id: 'core.acl.existence-check',
    level: 'MAY',
    title: 'POST /secret/:path with an update-only policy cannot create a new secret',
  },
  async (t) => {
    const dir = t.unique('exist');
    await t.svc.post(`${kv1.path}/${dir}/old`, { body: { a: '1' } });
    const token = await policyToken(t, `path "${kv1.path}/${dir}/*" { capabilities = ["update", "read"] }`);
    t.check(await t.svc.post(`${kv1.path}/${dir}/new`, { body: { a: '1' }, token }), statusIs(403, 404), errorsArray);
    t.check(await t.svc.post(`${kv1.path}/${dir}/old`, { body: { a: '2' }, token }), success);
    t.check(
      await t.svc.get(`${kv1.path}/${dir}/old`, { token }),
      statusIs(200),
      bodyAt('/data/a', '2', 'is the value updated with the update-only policy'),
    );
  },
);
