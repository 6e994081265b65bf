/**
 * The statement inventory (spec/<area>/statements*.yaml) against the documents and the catalogue:
 * - every file matches its schema, ids are unique and name their file's document;
 * - every quote is verbatim text of the section it names (spec/documents), and spec/documents is a
 *   verbatim copy of ../shared/docs where that folder exists;
 * - every line of a document that states something holds a statement's quote, or is listed in
 *   spec/shared/unquoted.yaml with why it states nothing;
 * - every statement is carried by a requirement, marked untestable, or names its gap; one that
 *   names no gap has a requirement with a test;
 * - every hand-written requirement names the statements it comes from, and they exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import {
  carriersByStatement,
  DOCUMENTS,
  DOCUMENTS_DIR,
  documentKeyOf,
  loadDocuments,
  loadStatements,
  locate,
  statingLines,
} from '../../harness/spec/statements.js';
import { areaFiles, SHARED_DIR, SPEC_DIR } from '../../harness/spec/paths.js';
import { trace } from '../../tools/trace.js';

const SHARED = join(DOCUMENTS_DIR, '../../../shared/docs');
const statements = loadStatements();
const documents = loadDocuments();
const inventoried = new Set(statements.map((s) => s.document));
const unquoted = (
  parse(readFileSync(join(SHARED_DIR, 'unquoted.yaml'), 'utf8')) as {
    lines: { document: string; quote: string; reason: string }[];
  }
).lines;

/** Catalogue areas whose document has an inventory: their requirements must name statements. */
function inventoriedRequirements() {
  return [...loadCatalogue().values()].filter((r) => r.kind !== 'schema' && inventoried.has(r.document as never));
}

describe('spec/documents', () => {
  it.runIf(existsSync(SHARED))('is a verbatim copy of ../shared/docs', () => {
    for (const file of Object.values(DOCUMENTS))
      expect(readFileSync(join(DOCUMENTS_DIR, file), 'utf8'), file).toBe(readFileSync(join(SHARED, file), 'utf8'));
  });
});

describe('the statements (spec/<area>/statements*.yaml)', () => {
  const schema = JSON.parse(readFileSync(join(SHARED_DIR, 'statements.schema.json'), 'utf8')) as object;
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

  it('every file matches statements.schema.json', () => {
    const bad: string[] = [];
    for (const name of areaFiles('statements')) {
      if (!validate(parse(readFileSync(join(SPEC_DIR, name), 'utf8'))))
        bad.push(`${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
    expect(bad).toEqual([]);
  });

  it('ids are unique and name the document of their file', () => {
    const seen = new Map<string, string>();
    const bad: string[] = [];
    for (const s of statements) {
      if (seen.has(s.id)) bad.push(`${s.id}: in ${seen.get(s.id)} and ${s.file}`);
      seen.set(s.id, s.file);
      const key = documentKeyOf(s.id);
      if (!key || DOCUMENTS[key] !== s.document) bad.push(`${s.id} (${s.file}): its id names another document`);
    }
    expect(bad).toEqual([]);
  });

  it('every quote is verbatim text of the section it names', () => {
    const bad: string[] = [];
    for (const s of statements) {
      const where = locate(s, documents.get(s.document)!);
      if ('problem' in where) bad.push(`${s.id}: ${where.problem}: "${s.quote.slice(0, 80)}"`);
    }
    expect(bad).toEqual([]);
  });

  it('every stating line of an inventoried document holds a quote or says why it states nothing', () => {
    const bad: string[] = [];
    for (const file of inventoried) {
      const quotes = statements.filter((s) => s.document === file).map((s) => s.quote);
      const excused = unquoted.filter((u) => u.document === file).map((u) => u.quote);
      for (const l of statingLines(documents.get(file)!))
        if (!quotes.some((q) => l.text.includes(q) || q.includes(l.text)) && !excused.some((q) => l.text.includes(q)))
          bad.push(`${file}:${l.line} (${l.section}): ${l.text.slice(0, 100)}`);
    }
    expect(bad, 'lines without a statement (add one, or list the line in spec/shared/unquoted.yaml)').toEqual([]);
  });

  it('every entry of unquoted.yaml names a line of its document and a reason', () => {
    const bad = unquoted.filter(
      (u) =>
        !u.reason ||
        u.reason.length < 10 ||
        !statingLines(documents.get(u.document as never)!).some((l) => l.text.includes(u.quote)),
    );
    expect(bad).toEqual([]);
  });
});

describe('statements and requirements', () => {
  const catalogue = loadCatalogue();
  const carriers = carriersByStatement(catalogue.values());
  const ids = new Set(statements.map((s) => s.id));

  it('every statement named by a requirement exists', () => {
    const bad = [...catalogue.values()].flatMap((r) =>
      (r.statements ?? [])
        .filter((sid) => !ids.has(sid))
        .map((sid) => `${r.id} names ${sid}, which the inventory lacks`),
    );
    expect(bad).toEqual([]);
  });

  it('every hand-written requirement of an inventoried document names the statements it comes from', () => {
    const bad = inventoriedRequirements()
      .filter((r) => !r.statements?.length)
      .map((r) => `${r.id} (${r.area})`);
    expect(bad, 'requirements without `statements:`').toEqual([]);
  });

  it('every statement is carried by a requirement, marked untestable, or names its gap', () => {
    const bad = statements
      .filter((s) => !s.untestable && !s.gap && !carriers.has(s.id))
      .map((s) => `${s.id} (${s.file})`);
    expect(bad, 'unmapped statements').toEqual([]);
  });

  it('a statement that names no gap is carried by a requirement that a test checks', async () => {
    const t = await trace();
    const bad = statements
      .filter((s) => !s.untestable && !s.gap && carriers.has(s.id))
      .filter((s) => !carriers.get(s.id)!.some((id) => t.tests.has(id)))
      .map((s) => `${s.id}: carried by ${carriers.get(s.id)!.join(', ')}, none of which a test checks`);
    expect(bad).toEqual([]);
  });
});
