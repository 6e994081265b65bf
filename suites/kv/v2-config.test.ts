/** Key-value engine version 2: the engine-wide config sub-path. Own mount: these tests change engine-wide settings. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, statusIs, success } from '../../harness/checks/index.js';
import { writeV2 } from '../lib/secrets.js';

const s = suite('kv');
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kvConfig' });

conformance(
  {
    id: 'kv.v2.config',
    level: 'MUST',
    title: 'POST /secret/config stores max_versions and cas_required, which GET /secret/config returns',
  },
  async (t) => {
    t.track('config reset', () => t.svc.post(`${kv2.path}/config`, { body: { max_versions: 0, cas_required: false } }));
    t.check(await t.svc.post(`${kv2.path}/config`, { body: { max_versions: 7, cas_required: true } }), success);
    t.check(
      await t.svc.get(`${kv2.path}/config`),
      statusIs(200),
      bodyAt('/data/max_versions', 7, 'is the max_versions written'),
      bodyAt('/data/cas_required', true, 'is the cas_required written'),
      bodyAt(
        '/data/delete_version_after',
        (v: unknown) => v === undefined || typeof v === 'string' || typeof v === 'number',
        'is a duration (or left out: never written, it holds no value)',
      ),
    );
  },
);

conformance(
  {
    id: 'kv.v2.cas-required',
    level: 'MUST',
    title: 'with cas_required in /secret/config, POST /secret/data/:path without options.cas answers 400',
  },
  async (t) => {
    t.track('config reset', () => t.svc.post(`${kv2.path}/config`, { body: { cas_required: false } }));
    t.check(await t.svc.post(`${kv2.path}/config`, { body: { cas_required: true } }), success);
    const key = t.unique('cr');
    t.check(await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 1 } } }), statusIs(400), errorsArray);
    t.check(
      await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 1 }, options: { cas: 0 } } }),
      statusIs(200, 204),
    );
  },
);

conformance(
  {
    id: 'kv.v2.max-versions',
    level: 'MUST',
    title: 'with max_versions 1 in /secret/config, a second write removes version 1',
  },
  async (t) => {
    t.track('config reset', () => t.svc.post(`${kv2.path}/config`, { body: { max_versions: 0 } }));
    t.check(await t.svc.post(`${kv2.path}/config`, { body: { max_versions: 1 } }), success);
    const key = t.unique('mx');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    t.check(await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 1 } }), statusIs(404));
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data/n', 2, 'is the kept version'),
    );
  },
);
