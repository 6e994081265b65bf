/**
 * Writes docs/CONFIGURATION.md (`npm run docs:config`) from the one declaration of each setting
 * (harness/config/schema.ts: its description, variable, flag and default) and the flags of `run`
 * that set no setting (harness/cli/run-options.ts). tests/docs/configuration.test.ts fails while
 * the file is stale.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chosenPerRun, defaultValues, type SchemaNode, type Setting, settings } from '../harness/config/settings.js';
import { RUN_ONLY_FLAGS } from '../harness/cli/run-options.js';
import { PACKAGE_ROOT } from '../harness/spec/paths.js';

export const CONFIG_DOC_FILE = path.join(PACKAGE_ROOT, 'docs/CONFIGURATION.md');
export const CONFIG_DOC_COMMAND = 'npm run docs:config';

/** Variables read outside the config object: where the run finds its parts and its caches. */
export const ENVIRONMENT_ONLY: { name: string; text: string }[] = [
  { name: 'CONFORMANCE_CONFIG', text: 'the config file, as `--config FILE`' },
  {
    name: 'CONFORMANCE_CACHE',
    text: '`off` bypasses the on-disk caches of what every process would rebuild from the same files (docs/SPEED.md, "Start-up once")',
  },
  {
    name: 'CONFORMANCE_CACHE_DIR',
    text: "where those caches live (default `node_modules/.cache/svc-conformance/`); the compiled TypeScript goes there only if the package's libraries resolve from there, else it stays in the default folder",
  },
  {
    name: 'CONFORMANCE_TEST_REPORT_DIR',
    text: "where `npm test` writes its conformance project's report (default: a temporary directory, printed at the end); `npm test` never writes to `reports/`",
  },
  {
    name: 'SLAPD_BIN',
    text: 'where slapd is (default: the usual Debian path); a path that does not exist makes it missing',
  },
  {
    name: 'CHROMIUM_PATH',
    text: 'where Chromium is, for the test that renders the HTML report; a path that does not exist makes it missing',
  },
  { name: 'CI', text: '`true`: tests whose real part (slapd, Chromium) is missing fail instead of skipping' },
];

