/** `npm run robustness:catalogue`: writes the generated robustness catalogue files from the spec. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_DIR } from '../catalogue.js';
import { specRegistry } from '../spec/registry.js';
import { renderCatalogues } from './catalogue.js';

for (const [file, text] of Object.entries(renderCatalogues(await specRegistry()))) {
  writeFileSync(join(CATALOGUE_DIR, file), text);
  console.log(`wrote spec/catalogue/${file}`);
}
