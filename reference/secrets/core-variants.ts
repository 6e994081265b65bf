/** Legal variants of the core area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../variants.js';

const v = variantsOf(['core']);

export const variants: VariantSpec[] = [
  v('core.non-json-content-type-refused', 'secrets-service-core.md, Endpoints > Conventions 3: "Request and response bodies are JSON. The service ... does not require it [Content-Type] on requests" (a missing type is fine; a body declared as another type may be refused)', 'A request body sent with an explicit Content-Type that is not JSON (text/plain, form data) is refused with 400 instead of being parsed as JSON.', { suites: ['core', 'robustness'] }),
];
