/** Key-value engine version 2: delete, undelete, destroy and key metadata (sub-paths named in "Key-value engine"). */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, statusIs, success } from '../../harness/checks/index.js';
import { type Obj, noSecret, writeV2 } from '../lib/secrets.js';
import { emptyOrAbsent, offOrAbsent } from '../lib/fields.js';

const s = suite('kv');
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

/** The version is readable with its data before it is removed: its absence afterwards then says something. */
async function readable(t: Parameters<Parameters<typeof conformance>[1]>[0], key: string, n: number, query?: Obj) {
  t.check(
    await t.svc.get(`${kv2.path}/data/${key}`, query ? { query } : {}),
    statusIs(200),
    bodyAt('/data/data/n', n, `is version ${n}, readable before it is removed`),
  );
}

/** A removed version reads as gone (the rule), with 404 (the status the catalogue assumes). */
async function gone(t: Parameters<Parameters<typeof conformance>[1]>[0], key: string, what: string, query?: Obj) {
  const ex = await t.svc.get(`${kv2.path}/data/${key}`, query ? { query } : {});
  t.proving('kv.v2.deleted-not-read', () => noSecret(ex, what, true));
  t.as('kv.v2.deleted-read-404').check(ex, statusIs(404));
}

conformance(
  {
    id: 'kv.v2.delete-latest',
    also: ['kv.v2.deleted-not-read', 'kv.v2.deleted-read-404'],
    level: 'MUST',
    title: 'DELETE /secret/data/:path hides the newest version while older versions stay readable',
  },
  async (t) => {
    const key = t.unique('dl');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    await readable(t, key, 2);
    t.check(await t.svc.delete(`${kv2.path}/data/${key}`), success);
    await gone(t, key, 'the newest version after DELETE data/');
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 1 } }),
      statusIs(200),
      bodyAt('/data/data/n', 1, 'is version 1, untouched'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.deleted-read-404',
    also: ['kv.v2.deleted-not-read'],
    level: 'MUST',
    title: 'GET /secret/data/:path?version=N of a soft-deleted version answers 404',
  },
  async (t) => {
    const key = t.unique('gone');
    await writeV2(t, kv2, key, { n: 1 });
    await readable(t, key, 1, { version: 1 });
    t.check(await t.svc.post(`${kv2.path}/delete/${key}`, { body: { versions: [1] } }), success);
    const ex = await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 1 } });
    // The rule first (no data comes back), then the status the catalogue assumes for it.
    t.proving('kv.v2.deleted-not-read', () => noSecret(ex, 'a soft-deleted version', true));
    t.check(ex, statusIs(404));
  },
);

