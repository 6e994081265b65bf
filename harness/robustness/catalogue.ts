/**
 * The robustness requirements, generated from the spec: one entry per operation and rule that
 * applies to it (plan.ts decides). generated/catalogue/robustness.yaml is this function's output
 * (`npm run robustness:catalogue` writes it; tests/spec/robustness-catalogue.test.ts keeps the two
 * in sync).
 *
 * Levels come from the documents' error table. Secrets service: "400 Invalid request, missing or
 * invalid data" with the body `{errors: [...]}` (MUST); a request the schema admits has no
 * internal error (500) other than the ones the spec documents for the operation (MUST). That a
 * refused write stores nothing is not written anywhere: an assumption. Scheduler: its document
 * leaves the error body and statuses open ("Error body format of this API: not shown"), and a real
 * scheduler answers some refusals 500 with a message: every scheduler rule is an assumption.
 */
import { stringifyYaml } from '../cache/yaml.js';
import type { SpecRegistry } from '../spec/registry.js';
import { planOperation, type Rule } from './plan.js';

export interface GeneratedRequirement {
  id: string;
  level: 'MUST' | 'SHOULD';
  section: string;
  text: string;
  kind?: 'assumption';
  assumption?: { why: string; setting: string };
  /** The statements of the documents (spec/<area>/statements*.yaml) the rule comes from. */
  statements: string[];
}

/**
 * The sentences each rule rests on. Secrets service: "400 | Invalid request, missing or invalid
 * data" and the error body; "500 | Internal error" (a request the schema admits is no reason for
 * one). Scheduler: the document gives no statuses beyond the scaling rule, which is why its rules
 * are assumptions that interpret that sentence.
 */
const STATEMENTS = {
  svcInvalid: ['doc.core.errors.status-400', 'doc.core.errors.body'],
  svcBoundary: ['doc.core.errors.status-400', 'doc.core.errors.status-500'],
  unchanged: ['doc.core.errors.status-400'],
  sched: ['doc.jobs.errors.no-other-status'],
  schedInvalid: ['doc.jobs.errors.no-other-status', 'doc.jobs.errors.body-not-shown'],
};

/** Group switches: one setting turns a whole class of generated assumptions off. */
export const GROUPS = {
  schedInvalid: 'robustness.sched.invalid-4xx',
  schedBoundary: 'robustness.sched.boundary-no-5xx',
  unchanged: 'robustness.refused-write-unchanged',
} as const;

export function requirementId(operationId: string, rule: Rule): string {
  return `robustness.${operationId.toLowerCase()}.${rule}`;
}

/** The group assumption a generated entry also carries (its tests skip when the group is off). */
export function groupOf(api: 'svc' | 'sched', rule: Rule): string | undefined {
  if (rule === 'unchanged') return GROUPS.unchanged;
  if (api === 'sched') return rule === 'invalid-4xx' ? GROUPS.schedInvalid : GROUPS.schedBoundary;
  return undefined;
}

const GROUP_ENTRIES: GeneratedRequirement[] = [
  {
    id: GROUPS.schedInvalid,
    level: 'SHOULD',
    section: 'Errors',
    text: 'The scheduler refuses a request that breaks its request schema with a 4xx status and an error message (text or JSON), not a 5xx.',
    kind: 'assumption',
    assumption: {
      why: 'The jobs document names no status or body for invalid input ("Error body format of this API: not shown"); a real scheduler answers some refusals 500 with a message.',
      setting: `assumptions.${GROUPS.schedInvalid}`,
    },
    statements: STATEMENTS.schedInvalid,
  },
  {
    id: GROUPS.schedBoundary,
    level: 'SHOULD',
    section: 'Errors',
    text: 'The scheduler answers a request inside its request schema (edge values, unknown names, odd query values) without a 5xx.',
    kind: 'assumption',
    assumption: {
      why: 'The jobs document gives no error table; a 5xx for a valid request is assumed to be a defect.',
      setting: `assumptions.${GROUPS.schedBoundary}`,
    },
    statements: STATEMENTS.sched,
  },
  {
    id: GROUPS.unchanged,
    level: 'MUST',
    section: 'Errors',
    text: 'A write refused with an error stores nothing: the resource reads back unchanged through the operation the spec names in x-observed-by.',
    kind: 'assumption',
    assumption: {
      why: 'The documents say invalid data is refused (400) but not that nothing of it is stored; the real products validate before they store.',
      setting: `assumptions.${GROUPS.unchanged}`,
    },
    statements: STATEMENTS.unchanged,
  },
];

