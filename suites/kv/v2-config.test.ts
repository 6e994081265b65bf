/** Key-value engine version 2: the engine-wide config sub-path. Own mount: these tests change engine-wide settings. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, statusIs, success } from '../../harness/checks/index.js';
import { writeV2 } from '../lib/secrets.js';
import { offOrAbsent } from '../lib/fields.js';

/** Seconds of a duration as a read answers it: integer seconds, or a duration string ("3600s", "1h0m0s"). */
function seconds(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, d: 86400 };
  let total = 0;
  const text = v.replace(/(\d+(?:\.\d+)?)(d|h|m|s)/g, (_all, n: string, u: string) => {
    total += Number(n) * units[u]!;
    return '';
  });
  return text === '' ? total : undefined;
}

/** Puts the mount's config back to the engine defaults after a test. */
const resetConfig = (t: Parameters<Parameters<typeof conformance>[1]>[0]) =>
  t.track('config reset', () =>
    t.svc.post(`${kv2.path}/config`, { body: { max_versions: 0, cas_required: false, delete_version_after: '0s' } }),
  );

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
    id: 'kv.v2.config',
    level: 'MUST',
    title:
      'POST /secret/config stores delete_version_after, and a later write of max_versions 0 alone is accepted and keeps cas_required and delete_version_after, as a read right after shows',
  },
  async (t) => {
    resetConfig(t);
    t.check(
      await t.svc.post(`${kv2.path}/config`, {
        body: { max_versions: 4, cas_required: true, delete_version_after: '2h' },
      }),
      success,
    );
    t.check(
      await t.svc.get(`${kv2.path}/config`),
      statusIs(200),
      bodyAt('/data/max_versions', 4, 'is the max_versions written first'),
      bodyAt('/data/delete_version_after', (v: unknown) => seconds(v) === 7200, 'is the 2h written (7200 seconds)'),
    );
    t.check(await t.svc.post(`${kv2.path}/config`, { body: { max_versions: 0 } }), success);
    t.check(
      await t.svc.get(`${kv2.path}/config`),
      statusIs(200),
      bodyAt('/data/max_versions', 0, 'is 0, the value written last'),
      bodyAt('/data/cas_required', true, 'is kept: the last write did not send it'),
      bodyAt(
        '/data/delete_version_after',
        (v: unknown) => seconds(v) === 7200,
        'is kept: the last write did not send it',
      ),
    );
  },
);

conformance(
  {
    id: 'kv.v2.config',
    level: 'MUST',
    title: 'GET /secret/config of a mount whose config was never changed (or put back) answers the defaults',
  },
  async (t) => {
    resetConfig(t);
    t.check(
      await t.svc.get(`${kv2.path}/config`),
      statusIs(200),
      bodyAt('/data/max_versions', (v: unknown) => v === 0 || v === undefined, 'is 0 (no limit set; or left out)'),
      bodyAt('/data/cas_required', offOrAbsent, 'is false (or left out)'),
      bodyAt(
        '/data/delete_version_after',
        (v: unknown) => v === undefined || seconds(v) === 0,
        'is 0 (no deletion scheduled; or left out)',
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
