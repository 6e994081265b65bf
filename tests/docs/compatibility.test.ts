/** docs/COMPATIBILITY.md is what `npm run compatibility` writes from the catalogue and the products' expectations. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPATIBILITY_COMMAND, COMPATIBILITY_FILE, renderCompatibility } from '../../tools/compatibility.js';

describe('docs/COMPATIBILITY.md', () => {
  it(`is current (regenerate with ${COMPATIBILITY_COMMAND})`, () => {
    expect(
      readFileSync(COMPATIBILITY_FILE, 'utf8') === renderCompatibility(),
      `stale: run ${COMPATIBILITY_COMMAND}`,
    ).toBe(true);
  });
});
