/** Legal variants of the auth area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf } from '../../../variants.js';

const v = variantsOf(['auth']);
const CORE = 'secrets-service-core.md';

export const variants = [
  v(
    'auth.token-entity-absent',
    `${CORE}, Authentication 3 ("Login endpoint shapes of the individual methods: not shown") and 5 ("the entity or token that checked out": a token need not have an entity)`,
    'A token without an entity (root, auth/token/create) carries no entity_id field at all in its auth block and lookup, instead of "".',
    { suites: ['auth'] },
  ),
  v(
    'auth.token-fields-extra',
    `${CORE}, Authentication 3: "a login that creates a token returns it as JSON" (the other fields are not listed)`,
    "Login and token-create auth blocks and token lookups carry the upstream product's further fields (num_uses, mfa_requirement, identity_policies, explicit_max_ttl, issue_time, ...).",
    { suites: ['auth'] },
  ),
  v(
    'auth.invalid-credentials-403',
    `${CORE}, Errors: 403 "Forbidden: bad credentials" (the upstream product answers 400 "invalid username or password"; both are client errors)`,
    'A login with a wrong password answers 403 permission denied instead of 400.',
    { suites: ['auth'] },
  ),
  v(
    'auth.locked-user-as-invalid',
    `${CORE}, Authentication 6: a locked user's requests are ignored "instead of answering permission denied" (the answer is not given)`,
    "A locked user's login is answered exactly like a wrong password (400 invalid username or password), so the lock does not reveal itself.",
    { suites: ['auth'] },
  ),
];
