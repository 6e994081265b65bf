/** Error body, statuses, paths, methods and JSON bodies (secrets-service-core.md, "Errors", "Conventions"). */
import { suite, conformance, type T } from '../../harness/index.js';
import {
  CheckFailure,
  bodyAt,
  errorsArray,
  expectThat,
  jsonContentType,
  statusBetween,
  statusIs,
  success,
} from '../../harness/checks/index.js';
import { policyToken, writeV2 } from '../lib/secrets.js';
import { runCases } from '../lib/cases.js';
import { kvWorld } from '../lib/worlds.js';

const s = suite('core');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

conformance(
  {
    id: 'core.errors.body-errors-array',
    level: 'MUST',
    title: 'GET of an unknown path answers 404 with {errors: [string]}',
  },
  async (t) => {
    const ex = await t.svc.get(`${t.unique('nomount')}/anything`);
    t.check(ex, statusIs(404), errorsArray);
  },
);

conformance(
  {
    id: 'core.errors.body-errors-array',
    level: 'MUST',
    title: 'a request with an unknown token answers a 4xx with {errors: [string]}',
  },
  async (t) => {
    const ex = await t.svc.get('sys/mounts', { token: `bogus-${t.unique('tok')}` });
    t.check(ex, statusBetween(400, 499), errorsArray, jsonContentType);
  },
);

conformance(
  {
    id: 'core.errors.body-errors-array',
    level: 'MUST',
    title: 'GET /secret/data/:path of a key never written (a 404 with no message to give) answers {errors: [...]}',
  },
  async (t) => {
    const ex = await t.svc.get(`${kv2.path}/data/${t.unique('never')}`);
    t.check(ex, statusBetween(400, 499), errorsArray);
  },
);

conformance(
  {
    id: 'core.errors.body-errors-array',
    level: 'MUST',
    title: 'POST /secret/:path with malformed JSON answers a 4xx with {errors: [string]}',
  },
  async (t) => {
    const ex = await t.svc.post(`${kv1.path}/${t.unique('bad')}`, {
      rawBody: '{"a": ',
      contentType: 'application/json',
      validate: false,
    });
    t.check(ex, statusBetween(400, 499), errorsArray);
  },
);

conformance(
  {
    id: 'core.errors.status-400',
    also: ['core.errors.body-errors-array'],
    level: 'MUST',
    title: 'POST /secret/:path with malformed JSON answers 400',
  },
  async (t) => {
    const ex = await t.svc.post(`${kv1.path}/${t.unique('bad')}`, {
      rawBody: '{"a": ',
      contentType: 'application/json',
      validate: false,
    });
    t.check(ex, statusIs(400));
    t.as('core.errors.body-errors-array').check(ex, errorsArray);
  },
);

conformance(
  {
    id: 'core.errors.status-403',
    level: 'MUST',
    title: 'GET /sys/mounts with an unknown client token (bad credentials) answers 403',
  },
  async (t) => {
    const ex = await t.svc.get('sys/mounts', { token: `bogus-${t.unique('tok')}` });
    t.check(ex, statusIs(403), errorsArray);
  },
);

conformance(
  {
    id: 'core.errors.status-403',
    level: 'MUST',
    title:
      'GET /secret/data/:path with a token whose policies do not grant it (no access) answers 403, or 404 to hide it',
  },
  async (t) => {
    const key = t.unique('noaccess');
    await writeV2(t, kv2, key, { a: '1' });
    const token = await policyToken(t, `path "${kv2.path}/data/elsewhere" { capabilities = ["read"] }`);
    t.check(await t.svc.get(`${kv2.path}/data/${key}`, { token }), statusIs(403, 404), errorsArray);
  },
);

conformance(
  {
    id: 'core.errors.status-404-hides-forbidden',
    level: 'MAY',
    title: 'GET /secret/data/:path refused by policy answers the same status whether the path exists or not',
  },
  async (t) => {
    const existing = t.unique('hidden');
    await writeV2(t, kv2, existing, { a: '1' });
    const token = await policyToken(t, `path "${kv2.path}/data/elsewhere" { capabilities = ["read"] }`);
    const there = await t.svc.get(`${kv2.path}/data/${existing}`, { token });
    const missing = await t.svc.get(`${kv2.path}/data/${t.unique('missing')}`, { token });
    // Which refusal status is core.errors.status-403's business; this rule is that both are alike.
    t.check(there, statusBetween(400, 499), errorsArray);
    t.check(missing, statusBetween(400, 499), errorsArray);
    expectThat(
      there.response.status === missing.response.status,
      'no-leak',
      { existing: there.response.status, missing: missing.response.status },
      `the same status for both (${there.response.status})`,
      'the refusal tells an existing path from a missing one',
    );
  },
);

conformance(
  {
    id: 'core.path.unknown-404',
    level: 'MUST',
    also: ['core.errors.status-404'],
    title: 'GET of a path no mount serves answers 404',
  },
  async (t) => {
    const ex = await t.svc.get(`${t.unique('nomount')}/data/x`);
    t.check(ex, statusIs(404), errorsArray);
  },
);

