/**
 * Where the package's data lives: the spec, one folder per area (its requirements, its OpenAPI
 * document, its statements), the shared pieces, the documents and the generated files. Kept apart
 * so light modules need not load the validator to find them.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout (or installed package) this file belongs to. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The spec: `spec/<area>/` for each area, plus `shared/` and `documents/` (docs/AUTHORING.md "Areas"). */
export const SPEC_DIR = join(PACKAGE_ROOT, 'spec');
/** What every area shares: the JSON schemas of the spec's files, the OpenAPI components, unquoted.yaml. */
export const SHARED_DIR = join(SPEC_DIR, 'shared');
/** The documents the spec is written from, verbatim copies. */
export const DOCUMENTS_DIR = join(SPEC_DIR, 'documents');
/** The folders of spec/ that are no area. */
export const NOT_AREAS: readonly string[] = ['shared', 'documents'];
/** An area's requirements (its part of the catalogue) and its OpenAPI document. */
export const REQUIREMENTS_FILE = 'requirements.yaml';
export const OPENAPI_FILE = 'openapi.yaml';
/** An area's statements: `statements.yaml`, or `statements-<part>.yaml` when it has several. */
export const isStatementsFile = (name: string) => /^statements(-[a-z0-9-]+)?\.yaml$/.test(name);
/** Files the project writes from its sources (never edited by hand; a test keeps each one current). */
export const GENERATED_DIR = join(PACKAGE_ROOT, 'generated');
/** The catalogue entries generated from the OpenAPI documents (the robustness requirements). */
export const GENERATED_CATALOGUE_DIR = join(GENERATED_DIR, 'catalogue');

/** The areas of a spec folder (every folder but shared/ and documents/), sorted. */
export function specAreas(root = SPEC_DIR): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !NOT_AREAS.includes(e.name))
    .map((e) => e.name)
    .sort();
}

/**
 * The files of one kind across the areas, as `<area>/<file>` relative to `root`, sorted: each area's
 * requirements.yaml, openapi.yaml, or statements files (an area without one is left out).
 */
export function areaFiles(kind: 'requirements' | 'openapi' | 'statements', root = SPEC_DIR): string[] {
  const wanted =
    kind === 'statements'
      ? isStatementsFile
      : (name: string) => name === (kind === 'requirements' ? REQUIREMENTS_FILE : OPENAPI_FILE);
  return specAreas(root).flatMap((area) =>
    readdirSync(join(root, area))
      .filter(wanted)
      .sort()
      .map((f) => `${area}/${f}`),
  );
}
