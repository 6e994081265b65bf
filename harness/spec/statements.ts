/**
 * The statement inventory (spec/<area>/statements*.yaml): the three documents (spec/documents, verbatim
 * copies of ../shared/docs) split into checkable statements, each quoted verbatim from its section.
 * A requirement of the catalogue names the statements it comes from (`statements:`); a statement
 * no test can check says why (`untestable`); one whose checks fall short says what is missing
 * (`gap`). Read by the coverage tool (tools/coverage-docs.ts), the report's document view and the
 * mutation run's kills per statement.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseYaml } from '../cache/yaml.js';
import { cachedSync, cacheKey, filesHash, packageVersion, sourceHash } from '../cache/disk-cache.js';
import { areaFiles, DOCUMENTS_DIR, PACKAGE_ROOT, SPEC_DIR } from './paths.js';

export { DOCUMENTS_DIR };

/** The documents, by the key their statement ids carry (`doc.<key>.…`). */
export const DOCUMENTS = {
  core: 'secrets-service-core.md',
  transit: 'secrets-service-transit.md',
  jobs: 'jobs-service.md',
} as const;
export type DocumentKey = keyof typeof DOCUMENTS;
export type DocumentFile = (typeof DOCUMENTS)[DocumentKey];

export type StatementKind =
  | 'field'
  | 'parameter'
  | 'default'
  | 'status'
  | 'rule'
  | 'behaviour'
  | 'known-issue'
  | 'limit'
  | 'change';

export interface Statement {
  id: string;
  section: string;
  kind: StatementKind;
  quote: string;
  clause?: string;
  untestable?: { class: string; reason: string };
  gap?: { kind: 'untested' | 'partial' | 'schema-only'; note: string };
  note?: string;
  document: DocumentFile;
  /** The inventory file, relative to the project root. */
  file: string;
}

export interface Section {
  /** Headings below the document title joined with ' > '. */
  path: string;
  /** Heading text of this level alone. */
  title: string;
  level: number;
  /** Character range of the section's own text (heading line excluded, subsections included). */
  start: number;
  end: number;
}

export interface ParsedDocument {
  file: DocumentFile;
  text: string;
  title: string;
  sections: Section[];
}

/** Sections of a Markdown document: every heading of level 2 or more, with the range it spans. */
export function parseDocument(file: DocumentFile, text: string): ParsedDocument {
  const headings: { level: number; title: string; lineStart: number; bodyStart: number }[] = [];
  let title = '';
  let offset = 0;
  for (const line of text.split('\n')) {
    const m = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (m) {
      if (m[1]!.length === 1) title = m[2]!;
      else headings.push({ level: m[1]!.length, title: m[2]!, lineStart: offset, bodyStart: offset + line.length + 1 });
    }
    offset += line.length + 1;
  }
  const sections: Section[] = [];
  const stack: string[] = [];
  headings.forEach((h, i) => {
    stack.length = h.level - 2;
    stack.push(h.title);
    const next = headings.slice(i + 1).find((n) => n.level <= h.level);
    sections.push({
      path: stack.join(' > '),
      title: h.title,
      level: h.level,
      start: h.bodyStart,
      end: next ? next.lineStart : text.length,
    });
  });
  return { file, text, title, sections };
}

let documents: Map<DocumentFile, ParsedDocument> | undefined;

export function loadDocuments(dir = DOCUMENTS_DIR): Map<DocumentFile, ParsedDocument> {
  if (documents && dir === DOCUMENTS_DIR) return documents;
  const out = new Map<DocumentFile, ParsedDocument>();
  for (const file of Object.values(DOCUMENTS))
    out.set(file, parseDocument(file, readFileSync(join(dir, file), 'utf8')));
  if (dir === DOCUMENTS_DIR) documents = out;
  return out;
}

/** The document key of a statement id: `doc.core.x` → `core`. */
export function documentKeyOf(id: string): DocumentKey | undefined {
  const key = id.split('.')[1];
  return key && key in DOCUMENTS ? (key as DocumentKey) : undefined;
}

