/**
 * The report's document view: every statement of the inventory is shown beside its line, with the
 * verdict its requirements got in the run.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import type { RequirementRow } from '../../harness/report/model.js';
import { documentViewHtml, statementVerdicts } from '../../harness/report/document-view.js';
import { carriersByStatement, loadDocuments, loadStatements } from '../../harness/spec/statements.js';

const catalogue = loadCatalogue();
const statements = loadStatements();
const carriers = carriersByStatement(catalogue.values());

function row(id: string, status: RequirementRow['status'], extra: Partial<RequirementRow> = {}): RequirementRow {
  const r = catalogue.get(id)!;
  return {
    id,
    level: r.level,
    area: r.area,
    section: r.section,
    text: r.text,
    kind: r.kind ?? 'rule',
    status,
    tests: ['t'],
    ...extra,
  };
}

describe('document view', () => {
  const carried = statements.find((s) => !s.untestable && !s.gap && (carriers.get(s.id)?.length ?? 0) === 1)!;
  const requirement = carriers.get(carried.id)![0]!;

  it('gives a statement the verdict of the requirement that carries it', () => {
    for (const [status, expected] of [
      ['passed', 'passed'],
      ['failed', catalogue.get(requirement)!.kind === 'assumption' ? 'assumption' : 'failed'],
      ['not-applicable', 'not-applicable'],
    ] as const) {
      const v = statementVerdicts([carried], [row(requirement, status)], catalogue)[0]!;
      expect(v.status, status).toBe(expected);
      expect(v.requirements).toEqual([expect.objectContaining({ id: requirement, status })]);
    }
  });

  it('names a failure of an assumption an assumption difference, whatever the row says it is', () => {
    const v = statementVerdicts(
      [carried],
      [row(requirement, 'failed', { verdict: 'assumption' } as Partial<RequirementRow>)],
      catalogue,
    )[0]!;
    expect(v.status).toBe('assumption');
  });

  it('says not-run for a statement whose requirements the run did not reach, and not-observable for an untestable one', () => {
    expect(statementVerdicts([carried], [], catalogue)[0]!.status).toBe('not-run');
    const untestable = statements.find((s) => s.untestable)!;
    expect(statementVerdicts([untestable], [], catalogue)[0]!.status).toBe('not-observable');
  });

  it('renders every statement of the inventory once, beside its line', () => {
    const verdicts = statementVerdicts(statements, [], catalogue);
    const html = documentViewHtml([...loadDocuments().values()], verdicts);
    const shown = [...html.matchAll(/data-statement="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.sort()).toEqual(statements.map((s) => s.id).sort());
    expect(html).not.toMatch(/<script/);
  });
});
