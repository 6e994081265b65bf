/**
 * The documents a newcomer reads stay walkable: every relative link of README.md, docs/*.md and
 * generated/README.md resolves (the file exists, and its `#anchor` names a heading there), no
 * table is padded to its widest cell, and the README stays an overview (at most 200 lines).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';

const DOCS = [
  'README.md',
  ...readdirSync(join(PACKAGE_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'generated/README.md',
];

/** The text outside fenced code blocks (and, unless kept, inline code spans), line by line. */
function prose(text: string, keepCode = false): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    if (fenced) return '';
    return keepCode ? line : line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  // Inline code is part of a heading's text (`## \`svc.addr\`` is #svcaddr): read with code kept.
  for (const line of prose(readFileSync(file, 'utf8'), true)) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Table rows padded to a column width (runs of spaces at a cell's edge, or of dashes), by line number. */
function paddedRows(text: string): number[] {
  const out: number[] = [];
  prose(text, true).forEach((line, i) => {
    if (/^\s*\|/.test(line) && /( {2,}\||\| {2,}|-{4,})/.test(line)) out.push(i + 1);
  });
  return out;
}

interface Link {
  from: string;
  line: number;
  target: string;
}

function links(doc: string): Link[] {
  const out: Link[] = [];
  prose(readFileSync(join(PACKAGE_ROOT, doc), 'utf8')).forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      out.push({ from: doc, line: i + 1, target: m[1]! });
  });
  return out;
}

/** Why a relative link does not resolve, or undefined when it does. */
function broken(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // https:, mailto:
  const [path, anchor] = link.target.split('#') as [string, string | undefined];
  const file = path
    ? resolve(dirname(join(PACKAGE_ROOT, link.from)), decodeURIComponent(path))
    : join(PACKAGE_ROOT, link.from);
  if (!file.startsWith(PACKAGE_ROOT)) return `${link.target} leaves the project`;
  if (!existsSync(file)) return `${relative(PACKAGE_ROOT, file)} does not exist`;
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `#${anchor} on a file that has no headings`;
  return anchors(file).has(anchor) ? undefined : `${relative(PACKAGE_ROOT, file)} has no heading #${anchor}`;
}

describe('the documents', () => {
  it('exist', () => {
    for (const doc of DOCS) expect(existsSync(join(PACKAGE_ROOT, doc)), doc).toBe(true);
    expect(DOCS.length).toBeGreaterThan(7);
  });

  it('link only to files and headings that exist', () => {
    const all = DOCS.flatMap(links);
    expect(all.length, 'links found').toBeGreaterThan(20);
    const bad = all.flatMap((l) => {
      const why = broken(l);
      return why ? [`${l.from}:${l.line}: ${l.target}: ${why}`] : [];
    });
    expect(bad).toEqual([]);
  });

  it('pad no table to its widest cell', () => {
    const padded = DOCS.flatMap((doc) =>
      paddedRows(readFileSync(join(PACKAGE_ROOT, doc), 'utf8')).map((line) => `${doc}:${line}`),
    );
    expect(padded, 'table rows with runs of spaces or dashes (write `| a | b |` and `| --- |`)').toEqual([]);
  });

  it('keep the README an overview of at most 200 lines', () => {
    const lines = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(200);
  });
});

describe('the link check', () => {
  it('finds a missing file, a missing heading and a padded table', () => {
    expect(broken({ from: 'README.md', line: 1, target: 'docs/NOPE.md' })).toMatch(/does not exist/);
    expect(broken({ from: 'README.md', line: 1, target: 'docs/SPEED.md#no-such-heading' })).toMatch(/no heading/);
    expect(broken({ from: 'README.md', line: 1, target: '#layout' })).toBeUndefined();
    expect(broken({ from: 'docs/SPEED.md', line: 1, target: '../README.md#layout' })).toBeUndefined();
    expect(slug('7. Faults and variants')).toBe('7-faults-and-variants');
    expect(slug("Mapping a product's names")).toBe('mapping-a-products-names');
    expect(slug('`svc.addr`')).toBe('svcaddr');
    expect(paddedRows('| a    | b |\n| ---- | --- |\n| `a` | b |\n```\n|  code  |\n```')).toEqual([1, 2]);
  });
});
