/**
 * The key-value engine's switches about data beyond the plain (see switches.ts for the rest of the
 * table): keys holding characters outside [A-Za-z0-9._-] or differing only by case, non-ASCII
 * text in values, a version 1 secret whose only field is called `data`, and what a version 2 write
 * answers. Each replaces rules of rules.ts.
 */
import { switchesOf } from '../../../switches.js';
import type { KvRules } from './rules.js';

const { fault } = switchesOf<KvRules>(['kv']);

/** A string's UTF-8 bytes read back as Latin-1 (what a service that mixes up encodings stores). */
const mangled = (value: unknown): unknown => {
  if (typeof value === 'string') return Buffer.from(value, 'utf8').toString('latin1');
  if (Array.isArray(value)) return value.map(mangled);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mangled(v)]));
  return value;
};

/** Characters a key may hold in a service that restricts them. */
const PLAIN_KEY = /^[A-Za-z0-9._/-]*$/;

export const kvDataSwitches = [
  // --- keys ---
  fault('kv.v1-keys-case-folded', {
    breaks: 'kv.v1.write-read',
    statements: ['doc.core.kv.v1-path'],
    description: 'Version 1 keys are stored lower-cased, so two keys differing only by case are one secret.',
    replace: (rules) => ({ v1Key: (path) => rules.v1Key(path).toLowerCase() }),
  }),
  fault('kv.v2-keys-case-folded', {
    breaks: 'kv.v2.data-path',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'Version 2 keys are stored lower-cased, so two keys differing only by case are one secret.',
    replace: (rules) => ({
      v2Route: (path) => {
        const route = rules.v2Route(path);
        return { ...route, key: route.key.toLowerCase() };
      },
    }),
  }),
  fault('kv.v1-key-charset-restricted', {
    breaks: 'kv.v1.write-read',
    statements: ['doc.core.kv.v1-path'],
    description:
      'A version 1 write to a key holding characters outside letters, digits, ".", "_", "-" and "/" (a space, "@", "+", non-ASCII) is refused with 400.',
    replace: (rules) => ({
      keyProblem: (key, version) =>
        version === 1 && !PLAIN_KEY.test(key)
          ? 'keys may hold only letters, digits, ".", "_", "-" and "/"'
          : rules.keyProblem(key, version),
    }),
  }),
  fault('kv.v2-key-charset-restricted', {
    breaks: 'kv.v2.data-path',
    statements: ['doc.core.kv.v2-data-path'],
    description:
      'A version 2 write to a key holding characters outside letters, digits, ".", "_", "-" and "/" (a space, "@", "+", non-ASCII) is refused with 400.',
    replace: (rules) => ({
      keyProblem: (key, version) =>
        version === 2 && !PLAIN_KEY.test(key)
          ? 'keys may hold only letters, digits, ".", "_", "-" and "/"'
          : rules.keyProblem(key, version),
    }),
  }),
  fault('kv.v1-key-plus-as-space', {
    breaks: 'kv.list.keys-under-path',
    statements: ['doc.core.kv.list-keys-under-path'],
    description:
      'Version 1 keys are form-decoded ("+" becomes a space): a key written as a+b reads back at a+b but is listed as "a b" (and is the same secret as "a b").',
    replace: (rules) => ({ v1Key: (path) => rules.v1Key(path).replace(/\+/g, ' ') }),
  }),
  // --- values ---
  fault('kv.v1-non-ascii-mangled', {
    breaks: 'kv.v1.body-fields',
    statements: ['doc.core.kv.v1-body'],
    description: 'Version 1 string values holding non-ASCII text are stored with their UTF-8 bytes read as Latin-1.',
    replace: (rules) => ({ v1Values: (fields) => rules.v1Values(mangled(fields) as Record<string, unknown>) }),
  }),
  fault('kv.v2-non-ascii-mangled', {
    breaks: 'kv.v2.data-wrapped',
    statements: ['doc.core.kv.v2-data-wrapped'],
    description: 'Version 2 string values holding non-ASCII text are stored with their UTF-8 bytes read as Latin-1.',
    replace: (rules) => ({
      v2VersionData: (previous, fields) => rules.v2VersionData(previous, mangled(fields) as Record<string, unknown>),
    }),
  }),
  fault('kv.v1-data-field-unwrapped', {
    breaks: 'kv.v1.body-fields',
    statements: ['doc.core.kv.v1-body'],
    description:
      'A version 1 write whose only field is called `data` (an object) is taken for a version 2 body: the fields inside it are stored instead of the `data` field.',
    replace: (rules) => ({
      v1Values: (fields) => {
        const keys = Object.keys(fields);
        const inner = fields.data;
        return keys.length === 1 && keys[0] === 'data' && inner && typeof inner === 'object' && !Array.isArray(inner)
          ? rules.v1Values({ ...(inner as Record<string, unknown>) })
          : rules.v1Values(fields);
      },
    }),
  }),
  // --- what a version 2 write answers ---
  fault('kv.v2-write-response-partial', {
    breaks: 'kv.v2.write-returns-version',
    statements: ['doc.core.kv.v2-data-path'],
    description:
      'A version 2 write answers only version and deletion_time: no created_time (a field that always holds a value) and no destroyed.',
    replace: (rules) => ({
      v2WriteResponse: (meta) => rules.v2WriteResponse({ version: meta.version, deletion_time: meta.deletion_time }),
    }),
  }),
  fault('kv.v2-write-response-deletion-time-blank', {
    breaks: 'kv.v2.delete-version-after',
    statements: ['doc.core.kv.v2-subpaths', 'doc.core.kv.v2-subpath-metadata'],
    description:
      'A version 2 write answers deletion_time "" even when delete_version_after has scheduled the deletion of the new version.',
    replace: (rules) => ({ v2WriteResponse: (meta) => rules.v2WriteResponse({ ...meta, deletion_time: '' }) }),
  }),
];
