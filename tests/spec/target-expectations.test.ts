/**
 * The expectations files of the real products (fixtures/targets/<product>/expectations.yaml) say
 * what they must: every entry names a catalogued requirement, its verdict class, the failing tests,
 * the evidence and a sentence that occurs verbatim in the documents; every `not-run` id is
 * catalogued; the config the file names exists. (That a run matches the file is tests/real/.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readExpectationsFile } from '../../harness/report/expectations.js';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { DOCUMENTS_DIR } from '../../harness/spec/statements.js';

const TARGETS = 'fixtures/targets';
const folders = readdirSync(TARGETS, { withFileTypes: true }).filter((d) => d.isDirectory());
const files = folders.map((d) => join(TARGETS, d.name, 'expectations.yaml')).filter((f) => existsSync(f));
// Markdown marks and line breaks are not part of a sentence's words.
const words = (s: string) => s.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim();
const documents = words(
  readdirSync(DOCUMENTS_DIR)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => readFileSync(join(DOCUMENTS_DIR, f), 'utf8'))
    .join('\n'),
);
const catalogue = loadCatalogue();

it('every product folder has its expectations file', () => {
  expect(folders.map((d) => d.name).filter((d) => !existsSync(join(TARGETS, d, 'expectations.yaml')))).toEqual([]);
});

describe.each(files)('%s', (file) => {
  const { target, entries, notRun } = readExpectationsFile(file);
  it('names the product, its version, its config and its suites', () => {
    expect(target?.product, 'target.product').toBeTruthy();
    expect(target?.version, 'target.version').toBeTruthy();
    expect(target?.suites?.length, 'target.suites').toBeGreaterThan(0);
    expect(existsSync(target?.config ?? ''), `target.config ${target?.config} exists`).toBe(true);
  });
  it.each(entries.map((e) => [e.id, e] as const))(
    '%s: catalogued, with class, tests, evidence and a verbatim quote',
    (_id, e) => {
      expect(catalogue.has(e.id), `${e.id} is a catalogue id`).toBe(true);
      expect(e.class, 'class').toMatch(/^(violation|assumption)$/);
      expect(e.class === 'assumption', 'class assumption exactly when the catalogue entry is an assumption').toBe(
        catalogue.get(e.id)?.kind === 'assumption',
      );
      expect(e.tests?.length, 'the failing tests are listed').toBeGreaterThan(0);
      expect(e.evidence, 'evidence').toBeTruthy();
      expect(e.quote, 'quote').toBeTruthy();
      expect(documents.includes(words(e.quote!)), `the quote occurs in the documents: ${e.quote}`).toBe(true);
    },
  );
  it('lists only catalogued requirements as not run, each once', () => {
    expect(
      notRun.filter((n) => !catalogue.has(n.id)).map((n) => n.id),
      'unknown ids',
    ).toEqual([]);
    expect(new Set(notRun.map((n) => n.id)).size, 'each once').toBe(notRun.length);
  });
});
