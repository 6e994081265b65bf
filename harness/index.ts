/**
 * The harness's entry for suite files: the suite author's API (harness/author/; docs/AUTHORING.md)
 * and the few harness pieces a suite may use. Suites reach the harness only through this file and
 * the index.ts of harness/checks, harness/directory and harness/robustness (rule
 * suites-through-harness-entry, .dependency-cruiser.cjs); something a suite needs from elsewhere
 * in the harness is re-exported here first. Modules of the harness never import this file.
 */

// The author's API: one suite() per file, one conformance() per behaviour, `t` in between.
export { conformance, switchedOffAssumption } from './author/conformance.js';
export { namesOf, SpecLedger } from './author/clients.js';
export { type MountRef, type Suite, type SuiteContext, suite } from './author/suite.js';
export type {
  ConformanceMeta,
  NotApplicableInfo,
  RequestOpts,
  SkipInfo,
  T,
} from './author/test-api.js';
export type { CleanupPhase } from './author/tracker.js';
export { uniqueName } from './author/unique-name.js';

// Identities, mounts and scheduler grants a test makes for itself (harness/provision/).
export { freshMount } from './provision/fresh-mount.js';
export { untilServing } from './provision/serving.js';
export {
  createGroup,
  createNamespace,
  createToken,
  policyToken,
  tokenWith,
  writePolicy,
} from './provision/identity.js';
export { schedNamespace, schedTokenWith } from './provision/scheduler.js';

// The target and what a test reads about it.
export { targetConfig } from './config/target-config.js';
export type { LdapTarget, TargetConfig } from './config/types.js';
export type { CloudConfig, CloudEnvVar } from '../contract/cloud.js';
export { ApiClient, TransportError } from './http/client.js';
export type { Exchange } from './http/exchange.js';
export { redactor } from './redaction/redact.js';
export { loadCatalogue } from './spec/catalogue.js';
export { mountAliases } from './spec/mount-aliases.js';
// Files the suites read (case tables, their schema) kept parsed in the run's cache.
export { cachedValidator } from './cache/schema-cache.js';
export { cachedYamlFile } from './cache/yaml.js';
