/** Verbs, LIST and help (secrets-service-core.md, "Endpoints > Conventions" 1, 2, 6). */
import { suite, conformance } from '../../harness/index.js';
import {
  CheckFailure,
  bodyAt,
  errorsArray,
  expectEqual,
  expectThat,
  statusIs,
  success,
} from '../../harness/checks/index.js';
import { body, policyToken, writeV1, writeV2 } from '../lib/secrets.js';

const s = suite('core');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

conformance(
  {
    id: 'core.verbs.supported',
    level: 'MUST',
    title: 'GET, POST, PUT, DELETE and LIST are each served on /secret/:path',
  },
  async (t) => {
    const dir = t.unique('verbs');
    t.check(await t.svc.post(`${kv1.path}/${dir}/a`, { body: { v: '1' } }), success);
    t.check(await t.svc.put(`${kv1.path}/${dir}/b`, { body: { v: '2' } }), success);
    t.check(await t.svc.get(`${kv1.path}/${dir}/a`), statusIs(200));
    t.check(await t.svc.list(`${kv1.path}/${dir}`), statusIs(200));
    t.check(await t.svc.delete(`${kv1.path}/${dir}/a`), success);
  },
);

conformance(
  {
    id: 'core.verbs.put-post-synonyms',
    level: 'MUST',
    title: 'PUT /secret/:path stores the same secret POST stores, and PUT updates a POSTed one',
  },
  async (t) => {
    const viaPut = t.unique('put');
    t.check(await t.svc.put(`${kv1.path}/${viaPut}`, { body: { colour: 'teal' } }), success);
    t.check(
      await t.svc.get(`${kv1.path}/${viaPut}`),
      statusIs(200),
      bodyAt('/data/colour', 'teal', 'is the field written with PUT'),
    );
    const viaPost = t.unique('post');
    await writeV1(t, kv1, viaPost, { colour: 'red' });
    t.check(await t.svc.put(`${kv1.path}/${viaPost}`, { body: { colour: 'blue' } }), success);
    t.check(
      await t.svc.get(`${kv1.path}/${viaPost}`),
      statusIs(200),
      bodyAt('/data/colour', 'blue', 'is the field updated with PUT'),
    );
  },
);

conformance(
  {
    id: 'core.verbs.put-post-synonyms',
    level: 'MUST',
    title: 'PUT /sys/policies/acl/:name writes the policy like POST',
  },
  async (t) => {
    const name = t.unique('pol');
    t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
    const text = 'path "secret/data/put-post" { capabilities = ["read"] }';
    t.check(await t.svc.put(`sys/policies/acl/${name}`, { body: { policy: text } }), success);
    t.check(
      await t.svc.get(`sys/policies/acl/${name}`),
      statusIs(200),
      bodyAt('/data/policy', text, 'is the policy written with PUT'),
    );
  },
);

conformance(
  {
    id: 'core.list.verb-equals-query',
    level: 'MUST',
    title: 'LIST /secret/:path and GET /secret/:path?list=true return the same keys',
  },
  async (t) => {
    const dir = t.unique('list');
    await writeV1(t, kv1, `${dir}/one`, { v: '1' });
    await writeV1(t, kv1, `${dir}/two`, { v: '2' });
    await writeV1(t, kv1, `${dir}/sub/three`, { v: '3' });
    const verb = await t.svc.list(`${kv1.path}/${dir}`);
    const query = await t.svc.list(`${kv1.path}/${dir}`, { listVia: 'query' });
    t.check(verb, statusIs(200));
    t.check(query, statusIs(200));
    const keys = (ex: typeof verb) => [...((body(ex).data?.keys ?? []) as string[])].sort();
    expectEqual(keys(query), keys(verb), 'GET ?list=true returned different keys than the LIST verb');
    expectEqual(
      keys(verb).filter((k) => k.startsWith('one') || k.startsWith('two')).length,
      2,
      'both written keys are listed',
    );
  },
);

conformance(
  {
    id: 'core.list.verb-equals-query',
    level: 'MUST',
    title: 'GET /secret/metadata/:path?list=true lists a version 2 directory like LIST',
  },
  async (t) => {
    const dir = t.unique('list');
    await writeV2(t, kv2, `${dir}/x`, { v: '1' });
    const verb = await t.svc.list(`${kv2.path}/metadata/${dir}`);
    const query = await t.svc.list(`${kv2.path}/metadata/${dir}`, { listVia: 'query' });
    t.check(verb, statusIs(200), bodyAt('/data/keys', ['x'], 'lists the one key'));
    t.check(query, statusIs(200), bodyAt('/data/keys', ['x'], 'lists the one key, as the LIST verb does'));
  },
);

conformance(
  {
    id: 'core.list.empty-404',
    level: 'MUST',
    title: 'LIST /secret/:path of an empty directory answers 404 with {errors: []}',
  },
  async (t) => {
    const ex = await t.svc.list(`${kv1.path}/${t.unique('empty')}`);
    t.check(ex, statusIs(404), bodyAt('', { errors: [] }, 'is exactly {errors: []}'));
  },
);

