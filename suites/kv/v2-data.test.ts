/** Key-value engine version 2: data/ path, versions, check-and-set (secrets-service-core.md, "Key-value engine"). */
import { suite, conformance } from '../../harness/index.js';
import { CheckFailure, bodyAt, errorsArray, expectEqual, statusIs, success } from '../../harness/checks/index.js';
import { NON_ASCII, body, writeV2 } from '../lib/secrets.js';
import { emptyOrAbsent, offOrAbsent } from '../lib/fields.js';

const s = suite('kv');
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

conformance(
  {
    id: 'kv.mount.type-kv',
    level: 'MUST',
    title: 'a kv mount with options.version "2" serves the version 2 config sub-path and version metadata',
  },
  async (t) => {
    t.check(
      await t.svc.get(`${kv2.path}/config`),
      statusIs(200),
      bodyAt('/data', (v: unknown) => !!v && typeof v === 'object', 'is the engine configuration'),
    );
    const key = t.unique('ver');
    await writeV2(t, kv2, key, { a: '1' });
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/metadata/version', 1, 'is the version of a version 2 secret'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.data-path',
    level: 'MUST',
    title: 'POST /secret/data/a/b stores a nested key that GET /secret/data/a/b reads',
  },
  async (t) => {
    const key = `${t.unique('dp')}/team/db`;
    await writeV2(t, kv2, key, { host: 'db1' });
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data', { host: 'db1' }, 'holds exactly the fields written'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.data-wrapped',
    level: 'MUST',
    title: 'GET /secret/data/:path returns exactly the written data object, without the wrapper',
  },
  async (t) => {
    const key = t.unique('wrap');
    const fields = { n: 7, nested: { list: [1, 2] }, flag: false, text: NON_ASCII, [NON_ASCII]: 'a non-ASCII name' };
    await writeV2(t, kv2, key, fields);
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data', fields, 'is the data object written, unwrapped once'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.unwrapped-path-404',
    level: 'MUST',
    title: 'GET /secret/:path without data/ on a version 2 mount answers 404',
  },
  async (t) => {
    const key = t.unique('nodata');
    await writeV2(t, kv2, key, { a: '1' });
    t.check(await t.svc.get(`${kv2.path}/${key}`), statusIs(404));
  },
);

conformance(
  {
    id: 'kv.v2.subpaths-exist',
    level: 'MUST',
    title: 'config, metadata/, delete/, undelete/ and destroy/ are served on a version 2 mount',
  },
  async (t) => {
    const key = t.unique('subs');
    await writeV2(t, kv2, key, { a: '1' });
    await writeV2(t, kv2, key, { a: '2' });
    t.check(await t.svc.get(`${kv2.path}/config`), statusIs(200));
    t.check(await t.svc.get(`${kv2.path}/metadata/${key}`), statusIs(200));
    t.check(await t.svc.post(`${kv2.path}/delete/${key}`, { body: { versions: [1] } }), success);
    t.check(await t.svc.post(`${kv2.path}/undelete/${key}`, { body: { versions: [1] } }), success);
    t.check(await t.svc.post(`${kv2.path}/destroy/${key}`, { body: { versions: [1] } }), success);
  },
);

conformance(
  {
    id: 'kv.v2.write-returns-version',
    level: 'MUST',
    title: 'POST /secret/data/:path answers 200 with version, created_time, deletion_time "" and destroyed false',
  },
  async (t) => {
    const ex = await t.svc.post(`${kv2.path}/data/${t.unique('wr')}`, { body: { data: { a: '1' } } });
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data/version', 1, 'is the first version'),
      bodyAt(
        '/data/created_time',
        (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
        'is a timestamp',
      ),
      bodyAt('/data/deletion_time', emptyOrAbsent, 'is empty (or left out) for a live version'),
      bodyAt('/data/destroyed', offOrAbsent, 'is false (or left out) for a new version'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.versions-increment',
    level: 'MUST',
    title: 'three POSTs to /secret/data/:path create versions 1, 2 and 3',
  },
  async (t) => {
    const key = t.unique('inc');
    const versions: (number | undefined)[] = [];
    for (const n of [1, 2, 3]) versions.push(await writeV2(t, kv2, key, { n }));
    const reported = versions.filter((v) => v !== undefined);
    if (reported.length) expectEqual(reported, [1, 2, 3], 'write answers report versions 1, 2, 3');
    t.check(
      await t.svc.get(`${kv2.path}/metadata/${key}`),
      statusIs(200),
      bodyAt('/data/current_version', 3, 'is 3 after three writes'),
    );
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 2 } }),
      statusIs(200),
      bodyAt('/data/data/n', 2, 'is the value of version 2'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.read-latest',
    level: 'MUST',
    title: 'GET /secret/data/:path without ?version returns the newest version',
  },
  async (t) => {
    const key = t.unique('latest');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    // The documents say where version 2 data lives, not that a read reports metadata: the version
    // number is checked only when the target reports one.
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data/n', 2, 'is the newest value'),
      bodyAt(
        '/data/metadata/version',
        (v: unknown) => v === undefined || v === 2,
        'is the newest version when reported',
      ),
    );
  },
);