conformance(
  {
    id: 'core.path.trailing-period-404',
    level: 'MUST',
    title: 'POST /secret/:path with a path ending in a period answers 404 and stores nothing',
  },
  async (t) => {
    const key = `${t.unique('dot')}.`;
    const ex = await t.svc.post(`${kv1.path}/${key}`, { body: { a: '1' }, validate: false });
    t.check(ex, statusIs(404), errorsArray);
  },
);

conformance(
  {
    id: 'core.path.trailing-period-404',
    level: 'MUST',
    title: 'POST /secret/data/:path ending in a period answers 404 and creates no key',
  },
  async (t) => {
    const dir = t.unique('dot');
    const ex = await t.svc.post(`${kv2.path}/data/${dir}/key.`, { body: { data: { a: '1' } }, validate: false });
    t.check(ex, statusIs(404), errorsArray);
    t.check(await t.svc.list(`${kv2.path}/metadata/${dir}`), statusIs(404));
  },
);

conformance(
  {
    id: 'core.method.unsupported-405',
    level: 'MUST',
    title: 'DELETE /secret/config on a version 2 mount answers 405 with an errors array',
  },
  async (t) => {
    const ex = await t.svc.delete(`${kv2.path}/config`, { validate: false });
    t.check(ex, statusIs(405), errorsArray);
  },
);

conformance(
  { id: 'core.method.unsupported-405', level: 'MUST', title: 'POST /sys/mounts (list-only path) answers 405' },
  async (t) => {
    const ex = await t.svc.post('sys/mounts', { body: {}, validate: false });
    t.check(ex, statusIs(405), errorsArray);
  },
);

conformance(
  {
    id: 'core.content-type.set-on-responses',
    level: 'MUST',
    title: 'a JSON success, a JSON error and a help answer each carry Content-Type application/json and a JSON body',
  },
  async (t) => {
    t.check(await t.svc.get('sys/mounts'), statusIs(200), jsonContentType, bodyAt('', isObject, 'is a JSON object'));
    t.check(await t.svc.get(`${t.unique('nomount')}/x`), statusIs(404), jsonContentType, errorsArray);
    const help = await t.svc.get('sys/mounts', { query: { help: 1 }, validate: false });
    t.check(help, statusIs(200), jsonContentType, bodyAt('', isObject, 'is a JSON object'));
  },
);

conformance(
  {
    id: 'core.content-type.not-required',
    level: 'MUST',
    title: 'POST /secret/:path with a JSON body and no Content-Type is accepted',
  },
  async (t) => {
    const key = t.unique('noct');
    const ex = await t.svc.post(`${kv1.path}/${key}`, { rawBody: JSON.stringify({ colour: 'teal' }) });
    t.check(ex, success);
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data/colour', 'teal', 'is the field sent without Content-Type'),
    );
  },
);

/** GET `{base_url}<path>` with the run's token, outside the client's /v1/ base: the request the prefix rule is about. */
async function beside(t: T, path: string): Promise<void> {
  const headers: Record<string, string> = {
    [t.config.dialect.tokenHeader]: t.config.svc.token,
    [t.config.dialect.requestHeader]: 'true',
  };
  if (t.config.svc.namespace) headers[t.config.dialect.namespaceHeader] = t.config.svc.namespace;
  const res = await fetch(`${t.config.svc.addr.replace(/\/+$/, '')}${path}`, {
    headers,
    redirect: 'manual',
    signal: AbortSignal.timeout(t.config.timeouts.requestMs),
  });
  const text = await res.text();
  t.note(`GET ${path} answered ${res.status}`);
  // Not served: an error or a redirect, at least not the mount listing a /v1/ route answers.
  if (res.status < 400 && /"data"\s*:/.test(text))
    throw new CheckFailure('status', `GET ${path} was served`, '>= 400', `${res.status} ${text.slice(0, 80)}`);
}

conformance(
  { id: 'core.routes.v1-prefix', level: 'MUST', title: 'GET /v2/sys/mounts (a version other than v1) is not served' },
  async (t) => {
    await beside(t, '/v2/sys/mounts');
  },
);

conformance(
  { id: 'core.routes.v1-prefix', level: 'MUST', title: 'GET /sys/mounts without the /v1/ prefix is not served' },
  async (t) => {
    await beside(t, '/sys/mounts');
  },
);

runCases(new URL('./malformed-bodies.cases.yaml', import.meta.url), { kv: kvWorld({ kv1, kv2 }) });

conformance(
  {
    id: 'core.errors.status-400',
    also: ['core.errors.body-errors-array'],
    level: 'MUST',
    title: 'PUT /sys/mounts/:path without a type answers 400',
  },
  async (t) => {
    const ex = await t.svc.put(`sys/mounts/${t.unique('notype')}`, {
      body: { options: { version: '2' } },
      validate: false,
    });
    t.check(ex, statusIs(400));
    t.as('core.errors.body-errors-array').check(ex, errorsArray);
  },
);
