/** Listing: directories only, keys directly under the path (secrets-service-core.md, "Key-value engine", "Conventions" 2). */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, statusIs } from '../../harness/checks/index.js';
import { writeV1, writeV2 } from '../lib/secrets.js';

const s = suite('kv');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

conformance(
  {
    id: 'kv.list.keys-under-path',
    level: 'MUST',
    title: 'LIST /secret/:dir returns exactly the keys and sub-directories directly under it',
  },
  async (t) => {
    const dir = t.unique('tree');
    await writeV1(t, kv1, `${dir}/a`, { v: '1' });
    await writeV1(t, kv1, `${dir}/b/c`, { v: '2' });
    await writeV1(t, kv1, `${dir}/b/e/f`, { v: '3' });
    const ex = await t.svc.list(`${kv1.path}/${dir}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt(
        '/data/keys',
        (v: unknown) => Array.isArray(v) && [...v].sort().join(',') === 'a,b/',
        'is exactly ["a", "b/"]',
      ),
    );
  },
);

conformance(
  {
    id: 'kv.list.folder-suffix',
    level: 'MUST',
    title: 'LIST /secret/:dir shows a sub-directory once, with a trailing slash',
  },
  async (t) => {
    const dir = t.unique('fold');
    await writeV1(t, kv1, `${dir}/sub/x`, { v: '1' });
    await writeV1(t, kv1, `${dir}/sub/y`, { v: '2' });
    t.check(await t.svc.list(`${kv1.path}/${dir}`), statusIs(200), bodyAt('/data/keys', ['sub/'], 'is ["sub/"]'));
  },
);

conformance(
  {
    id: 'kv.list.directories-only',
    level: 'MUST',
    title: 'LIST /secret/:path on a leaf key with no children answers 404',
  },
  async (t) => {
    const dir = t.unique('leaf');
    await writeV1(t, kv1, `${dir}/leaf`, { v: '1' });
    t.check(await t.svc.list(`${kv1.path}/${dir}/leaf`), statusIs(404));
    t.check(
      await t.svc.list(`${kv1.path}/${dir}`),
      statusIs(200),
      bodyAt('/data/keys', ['leaf'], 'lists the leaf from its directory'),
    );
  },
);

conformance(
  {
    id: 'kv.list.directories-only',
    level: 'MUST',
    title: 'LIST /secret/metadata/:path on a version 2 leaf key answers 404',
  },
  async (t) => {
    const dir = t.unique('leaf');
    await writeV2(t, kv2, `${dir}/leaf`, { v: '1' });
    t.check(await t.svc.list(`${kv2.path}/metadata/${dir}/leaf`), statusIs(404));
  },
);

conformance(
  {
    id: 'kv.list.empty-directory-404',
    level: 'MUST',
    title: 'LIST /secret/:dir of a directory holding nothing answers 404 with {errors: []}',
  },
  async (t) => {
    t.check(
      await t.svc.list(`${kv1.path}/${t.unique('none')}`),
      statusIs(404),
      bodyAt('', { errors: [] }, 'is exactly {errors: []}'),
    );
  },
);

conformance(
  {
    id: 'kv.list.empty-directory-404',
    level: 'MUST',
    title: 'LIST /secret/metadata/:dir of an empty version 2 directory answers 404 with {errors: []}',
  },
  async (t) => {
    t.check(
      await t.svc.list(`${kv2.path}/metadata/${t.unique('none')}`),
      statusIs(404),
      bodyAt('', { errors: [] }, 'is exactly {errors: []}'),
    );
  },
);

conformance(
  {
    id: 'kv.v2.metadata-list',
    level: 'MUST',
    also: ['kv.list.keys-under-path'],
    title: 'LIST /secret/metadata/:dir returns the version 2 keys under the directory',
  },
  async (t) => {
    const dir = t.unique('meta');
    await writeV2(t, kv2, `${dir}/b`, { v: '1' });
    await writeV2(t, kv2, `${dir}/c/d`, { v: '2' });
    const ex = await t.svc.list(`${kv2.path}/metadata/${dir}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt(
        '/data/keys',
        (v: unknown) => Array.isArray(v) && [...v].sort().join(',') === 'b,c/',
        'is exactly ["b", "c/"]',
      ),
    );
  },
);

conformance(
  {
    id: 'kv.list.keys-under-path',
    level: 'MUST',
    title: 'LIST /secret (the mount root) lists the top-level keys and directories',
  },
  async (t) => {
    const dir = t.unique('root');
    await writeV1(t, kv1, `${dir}/x`, { v: '1' });
    const ex = await t.svc.list(kv1.path);
    t.check(
      ex,
      statusIs(200),
      bodyAt(
        '/data/keys',
        (v: unknown) => Array.isArray(v) && v.includes(`${dir}/`) && !v.includes(`${dir}/x`),
        `includes "${dir}/" and not the deeper key`,
      ),
    );
  },
);