conformance(
  {
    id: 'kv.v2.delete-versions',
    also: ['kv.v2.deleted-not-read', 'kv.v2.deleted-read-404'],
    level: 'MUST',
    title: 'POST /secret/delete/:path with versions [1, 2] deletes exactly those versions',
  },
  async (t) => {
    const key = t.unique('dv');
    for (const n of [1, 2, 3]) await writeV2(t, kv2, key, { n });
    await readable(t, key, 1, { version: 1 });
    t.check(await t.svc.post(`${kv2.path}/delete/${key}`, { body: { versions: [1, 2] } }), success);
    await gone(t, key, 'version 1 after delete/', { version: 1 });
    await gone(t, key, 'version 2 after delete/', { version: 2 });
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data/n', 3, 'is version 3, not deleted'),
    );
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt(
        '/data/versions/1/deletion_time',
        (v: unknown) => typeof v === 'string' && v !== '',
        'is set for a deleted version',
      ),
      bodyAt('/data/versions/3/deletion_time', emptyOrAbsent, 'is empty (or left out) for the live version'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.undelete',
    also: ['kv.v2.deleted-not-read', 'kv.v2.deleted-read-404'],
    level: 'MUST',
    title: 'POST /secret/undelete/:path restores a soft-deleted version',
  },
  async (t) => {
    const key = t.unique('ud');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    t.check(await t.svc.post(`${kv2.path}/delete/${key}`, { body: { versions: [1] } }), success);
    // The version is gone first (the delete took effect), so that its return says something.
    await gone(t, key, 'version 1 after delete/', { version: 1 });
    t.check(await t.svc.post(`${kv2.path}/undelete/${key}`, { body: { versions: [1] } }), success);
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 1 } }),
      statusIs(200),
      bodyAt('/data/data/n', 1, 'is version 1 again'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.destroy',
    also: ['kv.v2.deleted-not-read', 'kv.v2.deleted-read-404'],
    level: 'MUST',
    title: 'POST /secret/destroy/:path removes a version for good: 404, destroyed true, undelete has no effect',
  },
  async (t) => {
    const key = t.unique('ds');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    await readable(t, key, 1, { version: 1 });
    t.check(await t.svc.post(`${kv2.path}/destroy/${key}`, { body: { versions: [1] } }), success);
    await gone(t, key, 'version 1 after destroy/', { version: 1 });
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/versions/1/destroyed', true, 'marks version 1 destroyed'),
    );
    t.check(await t.svc.post(`${kv2.path}/undelete/${key}`, { body: { versions: [1] } }), success);
    t.check(await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 1 } }), statusIs(404));
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data/n', 2, 'is version 2, unaffected'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-read',
    level: 'MUST',
    title:
      "GET /secret/metadata/:path reports current_version and every version's created_time, deletion_time and destroyed",
  },
  async (t) => {
    const key = t.unique('mr');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    const isTime = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/current_version', 2, 'is 2 after two writes'),
      bodyAt(
        '/data/versions',
        (v: unknown) => !!v && typeof v === 'object' && Object.keys(v).sort().join(',') === '1,2',
        'has versions "1" and "2"',
      ),
      bodyAt('/data/versions/1/created_time', isTime, 'is a timestamp'),
      bodyAt('/data/versions/2/deletion_time', emptyOrAbsent, 'is empty (or left out) for a live version'),
      bodyAt('/data/versions/2/destroyed', offOrAbsent, 'is false (or left out) for a live version'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-read',
    level: 'MUST',
    title:
      'GET /secret/metadata/:path reports the newest version as current_version after max_versions removed older ones',
  },
  async (t) => {
    const key = t.unique('mc');
    t.check(await t.svc.post(`${kv2.path}/metadata/${key}`, { body: { max_versions: 1 } }), success);
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    await writeV2(t, kv2, key, { n: 3 });
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/current_version', 3, 'is 3, the newest of three writes, whatever older versions were removed'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-read',
    level: 'MUST',
    title:
      "GET /secret/metadata/:path reports each version's own created_time: a version written later has a later one",
    movesClock: 'two seconds between two writes',
  },
  async (t) => {
    const key = t.unique('mt');
    await writeV2(t, kv2, key, { n: 1 });
    await t.advance(2);
    await writeV2(t, kv2, key, { n: 2 });
    const ex = await t.svc.get(`${kv2.path}/metadata/${key}`);
    const versions = (ex.response.body as { data?: { versions?: Record<string, { created_time?: unknown }> } })?.data
      ?.versions;
    const first = Date.parse(String(versions?.['1']?.created_time));
    t.check(
      ex,
      statusIs(200),
      bodyAt(
        '/data/versions/2/created_time',
        (v: unknown) => typeof v === 'string' && Date.parse(v) > first,
        'is later than version 1 created_time, written two seconds before',
      ),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-read',
    level: 'MUST',
    title: 'GET /secret/metadata/:path right after a write reports it, though the metadata was read just before',
  },
  async (t) => {
    const key = t.unique('mrw');
    await writeV2(t, kv2, key, { n: 1 });
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/current_version', 1, 'is 1 after one write'),
    );
    await writeV2(t, kv2, key, { n: 2 });
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/current_version', 2, 'is 2 right after the second write'),
      bodyAt(
        '/data/versions',
        (v: unknown) => !!v && typeof v === 'object' && Object.keys(v).sort().join(',') === '1,2',
        'has versions "1" and "2"',
      ),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-write',
    level: 'MUST',
    title:
      'POST /secret/metadata/:path with custom_metadata alone replaces the map and keeps max_versions and cas_required, as a read right after shows',
  },
  async (t) => {
    const key = t.unique('mwr');
    t.check(
      await t.svc.post(`${kv2.path}/metadata/${key}`, {
        body: { max_versions: 4, cas_required: true, custom_metadata: { owner: 'team-a', tier: 'gold' } },
      }),
      success,
    );
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/custom_metadata', { owner: 'team-a', tier: 'gold' }, 'is the map written first'),
    );
    t.check(
      await t.svc.post(`${kv2.path}/metadata/${key}`, { body: { custom_metadata: { owner: 'team-b' } } }),
      success,
    );
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/custom_metadata', { owner: 'team-b' }, 'is exactly the map sent last (it replaces, not merges)'),
      bodyAt('/data/max_versions', 4, 'is kept: the second write did not send it'),
      bodyAt('/data/cas_required', true, 'is kept: the second write did not send it'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-write',
    level: 'MUST',
    title: 'POST /secret/metadata/:path sets max_versions and custom_metadata without creating a version',
  },
  async (t) => {
    const key = t.unique('mw');
    await writeV2(t, kv2, key, { n: 1 });
    t.check(
      await t.svc.post(`${kv2.path}/metadata/${key}`, {
        body: { max_versions: 5, custom_metadata: { owner: 'team-a' } },
      }),
      success,
    );
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/max_versions', 5, 'is the max_versions written'),
      bodyAt('/data/custom_metadata/owner', 'team-a', 'is the custom metadata written'),
      bodyAt('/data/current_version', 1, 'is still 1: a metadata write creates no version'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-delete',
    also: ['kv.v2.deleted-not-read', 'kv.v2.deleted-read-404'],
    level: 'MUST',
    title: 'DELETE /secret/metadata/:path removes the key and all versions',
  },
  async (t) => {
    const key = t.unique('md');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    await readable(t, key, 2);
    t.check(await t.svc.delete(`${kv2.path}/metadata/${key}`), success);
    await gone(t, key, 'the newest version after DELETE metadata/');
    await gone(t, key, 'version 1 after DELETE metadata/', { version: 1 });
    t.check(await t.svc.get(`${kv2.path}/metadata/${key}`), statusIs(404), errorsArray);
  },
);

conformance(
  { id: 'kv.v2.max-versions', level: 'MUST', title: 'with max_versions 2 on the key, a third write removes version 1' },
  async (t) => {
    const key = t.unique('mx');
    await writeV2(t, kv2, key, { n: 1 });
    t.check(await t.svc.post(`${kv2.path}/metadata/${key}`, { body: { max_versions: 2 } }), success);
    await writeV2(t, kv2, key, { n: 2 });
    await writeV2(t, kv2, key, { n: 3 });
    t.check(await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 1 } }), statusIs(404));
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 2 } }),
      statusIs(200),
      bodyAt('/data/data/n', 2, 'is version 2, still kept'),
    );
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/versions/1', undefined, 'no longer lists version 1'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.delete-version-after',
    also: ['kv.v2.deleted-read-404'],
    level: 'MUST',
    title: 'with delete_version_after 10s, a new version reports a deletion_time and reads 404 once it passed',
    movesClock: 'past delete_version_after',
  },
  async (t) => {
    const key = t.unique('dva');
    t.check(await t.svc.post(`${kv2.path}/metadata/${key}`, { body: { delete_version_after: '10s' } }), success);
    const ex = await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 1 } } });
    t.check(
      ex,
      statusIs(200),
      bodyAt(
        '/data/deletion_time',
        (v: unknown) => typeof v === 'string' && v !== '',
        'is the scheduled deletion time',
      ),
    );
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data/n', 1, 'is readable before the deletion time'),
    );
    await t.advance(11);
    // No longer readable once the time passed (this rule); answered 404 (kv.v2.deleted-read-404's reading).
    const after = await t.svc.get(`${kv2.path}/data/${key}`);
    t.check(
      after,
      bodyAt('/data/data', (v: unknown) => v === undefined || v === null, 'carries no data'),
    );
    t.as('kv.v2.deleted-read-404').check(after, statusIs(404));
  },
);
