/**
 * Where the package's data lives: the OpenAPI documents, the hand-written catalogue and the
 * generated files. Kept apart so light modules need not load the validator to find them.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout (or installed package) this file belongs to. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SPEC_DIR = join(PACKAGE_ROOT, 'spec/openapi');
/** The hand-written requirement catalogue, one file per area. */
export const CATALOGUE_DIR = join(PACKAGE_ROOT, 'spec/catalogue');
/** Files the project writes from its sources (never edited by hand; a test keeps each one current). */
export const GENERATED_DIR = join(PACKAGE_ROOT, 'generated');
/** The catalogue entries generated from the OpenAPI documents (the robustness requirements). */
export const GENERATED_CATALOGUE_DIR = join(GENERATED_DIR, 'catalogue');
