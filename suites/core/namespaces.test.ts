/** Namespaces (secrets-service-core.md, "Conventions" 7, "Authentication" 7); enterprise capability. */
import { conformance, suite, type T, untilServing } from '../../harness/index.js';
import { bodyAt, statusIs, success } from '../../harness/checks/index.js';
import { type Exchange, mountAliases } from '../../harness/index.js';

suite('core');

/** A run-unique namespace with a v2 kv mount inside it; both removed after the test. */
async function namespacedKv(t: T): Promise<{ ns: string; mount: string }> {
  const ns = t.unique('ns');
  t.check(await t.svc.post(`sys/namespaces/${ns}`, { body: {}, namespace: null }), statusIs(200, 204));
  t.track(`namespace ${ns}`, () => t.svc.delete(`sys/namespaces/${ns}`, { namespace: null }), 'unmount');
  return { ns, mount: await kvIn(t, ns) };
}

/** A v2 kv mount made inside namespace `ns` (the header naming it), removed after the test. */
async function kvIn(t: T, ns: string): Promise<string> {
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
  return mount;
}

/**
 * Deletes a namespace whose child namespace was just deleted: a real product may delete a namespace
 * in the background ("in-progress") and refuse to delete its parent until that finished (OpenBao:
 * 400 "unable to delete namespace containing child namespaces"), so the delete is repeated every
 * timing.pollMs within timing.settleSeconds. Returns the last answer: the cleanup reports a
 * namespace still refused at the end as left behind.
 */
async function deleteOnceEmpty(t: T, ns: string): Promise<Exchange> {
  const deadline = Date.now() + t.config.timing.settleSeconds * 1000;
  for (;;) {
    const ex = await t.svc.delete(`sys/namespaces/${ns}`, { namespace: null, validate: false });
    if (ex.response.status < 400 || ex.response.status === 404 || Date.now() >= deadline) return ex;
    await new Promise((r) => setTimeout(r, t.config.timing.pollMs));
  }
}

/**
 * A namespace `child` inside a namespace `parent` (made through the header naming the parent), with a
 * v2 kv mount in the child: made through the header naming both (`nested`), or through the header
 * naming the parent followed by the path child/sys/mounts/... (`split`).
 */
async function nestedKv(t: T, via: 'nested' | 'split'): Promise<{ parent: string; child: string; mount: string }> {
  const parent = t.unique('nsp');
  const child = t.unique('nsc');
  t.check(await t.svc.post(`sys/namespaces/${parent}`, { body: {}, namespace: null }), statusIs(200, 204));
  t.track(`namespace ${parent}`, () => deleteOnceEmpty(t, parent), 'unmount');
  t.check(await t.svc.post(`sys/namespaces/${child}`, { body: {}, namespace: parent }), statusIs(200, 204));
  t.track(
    `namespace ${parent}/${child}`,
    () => t.svc.delete(`sys/namespaces/${child}`, { namespace: parent }),
    'unmount',
  );
  let mount: string;
  if (via === 'nested') mount = await kvIn(t, `${parent}/${child}`);
  else {
    mount = t.unique('nskv');
    const spec = { type: 'kv', options: { version: '2' } };
    t.check(
      await t.svc.post(`${child}/sys/mounts/${mount}`, { body: spec, namespace: parent, validate: false }),
      success,
    );
    t.track(
      `mount ${parent}/${child}/${mount}`,
      () => t.svc.delete(`${child}/sys/mounts/${mount}`, { namespace: parent, validate: false }),
      'unmount',
    );
    await untilServing(t, `${child}/${mount}`, spec, parent);
    mountAliases.set(`${parent}/${child}/${mount}`, 'secret');
  }
  mountAliases.set(mount, 'secret');
  mountAliases.set(`${child}/${mount}`, 'secret');
  return { parent, child, mount };
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

conformance(
  {
    id: 'core.namespace.header-scopes-request',
    level: 'MUST',
    requires: ['namespaces'],
    title: 'LIST with X-Svc-Namespace lists the keys of a mount inside that namespace, as GET with it reads them',
  },
  async (t) => {
    const { ns, mount } = await namespacedKv(t);
    t.check(await t.svc.post(`${mount}/data/dir/k`, { body: { data: { a: '1' } }, namespace: ns }), statusIs(200, 204));
    t.check(await t.svc.get(`${mount}/data/dir/k`, { namespace: ns }), statusIs(200));
    t.check(
      await t.svc.list(`${mount}/metadata/dir`, { namespace: ns }),
      statusIs(200),
      bodyAt('/data/keys', ['k'], 'lists the key written in the namespace'),
    );
  },
);

conformance(
  {
    id: 'core.namespace.header-scopes-request',
    level: 'MUST',
    requires: ['namespaces'],
    title:
      'X-Svc-Namespace naming a nested namespace (parent/child) scopes the request to the child: its mount is not reached with the header naming the parent',
  },
  async (t) => {
    const { parent, child, mount } = await nestedKv(t, 'nested');
    const nested = `${parent}/${child}`;
    t.check(
      await t.svc.post(`${mount}/data/k`, { body: { data: { in: 'child' } }, namespace: nested }),
      statusIs(200, 204),
    );
    t.check(
      await t.svc.get(`${mount}/data/k`, { namespace: nested }),
      statusIs(200),
      bodyAt('/data/data/in', 'child', 'is the field written in the nested namespace'),
    );
    t.check(
      await t.svc.list(`${mount}/metadata`, { namespace: nested }),
      statusIs(200),
      bodyAt('/data/keys', ['k'], 'lists the key of the nested namespace'),
    );
    t.check(await t.svc.get(`${mount}/data/k`, { namespace: parent, validate: false }), statusIs(403, 404));
  },
);

conformance(
  {
    id: 'core.namespace.header-equals-path-prefix',
    level: 'MUST',
    requires: ['namespaces'],
    title:
      'in a nested namespace, the header parent followed by child/<path> and the full path parent/child/<path> address the same secret and the same sys/ route',
  },
  async (t) => {
    const { parent, child, mount } = await nestedKv(t, 'split');
    const nested = `${parent}/${child}`;
    t.check(
      await t.svc.post(`${child}/${mount}/data/one`, { body: { data: { via: 'split' } }, namespace: parent }),
      statusIs(200, 204),
    );
    t.check(
      await t.svc.get(`${nested}/${mount}/data/one`, { namespace: null }),
      statusIs(200),
      bodyAt(
        '/data/data/via',
        'split',
        'is the field written as header parent + child/<path>, read through the full path',
      ),
    );
    t.check(
      await t.svc.get(`${nested}/sys/mounts/${mount}`, { namespace: null, validate: false }),
      statusIs(200),
      bodyAt('/data/type', 'kv', 'is the mount made in the nested namespace, read through the full sys/ path'),
    );
    t.check(
      await t.svc.post(`${nested}/${mount}/data/two`, { body: { data: { via: 'path' } }, namespace: null }),
      statusIs(200, 204),
    );
    t.check(
      await t.svc.get(`${child}/${mount}/data/two`, { namespace: parent }),
      statusIs(200),
      bodyAt(
        '/data/data/via',
        'path',
        'is the field written through the full path, read as header parent + child/<path>',
      ),
    );
  },
);
