/**
 * Traceability both ways (issue 14): every catalogue id has a test or a testability mark; every
 * id a test names exists; every fault and variant names existing ids and suites, and every fault
 * is exercised by a test of its suites; and the committed index (generated/conformance-index.yaml) is
 * what the catalogue, the suites and the switches give today.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX_COMMAND, INDEX_FILE, renderIndex } from '../../tools/conformance-index.js';
import { declaredIds, gaps, marked, trace, type Trace } from '../../tools/trace.js';
import { declarationsOf } from '../../tools/declarations.js';

let t: Trace;
beforeAll(async () => {
  t = await trace();
});

describe('traceability', () => {
  it('holds both ways (catalogue ↔ tests ↔ faults and variants)', () => {
    expect(gaps(t)).toEqual([]);
  });

  it('finds a gap of each kind when there is one', () => {
    const broken: Trace = {
      ...t,
      catalogue: new Map([
        ...t.catalogue,
        ['core.made-up.untested', { ...t.catalogue.values().next().value!, id: 'core.made-up.untested' }],
      ]),
      unknownInTests: [{ id: 'core.made-up.unknown', file: 'suites/core/x.test.ts' }],
      faults: [
        ...t.faults,
        { name: 'core.made-up-fault', breaks: 'core.made-up.missing', suites: ['core'], statements: [] },
      ],
      variants: [
        ...t.variants,
        { name: 'core.made-up-variant', assumptions: ['core.made-up.gone'], suites: ['nosuch'] },
      ],
    };
    const found = gaps(broken).join('\n');
    expect(found).toContain('core.made-up.untested: no test names it');
    expect(found).toContain('names core.made-up.unknown, which the catalogue lacks');
    expect(found).toContain('fault core.made-up-fault: breaks core.made-up.missing, which the catalogue lacks');
    expect(found).toContain('fault core.made-up-fault: no test of its suites (core) tests core.made-up.missing');
    expect(found).toContain('variant core.made-up-variant: names core.made-up.gone');
    expect(found).toContain('variant core.made-up-variant: names no suite or unknown suite(s) nosuch');
  });

  it('reads the ids a test declares', () => {
    expect(declaredIds(`conformance({ id: 'a.b', also: ['c.d', "e.f"], level: 'MUST' })`)).toEqual([
      'a.b',
      'c.d',
      'e.f',
    ]);
  });

  it('reads declarations from the syntax tree, not from comments or built strings', () => {
    const source = [
      "// conformance({ id: 'in.a-comment' })",
      '/* { id: "in.a-block" } */',
      "conformance({ id: 'a.b', level: 'MUST', title: `about ${'x'}` }, async () => {});",
      "const rows = [{ id: 'c.d', also: ['e.f'] }, { id: `g.${'h'}` }];",
      "const table = [['kv.v1.read', 200]];",
    ].join('\n');
    const d = declarationsOf(source);
    expect(d.declared, 'declared ids').toEqual(['a.b', 'c.d', 'e.f']);
    expect(d.strings, 'strings of the code').toContain('kv.v1.read');
    expect(d.strings.join(' '), 'no comment text').not.toMatch(/in\.a-comment|in\.a-block/);
  });

  it('counts a testability mark instead of a test', () => {
    const marks = [...t.catalogue.values()].filter(marked);
    expect(marks.length).toBeGreaterThan(0);
    for (const r of marks) expect(r.testability?.reason, `${r.id} says why it is not tested`).toBeTruthy();
  });

  it(`generated/conformance-index.yaml is up to date (regenerate with \`${INDEX_COMMAND}\`)`, () => {
    expect(
      readFileSync(INDEX_FILE, 'utf8') === renderIndex(t),
      `generated/conformance-index.yaml is stale: run \`${INDEX_COMMAND}\` and commit it`,
    ).toBe(true);
  });
});
