/** `npm run robustness:catalogue`: writes the generated robustness catalogue files from the spec. */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { GENERATED_CATALOGUE_DIR, PACKAGE_ROOT } from '../spec/paths.js';
import { specRegistry } from '../spec/registry.js';
import { renderCatalogues } from './catalogue.js';

for (const [file, text] of Object.entries(renderCatalogues(await specRegistry()))) {
  const target = join(GENERATED_CATALOGUE_DIR, file);
  writeFileSync(target, text);
  console.log(`wrote ${relative(PACKAGE_ROOT, target)}`);
}
