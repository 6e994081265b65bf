/**
 * vitest globalSetup of the conformance projects (harness/cli/projects.ts names this file): the
 * harness's setup with the embedded reference handed in.
 */
import { conformanceSetup } from '../harness/setup/global-setup.js';
import { embeddedReference } from './reference.js';

export default conformanceSetup(embeddedReference);