let statements: Statement[] | undefined;

/** Every statement of the inventory, in file order (by area, then file name), from the spec folder `root`. */
export function loadStatements(root = SPEC_DIR): Statement[] {
  if (statements && root === SPEC_DIR) return statements;
  const files = areaFiles('statements', root);
  const read = (): Statement[] => {
    const out: Statement[] = [];
    for (const name of files) {
      const full = join(root, name);
      const doc = parseYaml(readFileSync(full, 'utf8')) as {
        document: DocumentFile;
        statements: Omit<Statement, 'document' | 'file'>[];
      };
      for (const s of doc?.statements ?? [])
        out.push({ ...s, document: doc.document, file: relative(PACKAGE_ROOT, full) });
    }
    return out;
  };
  // Every report reads the inventory (the document view): its YAML parsed once, cached on disk like
  // the catalogue's, keyed by the files' contents, this module's source and the parser's version.
  if (root !== SPEC_DIR) return read();
  const key = cacheKey(filesHash(root, files), sourceHash(import.meta.url), `yaml@${packageVersion('yaml')}`);
  statements = cachedSync('statements', key, read);
  return statements;
}

/** Where a statement's quote stands in its document: the offset, or why it cannot be found. */
export function locate(s: Statement, doc: ParsedDocument): { at: number } | { problem: string } {
  const section = doc.sections.find((x) => x.path === s.section);
  if (!section) return { problem: `section "${s.section}" is not a heading path of ${doc.file}` };
  const at = doc.text.slice(section.start, section.end).indexOf(s.quote);
  if (at < 0) return { problem: `the quote is not verbatim text of section "${s.section}" of ${doc.file}` };
  if (s.clause !== undefined && !s.quote.includes(s.clause)) return { problem: 'the clause is not part of the quote' };
  return { at: section.start + at };
}

/**
 * The lines of a document that state something: every non-empty line but headings, table header
 * rows and separators. Each must hold at least one statement's quote or be listed, with a reason,
 * in spec/shared/unquoted.yaml (tests/spec/statements.test.ts).
 */
export function statingLines(doc: ParsedDocument): { line: number; text: string; section: string }[] {
  const lines = doc.text.split('\n');
  const out: { line: number; text: string; section: string }[] = [];
  let offset = 0;
  lines.forEach((text, i) => {
    const isSeparator = (l: string | undefined) => l !== undefined && /^\|(\s*:?-+:?\s*\|)+\s*$/.test(l);
    const skip =
      text.trim() === '' ||
      /^#{1,6}\s/.test(text) ||
      isSeparator(text) ||
      (text.startsWith('|') && isSeparator(lines[i + 1]));
    if (!skip) {
      const section = [...doc.sections].reverse().find((s) => s.start <= offset && offset < s.end);
      out.push({ line: i + 1, text, section: section?.path ?? '(before the first section)' });
    }
    offset += text.length + 1;
  });
  return out;
}

/** How far a statement is checked, as the coverage figures count it. */
export type Coverage = 'asserted' | 'partial' | 'schema-only' | 'untested' | 'untestable';

/**
 * A statement's coverage: untestable when it says so; otherwise its `gap` when it names one; else
 * asserted when a requirement that names it is checked by a behavioural test, and untested when none is.
 */
export function coverageOf(s: Statement, carriers: readonly string[], tested: (id: string) => boolean): Coverage {
  if (s.untestable) return 'untestable';
  if (s.gap) return s.gap.kind === 'untested' ? 'untested' : s.gap.kind;
  return carriers.some(tested) ? 'asserted' : 'untested';
}

/** Requirement ids by the statements they name (the inverse of the catalogue's `statements` fields). */
export function carriersByStatement(
  requirements: Iterable<{ id: string; statements?: readonly string[] }>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of requirements)
    for (const sid of r.statements ?? []) {
      if (!out.has(sid)) out.set(sid, []);
      out.get(sid)!.push(r.id);
    }
  return out;
}
