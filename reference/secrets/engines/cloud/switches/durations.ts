/**
 * The faults of a role's ttl and max_ttl: the forms they are written in (a time-suffixed string
 * in each unit, integer seconds), their defaults (the engine's) and the lease they give.
 */
import { switchesOf } from '../../../../switches.js';
import { parseDuration } from '../../../duration.js';
import { badRequest } from '../../../errors.js';
import type { CloudRules } from '../rules.js';

const { fault } = switchesOf<CloudRules>(['cloud']);
const S = (slug: string) => `doc.core.cloud.${slug}`;

/** "1h" read the way a parser for integers reads it: the leading number, in seconds. */
const leadingNumber = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isFinite(n)) throw badRequest('not a duration');
  return n;
};

/** A duration whose unit `unit` is refused, or read as another unit, or integer seconds read as nanoseconds (0). */
const durationWith = (value: unknown, how: 'no-days' | 'minutes-as-hours' | 'integer-as-ns'): number => {
  if (how === 'integer-as-ns' && typeof value === 'number') return Math.floor(value / 1e9);
  if (typeof value === 'string') {
    if (how === 'no-days' && /d/.test(value)) throw new Error('unknown unit d');
    if (how === 'minutes-as-hours' && /^\d+m$/.test(value.trim())) return Number.parseInt(value, 10) * 3600;
  }
  return parseDuration(value);
};

export const durationFaults = [
  fault('cloud.ttl-ignored', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl')],
    description: 'The role ttl is ignored; leases get the engine default.',
    replace: () => ({ roleTtl: () => 0 }),
  }),
  fault('cloud.ttl-string-misread', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl-formats'), S('role-ttl-example-1h')],
    description: 'A time-suffixed ttl is read by its leading number as seconds ("1h" gives a 1-second lease).',
    replace: () => ({ ttlOf: leadingNumber }),
  }),
  fault('cloud.ttl-days-refused', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl-formats')],
    description: 'A ttl in days ("2d") is refused: the engine knows the units s, m and h only.',
    replace: () => ({ ttlOf: (value) => durationWith(value, 'no-days') }),
  }),
  fault('cloud.ttl-minutes-as-hours', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl-formats')],
    description: 'A ttl in minutes ("30m") is read as that many hours.',
    replace: () => ({ ttlOf: (value) => durationWith(value, 'minutes-as-hours') }),
  }),
  fault('cloud.ttl-integer-as-nanoseconds', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl-seconds')],
    description:
      "A ttl given as integer seconds is read as nanoseconds (a duration type's own unit), so it rounds to 0 and the engine default applies.",
    replace: () => ({ ttlOf: (value) => durationWith(value, 'integer-as-ns') }),
  }),
  fault('cloud.ttl-equal-max-refused', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl')],
    description:
      'A role whose ttl equals its max_ttl is refused (the check is ttl >= max_ttl instead of ttl > max_ttl).',
    replace: (rules) => ({
      checkTtlWithinMax: (ttl, maxTtl) => {
        if (maxTtl > 0 && ttl === maxTtl) throw badRequest('ttl must be less than max_ttl');
        rules.checkTtlWithinMax(ttl, maxTtl);
      },
    }),
  }),
  fault('cloud.max-ttl-ignored', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl')],
    description: 'The role max_ttl does not cap the lease.',
    replace: () => ({ roleMaxTtl: () => 0 }),
  }),
  fault('cloud.max-ttl-string-ignored', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl-formats')],
    description: 'A time-suffixed max_ttl ("2m") is accepted but ignored; only integer seconds cap the lease.',
    replace: (rules) => ({ maxTtlOf: (value) => (typeof value === 'string' ? 0 : rules.maxTtlOf(value)) }),
  }),
  fault('cloud.max-ttl-integer-as-nanoseconds', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl-formats')],
    description:
      'A max_ttl given as integer seconds is read as nanoseconds, so it rounds to 0 and leases are capped by the engine maximum only.',
    replace: () => ({ maxTtlOf: (value) => durationWith(value, 'integer-as-ns') }),
  }),
  fault('cloud.max-ttl-days-refused', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl-formats')],
    description: 'A max_ttl in days ("2d") is refused.',
    replace: () => ({ maxTtlOf: (value) => durationWith(value, 'no-days') }),
  }),
];