conformance(
  {
    id: 'kv.v2.read-version',
    level: 'MUST',
    title: 'GET /secret/data/:path?version=1 returns version 1 after a second write',
  },
  async (t) => {
    const key = t.unique('old');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 1 } }),
      statusIs(200),
      bodyAt('/data/data/n', 1, 'is the value of version 1'),
      bodyAt('/data/metadata/version', 1, 'is version 1'),
    );
  },
);

conformance(
  { id: 'kv.v2.read-missing-404', level: 'MUST', title: 'GET /secret/data/:path of a key never written answers 404' },
  async (t) => {
    t.check(await t.svc.get(`${kv2.path}/data/${t.unique('never')}`), statusIs(404));
  },
);

conformance(
  {
    id: 'kv.v2.read-missing-404',
    level: 'MUST',
    title: 'GET /secret/data/:path?version=99 of a version that does not exist answers 404',
  },
  async (t) => {
    const key = t.unique('nover');
    await writeV2(t, kv2, key, { n: 1 });
    t.check(await t.svc.get(`${kv2.path}/data/${key}`, { query: { version: 99 } }), statusIs(404));
  },
);

conformance(
  {
    id: 'kv.v2.cas-mismatch-400',
    level: 'MUST',
    title: 'POST /secret/data/:path with a stale options.cas answers 400 and writes nothing',
  },
  async (t) => {
    const key = t.unique('cas');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    const ex = await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 3 }, options: { cas: 1 } } });
    t.check(ex, statusIs(400), errorsArray);
    t.check(await t.svc.get(`${kv2.path}/data/${key}`), statusIs(200), bodyAt('/data/data/n', 2, 'is still version 2'));
    t.check(
      await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 3 }, options: { cas: 2 } } }),
      statusIs(200, 204),
    );
  },
);

conformance(
  {
    id: 'kv.v2.cas-zero-create-only',
    level: 'MUST',
    title: 'POST /secret/data/:path with options.cas 0 creates a new key but is refused on an existing one',
  },
  async (t) => {
    const key = t.unique('cas0');
    t.check(
      await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 1 }, options: { cas: 0 } } }),
      statusIs(200, 204),
    );
    t.check(
      await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 2 }, options: { cas: 0 } } }),
      statusIs(400),
      errorsArray,
    );
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data/n', 1, 'is the value created with cas 0'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.cas-required',
    level: 'MUST',
    title: 'with cas_required set in the key metadata, POST /secret/data/:path without options.cas answers 400',
  },
  async (t) => {
    const key = t.unique('casreq');
    await writeV2(t, kv2, key, { n: 1 });
    t.check(await t.svc.post(`${kv2.path}/metadata/${key}`, { body: { cas_required: true } }), success);
    t.check(await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 2 } } }), statusIs(400), errorsArray);
    t.check(
      await t.svc.post(`${kv2.path}/data/${key}`, { body: { data: { n: 2 }, options: { cas: 1 } } }),
      statusIs(200, 204),
    );
  },
);

conformance(
  {
    id: 'kv.v2.custom-metadata-on-read',
    level: 'SHOULD',
    title: "GET /secret/data/:path reports the key's custom_metadata in data.metadata",
  },
  async (t) => {
    const key = t.unique('cm');
    await writeV2(t, kv2, key, { n: 1 });
    t.check(
      await t.svc.post(`${kv2.path}/metadata/${key}`, { body: { custom_metadata: { owner: 'team-a' } } }),
      success,
    );
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/metadata/custom_metadata/owner', 'team-a', 'is the custom metadata set on the key'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.subkeys',
    level: 'MAY',
    title: "GET /secret/subkeys/:path returns the secret's structure with null leaves",
  },
  async (t) => {
    const key = t.unique('sub');
    await writeV2(t, kv2, key, { user: 'app', conn: { host: 'db', port: 5432 } });
    const ex = await t.svc.get(`${kv2.path}/subkeys/${key}`, { validate: false });
    if (ex.response.status === 404 || ex.response.status === 405)
      t.skip('the target does not serve subkeys/ (an optional sub-path)', 'run.expectationsFile');
    t.check(
      ex,
      statusIs(200),
      bodyAt(
        '/data/subkeys',
        { user: null, conn: { host: null, port: null } },
        'mirrors the secret with every leaf null',
      ),
    );
    if (ex.response.text.includes('5432'))
      throw new CheckFailure('subkeys', 'subkeys/ leaked a secret value', 'no values', '[value present]');
    expectEqual(typeof body(ex).data?.metadata, 'object', 'subkeys/ also reports the version metadata');
  },
);