function entry(
  api: 'svc' | 'sched',
  operationId: string,
  method: string,
  template: string,
  rule: Rule,
  observer?: string,
): GeneratedRequirement {
  const id = requirementId(operationId, rule);
  const what = `${method} ${template}`;
  const sched = api === 'sched';
  if (rule === 'invalid-4xx') {
    return sched
      ? {
          id,
          level: 'SHOULD',
          section: 'Errors',
          text: `${what}: a request that breaks the request schema (one property at a time, or malformed JSON) gets a 4xx with an error message, never a 5xx or no answer.`,
          kind: 'assumption',
          assumption: {
            why: 'The jobs document leaves the status and body of refusals open.',
            setting: `assumptions.${id} (or assumptions.${GROUPS.schedInvalid} for every scheduler operation)`,
          },
          statements: STATEMENTS.schedInvalid,
        }
      : {
          id,
          level: 'MUST',
          section: 'Errors',
          text: `${what}: a request that breaks the request schema (one property at a time, or malformed JSON) gets a 4xx with {errors: [...]}, never a 5xx or no answer.`,
          statements: STATEMENTS.svcInvalid,
        };
  }
  if (rule === 'boundary-no-5xx') {
    return sched
      ? {
          id,
          level: 'SHOULD',
          section: 'Errors',
          text: `${what}: a request inside the schema's edges (or with unknown names, odd query values, no Content-Type) gets no 5xx.`,
          kind: 'assumption',
          assumption: {
            why: 'The jobs document gives no error table.',
            setting: `assumptions.${id} (or assumptions.${GROUPS.schedBoundary} for every scheduler operation)`,
          },
          statements: STATEMENTS.sched,
        }
      : {
          id,
          level: 'MUST',
          section: 'Errors',
          text: `${what}: a request inside the schema's edges (or with unknown names, odd query values, no Content-Type) gets no 5xx other than those the spec documents for it.`,
          statements: STATEMENTS.svcBoundary,
        };
  }
  return {
    id,
    level: sched ? 'SHOULD' : 'MUST',
    section: 'Errors',
    text: `${what}: after a refused invalid request, ${observer} reads back what it read before.`,
    kind: 'assumption',
    assumption: {
      why: 'The documents do not say that a refused write stores nothing.',
      setting: `assumptions.${id} (or assumptions.${GROUPS.unchanged} for every operation)`,
    },
    statements: STATEMENTS.unchanged,
  };
}

export function robustnessRequirements(registry: SpecRegistry, api: 'svc' | 'sched'): GeneratedRequirement[] {
  const out = GROUP_ENTRIES.filter((g) => (api === 'sched' ? g.id !== GROUPS.unchanged : g.id === GROUPS.unchanged));
  const ops = registry.operations
    .filter((o) => o.api === api)
    .sort((a, b) => (a.operationId ?? '').localeCompare(b.operationId ?? ''));
  for (const op of ops) {
    const plan = planOperation(op);
    for (const rule of plan.rules)
      out.push(entry(op.api, plan.operationId, op.method, op.template, rule, plan.observer?.operationId));
  }
  return out;
}

/** The generated catalogue files: file name to YAML text. */
export function renderCatalogues(registry: SpecRegistry): Record<string, string> {
  const header = [
    '# GENERATED from spec/*/openapi.yaml by harness/robustness/catalogue.ts: do not edit by hand.',
    '# Regenerate with `npm run robustness:catalogue`; tests/spec/robustness-catalogue.test.ts checks it.',
    '',
  ].join('\n');
  const render = (api: 'svc' | 'sched', document: string) =>
    header +
    stringifyYaml(
      { area: 'robustness', document, requirements: robustnessRequirements(registry, api) },
      { lineWidth: 0, aliasDuplicateObjects: false },
    );
  return {
    'robustness.yaml': render('svc', 'secrets-service-core.md'),
    'robustness-jobs.yaml': render('sched', 'jobs-service.md'),
  };
}
