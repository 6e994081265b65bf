/**
 * The layers of the project (README "Layout", docs/AUTHORING.md section 0), checked by `npm run deps` in CI:
 *
 *   spec  <-  harness  <-  suites            reference (stands beside: knows none of them)
 *                 \           |                  /
 *                  contract (neutral shapes both sides share)
 *
 *   compose/ (the composition root: CLI entry, vitest globalSetup) starts the reference and hands
 *   it to the harness; it, bench/ and tests/ may import anything.
 *
 * Across areas (docs/AUTHORING.md, "Areas"): a suite imports no other suite, an engine of the
 * reference no other engine, and the reference scheduler and secrets service not each other.
 *
 * Type-only imports count (tsPreCompilationDeps): a type is a dependency on the plan too.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'harness-not-reference',
      comment:
        'The harness tests any target: it must not import the reference. The composition root (compose/) hands it the embedded target (contract/target.ts).',
      severity: 'error',
      from: { path: '^harness/' },
      to: { path: '^reference/' },
    },
    {
      name: 'harness-not-suites',
      comment: 'The harness is the layer under the suites: it must not import them (it finds suite files by path).',
      severity: 'error',
      from: { path: '^harness/' },
      to: { path: '^suites/' },
    },
    {
      name: 'reference-not-harness',
      comment: 'The reference stands beside the harness and knows nothing of it: shared shapes live in contract/.',
      severity: 'error',
      from: { path: '^reference/' },
      to: { path: '^harness/' },
    },
    {
      name: 'reference-not-suites',
      comment: 'The reference knows nothing of the suites that test it: shared names live in contract/.',
      severity: 'error',
      from: { path: '^reference/' },
      to: { path: '^suites/' },
    },
    {
      name: 'suites-not-reference',
      comment:
        'Suites check a target through its API, never the reference from inside: shared control names live in contract/.',
      severity: 'error',
      from: { path: '^suites/' },
      to: { path: '^reference/' },
    },
    {
      name: 'suites-not-each-other',
      comment: 'A suite imports no other suite: shared helpers live in the suites library, suites/lib/.',
      severity: 'error',
      from: { path: '^suites/([^/]+)/' },
      to: { path: '^suites/', pathNot: ['^suites/$1/', '^suites/lib/'] },
    },
    {
      name: 'reference-engines-not-each-other',
      comment:
        "An engine of the reference (an area's rules, model and switch tables: reference/secrets/engines/<area>/) imports no other engine, as a suite imports no other suite: what two engines share lives in reference/secrets/ beside them.",
      severity: 'error',
      from: { path: '^reference/secrets/engines/([^/]+)/' },
      to: { path: '^reference/secrets/engines/', pathNot: '^reference/secrets/engines/$1/' },
    },
    {
      name: 'reference-scheduler-apart',
      comment:
        'The reference scheduler (the jobs area) and the secrets service (with its simulated cloud directory) are two products: neither imports the other; shared helpers live at the top of reference/.',
      severity: 'error',
      from: { path: '^reference/scheduler/' },
      to: { path: '^reference/(secrets|cloud-directory)/' },
    },
    {
      name: 'reference-secrets-not-scheduler',
      comment: 'The reference secrets service and its simulated cloud directory do not import the scheduler.',
      severity: 'error',
      from: { path: '^reference/(secrets|cloud-directory)/' },
      to: { path: '^reference/scheduler/' },
    },
    {
      name: 'suites-through-harness-entry',
      comment:
        'Suites use the harness through its entry points only: harness/index.ts (the author API of harness/author/ and what suites may use besides) and the index.ts of harness/checks, harness/directory and harness/robustness.',
      severity: 'error',
      from: { path: '^suites/' },
      to: {
        path: '^harness/',
        pathNot: '^harness/(index|checks/index|directory/index|robustness/index)\\.ts$',
      },
    },
    {
      name: 'harness-entry-is-for-suites',
      comment:
        "harness/index.ts is the suites' entry, not a barrel for the harness itself: a harness module imports the module it needs (harness/author/, harness/provision/, ...), so the entry stays a list of what suites may use.",
      severity: 'error',
      from: { path: '^harness/' },
      to: { path: '^harness/index\\.ts$' },
    },
    {
      name: 'spec-imports-nothing',
      comment: 'spec/ holds the documents and the catalogue: data, importing nothing.',
      severity: 'error',
      from: { path: '^spec/' },
      to: { pathNot: '^spec/' },
    },
    {
      name: 'contract-imports-nothing',
      comment: 'contract/ is the neutral ground both sides import: it imports nothing of the project but itself.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(compose|harness|reference|suites|spec|fixtures|bench|tests)/' },
    },
    {
      name: 'fixtures-are-data',
      comment: 'fixtures/ (case tables, generators) import no layer: suites, tests and the reference may use them.',
      severity: 'error',
      from: { path: '^fixtures/' },
      to: { path: '^(compose|harness|reference|suites)/' },
    },
    {
      name: 'only-the-root-imports-compose',
      comment: 'compose/ is the composition root: only it, bench/ and tests/ may import it.',
      severity: 'error',
      from: { pathNot: '^(compose|bench|tests)/' },
      to: { path: '^compose/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycle at run time among the layers (type-only imports aside: a suite-facing type may name the entry point that re-exports it).',
      severity: 'error',
      from: { path: '^(contract|compose|harness|suites)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the checker cannot resolve would escape every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
