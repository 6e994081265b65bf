/** Listing: directories only, keys directly under the path (secrets-service-core.md, "Key-value engine", "Conventions" 2). */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, statusBetween, statusIs } from '../../harness/checks/index.js';
import { writeV1, writeV2 } from '../lib/secrets.js';

const s = suite('kv');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

/**
 * Whether `keys` are the keys under a path holding `written` (relative names): every written key is
 * listed by its name or by a directory name holding it, and every listed name stands for a written
 * key. How deep a listing goes and how a directory is marked are the folder-suffix assumption's.
 */
function keysUnder(written: string[]): (v: unknown) => boolean {
  const covers = (entry: string, key: string) =>
    key === entry || key.startsWith(entry.endsWith('/') ? entry : `${entry}/`);
  return (v) =>
    Array.isArray(v) &&
    v.every((e) => typeof e === 'string' && e !== '' && written.some((k) => covers(e, k))) &&
    written.every((k) => v.some((e) => covers(e as string, k)));
}

conformance(
  {
    id: 'kv.list.keys-under-path',
    level: 'MUST',
    title:
      'LIST /secret/:dir returns the keys under it (a, b/c and b/e/f, each by its name or its directory) and nothing else',
  },
  async (t) => {
    const dir = t.unique('tree');
    await writeV1(t, kv1, `${dir}/a`, { v: '1' });
    await writeV1(t, kv1, `${dir}/b/c`, { v: '2' });
    await writeV1(t, kv1, `${dir}/b/e/f`, { v: '3' });
    await writeV1(t, kv1, `${dir}-beside/x`, { v: '4' });
    const ex = await t.svc.list(`${kv1.path}/${dir}`);
    t.check(ex, statusIs(200), bodyAt('/data/keys', keysUnder(['a', 'b/c', 'b/e/f']), 'lists a, b/c and b/e/f only'));
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
    title: 'LIST /secret/:path on a leaf key with nothing under it is refused, while its directory lists it',
  },
  async (t) => {
    const dir = t.unique('leaf');
    await writeV1(t, kv1, `${dir}/leaf`, { v: '1' });
    // No status is given: 404 (a list with no results), 400 (not a directory) or any other error refuses it.
    t.check(await t.svc.list(`${kv1.path}/${dir}/leaf`), statusBetween(400, 599), errorsArray);
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
    title: 'LIST /secret/metadata/:path on a version 2 leaf key is refused',
  },
  async (t) => {
    const dir = t.unique('leaf');
    await writeV2(t, kv2, `${dir}/leaf`, { v: '1' });
    t.check(await t.svc.list(`${kv2.path}/metadata/${dir}/leaf`), statusBetween(400, 599), errorsArray);
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
    t.check(ex, statusIs(200));
    t.as('kv.list.keys-under-path').check(ex, bodyAt('/data/keys', keysUnder(['b', 'c/d']), 'lists b and c/d only'));
  },
);

conformance(
  {
    id: 'kv.v2.metadata-list',
    level: 'MUST',
    title:
      'LIST /secret/metadata/:dir still lists a key whose latest version is soft-deleted or destroyed (its metadata stays)',
  },
  async (t) => {
    const dir = t.unique('metadel');
    await writeV2(t, kv2, `${dir}/live`, { v: '1' });
    await writeV2(t, kv2, `${dir}/deleted`, { v: '2' });
    await writeV2(t, kv2, `${dir}/destroyed`, { v: '3' });
    t.check(await t.svc.delete(`${kv2.path}/data/${dir}/deleted`), statusBetween(200, 299));
    t.check(
      await t.svc.post(`${kv2.path}/destroy/${dir}/destroyed`, { body: { versions: [1] } }),
      statusBetween(200, 299),
    );
    const ex = await t.svc.list(`${kv2.path}/metadata/${dir}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data/keys', keysUnder(['live', 'deleted', 'destroyed']), 'lists live, deleted and destroyed'),
    );
  },
);

conformance(
  {
    id: 'kv.list.keys-under-path',
    also: ['kv.list.folder-suffix'],
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
        (v: unknown) => Array.isArray(v) && (v.includes(`${dir}/`) || v.includes(`${dir}/x`)),
        `lists ${dir}/x, by its directory or itself`,
      ),
    );
    t.as('kv.list.folder-suffix').check(
      ex,
      bodyAt(
        '/data/keys',
        (v: unknown) => Array.isArray(v) && v.includes(`${dir}/`) && !v.includes(`${dir}/x`),
        `includes "${dir}/" and not the deeper key`,
      ),
    );
  },
);
