/** Namespaces (secrets-service-core.md, "Conventions" 7, "Authentication" 7); enterprise capability. */
import { conformance, suite, type T, untilServing } from '../../harness/index.js';
import { bodyAt, statusIs, success } from '../../harness/checks/index.js';
import { mountAliases } from '../../harness/index.js';

suite('core');

/** A run-unique namespace with a v2 kv mount inside it; both removed after the test. */
async function namespacedKv(t: T): Promise<{ ns: string; mount: string }> {
  const ns = t.unique('ns');
  t.check(await t.svc.post(`sys/namespaces/${ns}`, { body: {}, namespace: null }), statusIs(200, 204));
  t.track(`namespace ${ns}`, () => t.svc.delete(`sys/namespaces/${ns}`, { namespace: null }), 'unmount');
  const mount = t.unique('nskv');
  t.check(
    await t.svc.post(`sys/mounts/${mount}`, { body: { type: 'kv', options: { version: '2' } }, namespace: ns }),
    success,
  );
  t.track(`mount ${ns}/${mount}`, () => t.svc.delete(`sys/mounts/${mount}`, { namespace: ns }), 'unmount');
  await untilServing(t, mount, { type: 'kv', options: { version: '2' } }, ns);
  // Both spellings of the path map back to the spec's default mount.
  mountAliases.set(mount, 'secret');
  mountAliases.set(`${ns}/${mount}`, 'secret');
  return { ns, mount };
}

conformance(
  {
    id: 'core.namespace.header-equals-path-prefix',
    level: 'MUST',
    requires: ['namespaces'],
    title: 'a secret written with X-Svc-Namespace reads back at <namespace>/<path> without the header, and the reverse',
  },
  async (t) => {
    const { ns, mount } = await namespacedKv(t);
    t.check(
      await t.svc.post(`${mount}/data/one`, { body: { data: { via: 'header' } }, namespace: ns }),
      statusIs(200, 204),
    );
    t.check(
      await t.svc.get(`${ns}/${mount}/data/one`, { namespace: null }),
      statusIs(200),
      bodyAt('/data/data/via', 'header', 'is the field written through the header'),
    );
    t.check(
      await t.svc.post(`${ns}/${mount}/data/two`, { body: { data: { via: 'path' } }, namespace: null }),
      statusIs(200, 204),
    );
    t.check(
      await t.svc.get(`${mount}/data/two`, { namespace: ns }),
      statusIs(200),
      bodyAt('/data/data/via', 'path', 'is the field written through the full path'),
    );
  },
);

conformance(
  {
    id: 'core.namespace.header-scopes-request',
    level: 'MUST',
    requires: ['namespaces'],
    title: 'a mount made inside a namespace is not reachable from the root namespace',
  },
  async (t) => {
    const { ns, mount } = await namespacedKv(t);
    t.check(
      await t.svc.post(`${mount}/data/scoped`, { body: { data: { a: '1' } }, namespace: ns }),
      statusIs(200, 204),
    );
    t.check(await t.svc.get(`${mount}/data/scoped`, { namespace: null, validate: false }), statusIs(403, 404));
  },
);
