/**
 * Debian's Chromium driven by playwright-core, as the browser tests use it: a prerequisite that
 * skips (or under CI=true fails) when Chromium is missing, and a fresh, offline, headless context.
 */
import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';
import { prerequisite } from './prerequisites.js';

export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium keeps trying this machine's closed network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumPart = prerequisite({
  name: `Chromium (${executablePath}, or set CHROMIUM_PATH)`,
  present: existsSync(executablePath),
  install: 'apt-get install -y chromium',
});

/** A headless, offline context in its own profile folder (a persistent context takes a fresh --user-data-dir). */
export function launchChromium(
  profileDir: string,
  viewport?: { width: number; height: number },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: FLAGS,
    timeout: 30_000,
    offline: true,
    ...(viewport ? { viewport } : {}),
  });
}
