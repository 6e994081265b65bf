/** ACL policies and the existence check (secrets-service-core.md, "Authentication" 4, "Conventions" 1). */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, statusIs, success } from '../../harness/checks/index.js';
import { policyToken, writeV1 } from '../lib/secrets.js';

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
    // The error body of the 404 is core.errors.body-errors-array's: here the policy is gone.
    t.check(await t.svc.get(`sys/policies/acl/${name}`), statusIs(404));
  },
);

conformance(
  {
    id: 'core.acl.policy-crud',
    level: 'MUST',
    title:
      'GET /sys/policies/acl/:name right after a rewrite answers the new text, though the old one was read just before',
  },
  async (t) => {
    const name = t.unique('pol');
    t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
    const first = `path "${kv1.path}/first/*" { capabilities = ["read"] }`;
    const second = `path "${kv1.path}/second/*" { capabilities = ["list"] }`;
    t.check(await t.svc.post(`sys/policies/acl/${name}`, { body: { policy: first } }), success);
    t.check(
      await t.svc.get(`sys/policies/acl/${name}`),
      statusIs(200),
      bodyAt('/data/policy', first, 'is the first text'),
    );
    t.check(await t.svc.post(`sys/policies/acl/${name}`, { body: { policy: second } }), success);
    t.check(
      await t.svc.get(`sys/policies/acl/${name}`),
      statusIs(200),
      bodyAt('/data/policy', second, 'is the text written last, not the one read before'),
    );
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

/** A write refused by the ACL: 403, or 404 to hide the path (Errors: "no permission to see a path"). */
const refusedByPolicy = [statusIs(403, 404), errorsArray];

conformance(
  {
    id: 'core.acl.existence-check',
    level: 'MAY',
    title:
      'POST /secret/:path: a create-only policy never updates an existing secret; an update-only one creates a new secret only where the engine runs no existence check',
  },
  async (t) => {
    const dir = t.unique('exist');
    await writeV1(t, kv1, `${dir}/old`, { a: '1' });
    const createOnly = await policyToken(t, `path "${kv1.path}/${dir}/*" { capabilities = ["create", "read"] }`);
    const updateOnly = await policyToken(t, `path "${kv1.path}/${dir}/*" { capabilities = ["update", "read"] }`);

    // Whatever the engine decides, an existing secret is never "created": create alone cannot overwrite it.
    t.check(await t.svc.post(`${kv1.path}/${dir}/old`, { body: { a: '2' }, token: createOnly }), ...refusedByPolicy);
    t.check(
      await t.svc.get(`${kv1.path}/${dir}/old`),
      statusIs(200),
      bodyAt('/data/a', '1', 'is the value written first, not the refused update'),
    );
    t.check(await t.svc.post(`${kv1.path}/${dir}/old`, { body: { a: '3' }, token: updateOnly }), success);

    // A new path: an engine that runs the existence check needs create there, one that does not needs update.
    const created = await t.svc.post(`${kv1.path}/${dir}/new`, { body: { a: '1' }, token: createOnly });
    const checks = created.response.status < 300;
    t.note(
      `the engine ${checks ? 'runs' : 'runs no'} existence check (a create-only policy ${checks ? 'created' : 'could not create'} a new secret)`,
    );
    if (checks) t.check(created, success);
    else t.check(created, ...refusedByPolicy);
    const viaUpdate = await t.svc.post(`${kv1.path}/${dir}/other`, { body: { a: '1' }, token: updateOnly });
    if (checks) t.check(viaUpdate, ...refusedByPolicy);
    else t.check(viaUpdate, success);
    t.check(await t.svc.get(`${kv1.path}/${dir}/other`), statusIs(checks ? 404 : 200));
  },
);
