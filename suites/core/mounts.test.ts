/** Mounting engines and auth methods (secrets-service-core.md, "What the service does" 3, "Authentication" 3). */
import { conformance, suite, untilServing } from '../../harness/index.js';
import { bodyAt, errorsArray, statusIs, success } from '../../harness/checks/index.js';

const s = suite('core');
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

conformance(
  {
    id: 'core.mounts.list',
    level: 'MUST',
    title: "GET /sys/mounts lists the run's kv mount under its path with a trailing slash and type kv",
  },
  async (t) => {
    const ex = await t.svc.get('sys/mounts');
    t.check(
      ex,
      statusIs(200),
      bodyAt(`/data/${kv2.path.replace(/~/g, '~0').replace(/\//g, '~1')}~1/type`, 'kv', 'is the type of the kv mount'),
    );
  },
);

conformance(
  { id: 'core.mounts.secret-default', level: 'MUST', title: 'GET /sys/mounts lists secret/ with type kv' },
  async (t) => {
    const ex = await t.svc.get('sys/mounts');
    t.check(ex, statusIs(200), bodyAt('/data/secret~1/type', 'kv', 'is kv: the key-value engine mounted by default'));
  },
);

/** Mounts a kv engine at `path` for the test; returns the enable exchange. */
async function mountKv(t: Parameters<Parameters<typeof conformance>[1]>[0], path: string, version = '2') {
  const ex = await t.svc.post(`sys/mounts/${path}`, { body: { type: 'kv', options: { version } } });
  t.track(`mount ${path}`, () => t.svc.delete(`sys/mounts/${path}`), 'unmount');
  return ex;
}

conformance(
  {
    id: 'core.mounts.enable',
    level: 'MUST',
    title: 'POST /sys/mounts/:path with type kv mounts an engine that then stores secrets',
  },
  async (t) => {
    const path = t.unique('mnt');
    t.check(await mountKv(t, path, '1'), success);
    const list = await t.svc.get('sys/mounts');
    t.check(list, statusIs(200), bodyAt(`/data/${path}~1/type`, 'kv', 'lists the new mount'));
    t.check(await t.svc.post(`${path}/k`, { body: { a: '1' }, validate: false }), success);
    t.check(
      await t.svc.get(`${path}/k`, { validate: false }),
      statusIs(200),
      bodyAt('/data/a', '1', 'is the field stored on the new mount'),
    );
  },
);

conformance(
  {
    id: 'core.mounts.any-path',
    level: 'MUST',
    title: 'POST /sys/mounts/:path mounts at a multi-segment path that then serves its engine',
  },
  async (t) => {
    const path = `${t.unique('deep')}/team/kv`;
    t.check(await mountKv(t, path), success);
    await untilServing(t, path, { type: 'kv', options: { version: '2' } });
    t.check(await t.svc.post(`${path}/data/k`, { body: { data: { a: '1' } }, validate: false }), statusIs(200, 204));
    t.check(
      await t.svc.get(`${path}/data/k`, { validate: false }),
      statusIs(200),
      bodyAt('/data/data/a', '1', 'is the field stored under the nested mount'),
    );
  },
);

conformance(
  {
    id: 'core.mounts.enable-conflict-400',
    level: 'MUST',
    title: 'POST /sys/mounts/:path at a path in use answers 400 and keeps the existing mount',
  },
  async (t) => {
    const key = t.unique('keep');
    t.check(await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { a: '1' } } }), statusIs(200, 204));
    const ex = await t.svc.post(`sys/mounts/${kv2.path}`, { body: { type: 'kv', options: { version: '2' } } });
    t.check(ex, statusIs(400), errorsArray);
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data/a', '1', 'is still readable on the original mount'),
    );
  },
);

conformance(
  {
    id: 'core.mounts.unknown-type-400',
    level: 'MUST',
    title: 'POST /sys/mounts/:path with an unknown type answers 400',
  },
  async (t) => {
    const path = t.unique('nosuch');
    const ex = await t.svc.post(`sys/mounts/${path}`, { body: { type: `no-such-engine-${t.unique('t')}` } });
    t.track(`mount ${path}`, () => t.svc.delete(`sys/mounts/${path}`), 'unmount');
    t.check(ex, statusIs(400), errorsArray);
  },
);

conformance(
  { id: 'core.mounts.read', level: 'MAY', title: "GET /sys/mounts/:path answers the mount's type and options.version" },
  async (t) => {
    const ex = await t.svc.get(`sys/mounts/${kv2.path}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data/type', 'kv', 'is the engine type'),
      bodyAt('/data/options/version', '2', 'is the kv version mounted'),
    );
  },
);

conformance(
  {
    id: 'core.mounts.disable',
    level: 'MUST',
    title: 'DELETE /sys/mounts/:path unmounts: the path answers 404 and leaves /sys/mounts',
  },
  async (t) => {
    const path = t.unique('gone');
    t.check(await mountKv(t, path, '1'), success);
    t.check(await t.svc.post(`${path}/k`, { body: { a: '1' }, validate: false }), success);
    // Listed before the unmount (read just before it), so leaving the list says something.
    t.check(
      await t.svc.get('sys/mounts'),
      statusIs(200),
      bodyAt(`/data/${path}~1/type`, 'kv', 'lists the mount before it is unmounted'),
    );
    t.check(await t.svc.delete(`sys/mounts/${path}`), success);
    t.check(await t.svc.get(`${path}/k`, { validate: false }), statusIs(404), errorsArray);
    const list = await t.svc.get('sys/mounts');
    t.check(list, statusIs(200), bodyAt(`/data/${path}~1`, undefined, 'is gone from the mount list'));
  },
);

conformance(
  {
    id: 'core.auth.methods-mounted',
    level: 'MUST',
    title: 'POST /sys/auth/:path with type userpass enables the method, listed in /sys/auth',
  },
  async (t) => {
    const path = t.unique('up');
    const ex = await t.svc.post(`sys/auth/${path}`, { body: { type: 'userpass' } });
    t.track(`auth ${path}`, () => t.svc.delete(`sys/auth/${path}`), 'unmount');
    t.check(ex, success);
    const list = await t.svc.get('sys/auth');
    t.check(list, statusIs(200), bodyAt(`/data/${path}~1/type`, 'userpass', 'lists the enabled method'));
  },
);
