/**
 * The switches of the simulated cloud directory (the cloud area's third party), declared once where
 * they take effect: each replaces a rule of rules.ts (see reference/switches.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Faults } from '../faults.js';
import { rulesWith, switchesOf } from '../switches.js';
import type { Variants } from '../variants.js';
import { type DirectoryRules, directoryRules } from './rules.js';

const { variant } = switchesOf<DirectoryRules>(['cloud']);
const CORE = 'secrets-service-core.md';

export const directorySwitches = [
  variant('cloud.directory-id-formats', {
    allows: `${CORE} "Cloud credentials engine: role": the credentials response is \`data.client_id\`, \`data.client_secret\` ("string"); no format is given for either, they are the cloud directory's`,
    description:
      'The cloud directory issues client ids that are not UUIDs (`svcapp_` and 26 base-32 characters) and client secrets with `~`, `.`, `-` and `_` in them, as other clouds do.',
    statements: ['doc.core.cloud.creds-response', 'doc.core.cloud.creds-response-client-secret'],
    replace: () => ({
      newClientId: () => `svcapp_${randomBytes(16).toString('hex').slice(0, 26)}`,
      newSecretText: () => {
        const raw = randomBytes(30).toString('base64url');
        return `${raw.slice(0, 3)}8Q~${raw.slice(3, 20)}.${raw.slice(20)}-_`;
      },
    }),
  }),
  variant('cloud.directory-secret-propagation', {
    allows: `${CORE} "Endpoints > Cloud credentials engine": rotate-root "generates a new client secret known only to the service; the engine may briefly fail to authenticate while it propagates"; when a new secret starts to authenticate is the directory's (not shown)`,
    description:
      'The cloud directory accepts a new client secret (of an application or a service principal) only 2 seconds after it was added, as a real directory propagates it.',
    statements: ['doc.core.cloud.endpoint-rotate-root-propagation'],
    replace: () => ({ secretPropagationMs: 2000 }),
  }),
];

/** The directory's rules with the switched-on variants applied. */
export function directoryRulesWith(faults: Faults, variants: Variants): DirectoryRules {
  return rulesWith(directoryRules, { faults, variants }, directorySwitches);
}
