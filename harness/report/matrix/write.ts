/** Writes matrix.json and matrix.html into a folder. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toMatrixHtml } from './html.js';
import type { Matrix } from './model.js';

/** The package root, for the links from matrix.html to the test files. */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function writeMatrix(dir: string, matrix: Matrix): { json: string; html: string } {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const json = join(out, 'matrix.json');
  const html = join(out, 'matrix.html');
  writeFileSync(json, JSON.stringify(matrix, null, 2));
  writeFileSync(html, toMatrixHtml(matrix, { sourceRoot: relative(out, PACKAGE_ROOT).split(sep).join('/') || '.' }));
  return { json, html };
}