function valueAt(obj: unknown, dotted: string): unknown {
  let cur = obj;
  for (const key of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function typeOf(s: SchemaNode): string {
  if (s.anyOf) {
    const canBeEmpty = s.anyOf.some((a) => a.const === '');
    const rest = s.anyOf.filter((a) => a.const !== '').map(typeOf);
    return `${rest.join(' or ')}${canBeEmpty ? ' (may be empty)' : ''}`;
  }
  if (s.enum) {
    const named = s.enum.filter((v) => v !== '').map((v) => `\`${String(v)}\``);
    return `one of ${named.join(', ')}${s.enum.includes('') ? ', or empty' : ''}`;
  }
  switch (s.type) {
    case 'boolean':
      return 'true or false';
    case 'integer':
    case 'number': {
      const noun = s.type === 'integer' ? 'integer' : 'number';
      if (s.minimum !== undefined && s.maximum !== undefined) return `${noun} from ${s.minimum} to ${s.maximum}`;
      if (s.minimum !== undefined) return `${noun} >= ${s.minimum}`;
      return noun;
    }
    case 'array': {
      const item = s.items?.type ?? (s.items?.anyOf?.every((a) => a.type === 'string') ? 'string' : 'value');
      return item === 'object' ? 'list of objects' : `list of ${item}s`;
    }
    case 'object':
      return s.properties ? 'object' : 'map';
    default:
      return s.type ?? 'value';
  }
}

function shown(value: unknown): string {
  if (value === '') return 'empty';
  if (Array.isArray(value)) return value.length ? value.map((v) => `\`${String(v)}\``).join(', ') : 'none';
  if (value !== null && typeof value === 'object')
    return Object.keys(value).length ? `\`${JSON.stringify(value)}\`` : 'none';
  return `\`${String(value)}\``;
}

/** The default as the harness builds it (a value chosen afresh for each run is said so). */
function defaultOf(setting: Setting, built: unknown): string | undefined {
  if (chosenPerRun(setting.schema)) return 'chosen per run';
  const a = valueAt(built, setting.path);
  if (a !== undefined) return shown(a);
  if (setting.schema.default !== undefined) return shown(setting.schema.default);
  return undefined;
}

function bullet(setting: Setting, built: unknown): string {
  const s = setting.schema;
  const facts = [typeOf(s)];
  if (s['x-env']) facts.push(`env \`${s['x-env']}\``);
  if (s['x-cli']) facts.push(`flag \`${s['x-cli']}\``);
  if (s.readOnly) facts.push('set by the harness');
  else {
    const def = defaultOf(setting, built);
    facts.push(`default: ${def ?? 'unset'}`);
  }
  return `- \`${setting.path}\`: ${sentence(s.description)} *${facts.join('; ')}.*`;
}

/** The text as a sentence: a full stop at its end (a description is written without one). */
function sentence(text: string | undefined): string {
  if (!text) return '';
  return text.endsWith('.') ? text : `${text}.`;
}

/** A paragraph of its own starts with a capital. */
function paragraph(text: string | undefined): string {
  const t = sentence(text);
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export function renderConfigurationDoc(): string {
  const built = defaultValues();
  const all = settings();
  const top = all.filter((s) => s.depth === 0);
  const sections = top.filter((s) => s.section || !s.schema.readOnly);
  const runState = top.filter((s) => !s.section && s.schema.readOnly);
  const lines: string[] = [
    '# Settings',
    '',
    `<!-- GENERATED by tools/config-docs.ts from harness/config/schema.ts and harness/cli/run-options.ts: do not edit by hand. Regenerate with \`${CONFIG_DOC_COMMAND}\`; tests/docs/configuration.test.ts checks it. -->`,
    '',
    'One typed object, built once per run: the defaults, then the config file (`--config FILE` or',
    '`CONFORMANCE_CONFIG`, YAML or JSON, with the keys below), then environment variables, then',
    'command-line flags. A wrong value stops the run with exit 2 and names the setting and where it',
    'came from. Profiles of real products are in `fixtures/profiles/`.',
    '',
    'Each setting is declared once, in `harness/config/schema.ts` (the cloud section in',
    '`contract/cloud-settings.ts`): its type, description, environment variable, flag and default.',
    'Its TypeScript type, its reader, the option of `run` and this page follow from that declaration;',
    'adding a setting is one `setting(...)` there and `npm run docs:config`',
    '(`tests/harness/settings-once.test.ts` fails on a second declaration). Which target each API is,',
    'the embedded reference or an external one, follows from the loaded config alone',
    '(`harness/config/target-plan.ts`): an address set in the file, the environment or a flag counts.',
    '',
    `Sections: ${sections.map((s) => `[${s.path}](#${s.path.toLowerCase()})`).join(', ')}, [environment only](#environment-only), [command line only](#command-line-only), [set by the harness](#set-by-the-harness).`,
  ];
  const children = (parent: string) =>
    all.filter((s) => s.path.startsWith(`${parent}.`) && !s.path.slice(parent.length + 1).includes('.'));
  /** A setting's bullet, then its own settings one level in. */
  const tree = (s: Setting, indent: string): string[] => [
    `${indent}${bullet(s, built)}`,
    ...(s.section ? children(s.path).flatMap((c) => tree(c, `${indent}  `)) : []),
  ];
  for (const section of sections) {
    lines.push('', `## ${section.path}`, '');
    if (!section.section) {
      lines.push(bullet(section, built));
      continue;
    }
    lines.push(paragraph(section.schema.description), '');
    const direct = children(section.path);
    // Plain settings first; a group of its own (dialect.names, sched.runningTask) under its heading.
    for (const s of direct.filter((c) => !c.section)) lines.push(...tree(s, ''));
    for (const s of direct.filter((c) => c.section)) {
      lines.push('', `### ${s.path}`, '', paragraph(s.schema.description), '');
      for (const c of children(s.path)) lines.push(...tree(c, ''));
    }
  }
  lines.push(
    '',
    '## Environment only',
    '',
    'Read by the harness and the tests, outside the config object:',
    '',
    ...ENVIRONMENT_ONLY.map((e) => `- \`${e.name}\`: ${sentence(e.text)}`),
    '',
    '## Command line only',
    '',
    'Flags of `run` that set no setting above (the README lists every command):',
    '',
    ...RUN_ONLY_FLAGS.map((c) => `- \`${c.flag}\`: ${sentence(c.description)}`),
    '',
    '## Set by the harness',
    '',
    'What the harness fills in for each run (a config file does not set them):',
    '',
    ...runState.map((s) => bullet(s, built)),
  );
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(CONFIG_DOC_FILE, renderConfigurationDoc());
  console.log(`wrote ${path.relative(process.cwd(), CONFIG_DOC_FILE)}`);
}