conformance(
  {
    id: 'core.list.empty-404',
    level: 'MUST',
    title: 'GET /secret/metadata/:path?list=true of an empty directory answers 404 with {errors: []}',
  },
  async (t) => {
    const ex = await t.svc.list(`${kv2.path}/metadata/${t.unique('empty')}`, { listVia: 'query' });
    t.check(ex, statusIs(404), bodyAt('', { errors: [] }, 'is exactly {errors: []}'));
  },
);

function checkHelp(ex: Parameters<typeof body>[0]): void {
  const b = body(ex);
  if (typeof b?.help !== 'string' || b.help.length === 0)
    throw new CheckFailure('help', 'the help answer has no Markdown help text', 'a non-empty string', b?.help);
  const api = b.openapi;
  if (
    !api ||
    typeof api !== 'object' ||
    typeof api.openapi !== 'string' ||
    !/^3\./.test(api.openapi) ||
    !api.paths ||
    typeof api.paths !== 'object'
  ) {
    throw new CheckFailure(
      'help',
      'the help answer has no OpenAPI 3 document with paths',
      { openapi: '3.x', paths: {} },
      api,
    );
  }
}

conformance(
  {
    id: 'core.help.help-and-openapi',
    level: 'MUST',
    title: 'GET /secret/data/:path?help=1 answers help text and an OpenAPI 3 document',
  },
  async (t) => {
    const key = t.unique('help');
    await writeV2(t, kv2, key, { secret: 'value' });
    const ex = await t.svc.get(`${kv2.path}/data/${key}`, { query: { help: 1 }, validate: false });
    t.check(ex, statusIs(200));
    checkHelp(ex);
    if (ex.response.text.includes('"value"'))
      throw new CheckFailure(
        'help',
        'the help answer carries the secret value instead of help',
        'help only',
        '[secret value]',
      );
  },
);

conformance(
  {
    id: 'core.help.help-and-openapi',
    level: 'MUST',
    title: 'GET /sys/mounts?help=1 answers help text and an OpenAPI 3 document',
  },
  async (t) => {
    const ex = await t.svc.get('sys/mounts', { query: { help: 1 }, validate: false });
    t.check(ex, statusIs(200));
    checkHelp(ex);
  },
);

conformance(
  {
    id: 'core.help.openapi-relative-paths',
    also: ['core.help.help-and-openapi'],
    level: 'MUST',
    title: 'GET /secret/data/:path?help=1 gives OpenAPI paths relative to the queried path',
  },
  async (t) => {
    const ex = await t.svc.get(`${kv2.path}/data/${t.unique('help')}`, { query: { help: 1 }, validate: false });
    t.as('core.help.help-and-openapi').check(ex, statusIs(200));
    t.proving('core.help.help-and-openapi', () => checkHelp(ex));
    const paths = Object.keys(body(ex).openapi.paths as object);
    const absolute = paths.filter((p) => p.startsWith('/v1/') || p.startsWith('v1/'));
    expectEqual(absolute, [], 'help OpenAPI paths must not be absolute /v1/ paths');
  },
);

/** Whether `path` (an OpenAPI path, `{name}` segments matching anything) ends `queried` after a non-empty prefix of it. */
function resolvesAgainst(path: string, queried: string): boolean {
  const pattern = path
    .replace(/^\/+/, '')
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '.+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return pattern !== '' && new RegExp(`^.+/${pattern}$`).test(queried);
}

conformance(
  {
    id: 'core.help.openapi-paths-resolve',
    also: ['core.help.help-and-openapi'],
    level: 'MUST',
    title: 'GET /secret/data/:path?help=1 gives an OpenAPI path that resolves against the queried path to it',
  },
  async (t) => {
    const queried = `${kv2.path}/data/${t.unique('help')}`;
    const ex = await t.svc.get(queried, { query: { help: 1 }, validate: false });
    t.as('core.help.help-and-openapi').check(ex, statusIs(200));
    t.proving('core.help.help-and-openapi', () => checkHelp(ex));
    // Paths written as absolute /v1/ paths are core.help.openapi-relative-paths' business.
    const paths = Object.keys(body(ex).openapi.paths as object).filter((p) => !/^\/?v1\//.test(p));
    if (!paths.length) t.notApplicable('every path of the help document is an absolute /v1/ path');
    expectThat(
      paths.some((p) => resolvesAgainst(p, queried)),
      'help-paths',
      paths,
      'a path relative to the queried path (e.g. /data/{path})',
      `no path of the help document, appended to a part of ${queried}, names the queried path`,
    );
  },
);

conformance(
  {
    id: 'core.help.requires-permission',
    level: 'MUST',
    title: 'GET /secret/data/:path?help=1 with a token that has no access answers 403 or 404',
  },
  async (t) => {
    const token = await policyToken(t, `path "${kv2.path}/data/other-${t.unique('x')}" { capabilities = ["read"] }`);
    const ex = await t.svc.get(`${kv2.path}/data/${t.unique('help')}`, { query: { help: 1 }, token, validate: false });
    t.check(ex, statusIs(403, 404), errorsArray);
  },
);
