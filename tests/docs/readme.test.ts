/**
 * The README's command line stays true: its synopsis names every option of every command
 * (harness/cli/program.ts), it names every npm script, and its set-up commands exist.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';

const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
const program = readFileSync(join(PACKAGE_ROOT, 'harness/cli/program.ts'), 'utf8');
const scripts = Object.keys(
  (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
);

/** The options of each command: `.command('run')` up to the next `.command(`. */
function commandOptions(source: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const parts = source.split(/\.command\('/).slice(1);
  for (const part of parts) {
    const name = part.slice(0, part.indexOf("'"));
    out.set(
      name,
      [...part.matchAll(/\.option\(\s*'(--[a-z-]+)/g)].map((m) => m[1]!),
    );
  }
  return out;
}

describe('README', () => {
  const synopsis = /## Command line\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

  it('has a synopsis of every command with every option', () => {
    const commands = commandOptions(program);
    expect([...commands.keys()]).toEqual(expect.arrayContaining(['run', 'merge', 'mutation', 'compare']));
    const missing: string[] = [];
    for (const [command, options] of commands) {
      const line = synopsis
        .split(/\n(?=svc-conformance )/)
        .find((l) => l.startsWith(`svc-conformance ${command} `) || l.trim() === `svc-conformance ${command}`);
      if (!line) {
        missing.push(command);
        continue;
      }
      for (const o of options) if (!new RegExp(`\\[${o}\\b`).test(line)) missing.push(`${command} ${o}`);
    }
    expect(missing).toEqual([]);
  });

  it('names every npm script, and its set-up commands are scripts that exist', () => {
    const named = new Set(
      [...readme.matchAll(/`(npm run |npm )?([a-z]+(:[a-z]+)?)`/g)]
        .map((m) => m[2]!)
        .filter((n) => scripts.includes(n)),
    );
    expect(scripts.filter((s) => !named.has(s))).toEqual([]);
    const setUp = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    for (const m of setUp.matchAll(/npm (?:run )?([a-z:]+)/g))
      if (m[1] !== 'ci') expect(scripts, `npm ${m[1]} in the set-up commands`).toContain(m[1]);
  });
});
