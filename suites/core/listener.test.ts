/** Listener-level rules: require_request_header and the maximum request size ("Conventions" 8, "Limits"). */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, statusBetween, statusIs, success } from '../../harness/checks/index.js';

const s = suite('core');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });

conformance(
  {
    id: 'core.request-header.required-when-configured',
    level: 'MUST',
    requires: ['requireRequestHeader'],
    title: 'GET /sys/mounts without X-Svc-Request is refused; with it, served',
  },
  async (t) => {
    t.check(await t.svc.get('sys/mounts', { omitRequestHeader: true, validate: false }), statusBetween(400, 499));
    t.check(await t.svc.get('sys/mounts'), statusIs(200));
  },
);

conformance(
  {
    id: 'core.request-header.required-when-configured',
    level: 'MUST',
    requires: ['requireRequestHeader'],
    title: 'POST /secret/:path without X-Svc-Request is refused and stores nothing; with it, stored',
  },
  async (t) => {
    const key = t.unique('hdrwrite');
    t.check(
      await t.svc.post(`${kv1.path}/${key}`, { body: { a: '1' }, omitRequestHeader: true, validate: false }),
      statusBetween(400, 599),
    );
    t.check(await t.svc.get(`${kv1.path}/${key}`), statusIs(404));
    t.check(await t.svc.post(`${kv1.path}/${key}`, { body: { a: '2' } }), success);
    t.check(await t.svc.get(`${kv1.path}/${key}`), statusIs(200), bodyAt('/data/a', '2', 'is the value sent with it'));
  },
);

conformance(
  {
    id: 'core.request-header.rejection-status',
    also: ['core.request-header.required-when-configured'],
    level: 'SHOULD',
    requires: ['requireRequestHeader'],
    title: 'POST /secret/:path without X-Svc-Request answers a 4xx with an errors array and stores nothing',
  },
  async (t) => {
    const key = t.unique('nohdr');
    const ex = await t.svc.post(`${kv1.path}/${key}`, { body: { a: '1' }, omitRequestHeader: true, validate: false });
    // That it is refused and stores nothing is the rule; which status and body the assumption's.
    t.as('core.request-header.required-when-configured').check(ex, statusBetween(400, 599));
    t.as('core.request-header.required-when-configured').check(await t.svc.get(`${kv1.path}/${key}`), statusIs(404));
    t.check(ex, statusBetween(400, 499), errorsArray);
  },
);

conformance(
  {
    id: 'core.limits.request-size',
    level: 'MUST',
    timeoutMs: 120_000,
    title: 'POST /secret/:path with a body over the maximum request size is refused and stores nothing',
  },
  async (t) => {
    const limit = t.config.limits.maxRequestBytes;
    const key = t.unique('big');
    // A valid JSON object one byte over the limit: only its size is wrong.
    const prefix = '{"blob":"';
    const suffix = '"}';
    const raw = Buffer.alloc(limit + 1, 'a');
    raw.write(prefix, 0);
    raw.write(suffix, raw.length - suffix.length);
    const ex = await t.svc.post(`${kv1.path}/${key}`, {
      rawBody: raw,
      contentType: 'application/json',
      validate: false,
      timeoutMs: 60_000,
    });
    t.check(ex, statusBetween(400, 499));
    t.note(`a ${limit + 1}-byte body answered ${ex.response.status}`);
    t.check(await t.svc.get(`${kv1.path}/${key}`), statusIs(404));
  },
);

conformance(
  {
    id: 'core.limits.request-size',
    level: 'MUST',
    title: 'POST /secret/:path with a body well under the maximum request size is accepted',
  },
  async (t) => {
    const key = t.unique('small');
    t.check(await t.svc.post(`${kv1.path}/${key}`, { body: { blob: 'a'.repeat(64 * 1024) } }), success);
  },
);

conformance(
  {
    id: 'core.limits.request-size',
    level: 'MUST',
    timeoutMs: 120_000,
    title: 'POST /secret/:path with a body 1 KiB under the maximum request size is accepted and stored',
  },
  async (t) => {
    const limit = t.config.limits.maxRequestBytes;
    const dir = t.unique('near');
    const key = `${dir}/blob`;
    // A valid JSON object 1 KiB under the limit: a service whose maximum is smaller refuses it.
    const size = limit - 1024;
    const prefix = '{"blob":"';
    const suffix = '"}';
    const raw = Buffer.alloc(size, 'a');
    raw.write(prefix, 0);
    raw.write(suffix, raw.length - suffix.length);
    const ex = await t.svc.post(`${kv1.path}/${key}`, {
      rawBody: raw,
      contentType: 'application/json',
      validate: false,
      timeoutMs: 60_000,
    });
    t.note(`a ${size}-byte body answered ${ex.response.status}`);
    t.check(ex, success);
    // Listed, not read back: the secret is as large as the limit allows.
    t.check(
      await t.svc.list(`${kv1.path}/${dir}`),
      statusIs(200),
      bodyAt('/data/keys', ['blob'], 'lists the stored secret'),
    );
  },
);
