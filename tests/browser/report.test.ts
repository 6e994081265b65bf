/**
 * Opens a generated index.html in headless Chromium (Debian's `chromium`, driven by
 * playwright-core with its executablePath) and checks that what a reader needs renders: the
 * summary, the requirement matrix and a failure with its transcript. The report comes from a
 * small synthetic run with one failing test, written by the real writeReports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../harness/report/reporter.js';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { statementVerdicts } from '../../harness/report/document-view.js';
import type { RequirementRow } from '../../harness/report/model.js';
import { carriersByStatement, DOCUMENTS, loadStatements } from '../../harness/spec/statements.js';
import { defaultOutcomes, failingExchange, outcome, results } from '../report/synthetic.js';
import { reproduce } from '../../harness/report/curl.js';
import { chromiumPart, launchChromium } from '../helpers/chromium.js';

describe.skipIf(chromiumPart.skip)(`HTML report in headless Chromium${chromiumPart.note}`, () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'report-browser-'));
  const profileDir = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  let context: BrowserContext;

  beforeAll(async () => {
    chromiumPart.assertPresent();
    writeReports(join(reportDir, 'documents'), withStatements());
    writeReports(
      reportDir,
      results({
        outcomes: [
          ...defaultOutcomes(),
          outcome(
            'GET /demo/x?help=1 without permission is refused',
            ['demo.help.permission', 'demo.read.ok'],
            'failed',
            {
              errors: ['CheckFailure: status: GET /demo/x answered 200'],
              meta: {
                attribution: {
                  failedRequirement: 'demo.help.permission',
                  notReached: ['demo.read.ok'],
                  differences: [],
                },
                reproduction: reproduce({
                  ...failingExchange,
                  url: 'http://127.0.0.1:8200/v1/demo/x?help=1',
                  status: 200,
                }),
              },
            },
          ),
        ],
      }),
    );
    // A persistent context is how playwright takes a fresh --user-data-dir.
    context = await launchChromium(profileDir);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(profileDir, { recursive: true, force: true });
    rmSync(reportDir, { recursive: true, force: true });
  });

  it('renders the summary, the requirement matrix and a failure transcript', async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(pathToFileURL(join(reportDir, 'index.html')).href, { timeout: 15_000 });

    const summary = page.locator('#summary');
    expect(await summary.isVisible(), 'summary section visible').toBe(true);
    expect(await summary.innerText(), 'verdict and totals').toMatch(
      /1 MUST failure\(s\)[\s\S]*4 tests[\s\S]*2 failed[\s\S]*1 MUST \/ 0 SHOULD \/ 0 MAY violations[\s\S]*1 assumption differences/,
    );

    const rows = page.locator('#matrix tbody tr');
    expect(await rows.count(), 'one matrix row per catalogued requirement of the area').toBe(5);
    const known = page.locator('#matrix tr[data-id="demo.known.crash"]');
    expect(await known.innerText(), 'known issue row with status and gating').toMatch(
      /known-issue[\s\S]*affected: 1\.13\.9, 1\.14\.5/,
    );

    const failure = page.locator('#failures .failure').first();
    expect(await failure.isVisible(), 'failure visible').toBe(true);
    expect(await failure.locator('h3').innerText(), 'failing test title').toBe(
      'GET /demo/:name returns the stored value',
    );
    expect(await failure.locator('pre.msg').innerText(), 'failure message').toContain('answered 500');
    const exchange = failure.locator('details.exchange').last();
    expect(await exchange.getAttribute('open'), 'last exchange opened').not.toBeNull();
    expect(await exchange.locator('summary').innerText(), 'exchange line').toContain(
      'GET http://127.0.0.1:8200/v1/demo/x → 500',
    );
    expect(await exchange.innerText(), 'response body rendered as text').toContain('internal error <boom>');
    expect(pageErrors, 'script errors on the page').toEqual([]);
    await page.close();
  }, 60_000);

  it('shows the documents with every statement, its requirements and its verdict in the run', async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(pathToFileURL(join(reportDir, 'documents', 'index.html')).href, { timeout: 15_000 });
    const view = page.locator('#documents');
    expect(await view.isVisible(), 'document view visible').toBe(true);
    const documents = view.locator('details.document');
    expect(await documents.count(), 'the three documents').toBe(Object.keys(DOCUMENTS).length);
    await documents.first().locator('summary').click();
    const failed = view.locator(`[data-statement="${failing.statement}"]`);
    expect(await failed.isVisible(), 'the statement of the failing requirement, beside its line').toBe(true);
    expect(await failed.innerText()).toMatch(new RegExp(`failed[\\s\\S]*${failing.requirement.replace(/\./g, '\\.')}`));
    expect(await view.locator('[data-statement]').count(), 'every statement of the inventory').toBe(inventory.length);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 60_000);

  it('a failure entry shows its curl line and the sentence of the documents; assumption differences have their own section', async () => {
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(reportDir, 'index.html')).href, { timeout: 15_000 });
    const failure = page.locator('#failures .failure').first();
    expect(await failure.locator('pre.curl').innerText(), 'the failing exchange as a curl command').toBe(
      `curl -sS -H 'X-Svc-Token: '"$SVC_TOKEN" 'http://127.0.0.1:8200/v1/demo/x'`,
    );
    const quote = failure.locator('blockquote.quote');
    expect(await quote.isVisible(), 'the quoted sentence is shown').toBe(true);
    expect(await quote.innerText(), 'the sentence and where it stands').toMatch(
      /Successful responses are JSON\.[\s\S]*Resources and their fields > Response envelope · doc\.core\.envelope\.json/,
    );
    expect(await failure.locator('.failed-id').innerText(), 'the failed requirement').toBe('demo.read.ok');

    const difference = page.locator('#assumption-differences .failure.assumption');
    expect(await difference.count(), 'one assumption difference').toBe(1);
    expect(await difference.innerText(), 'with its assumption, why and setting').toMatch(
      /Help needs the permission[\s\S]*"if permitted" only[\s\S]*assumptions\.demo\.help\.permission/,
    );
    expect(await difference.locator('pre.curl').innerText()).toContain('"$SVC_TOKEN"');
    expect(await difference.locator('blockquote.quote').innerText(), 'no statement yet: the requirement text').toMatch(
      /Help needs the permission of the path\.[\s\S]*requirement text/,
    );
    expect(await difference.locator('.not-reached').innerText(), 'the other id is not reached').toBe('demo.read.ok');
    expect(await page.locator('#summary').innerText()).toMatch(/1 assumption difference\(s\), not failing the run/);
    await page.close();
  }, 60_000);
});

const inventory = loadStatements();
/** A statement of the first document that one requirement alone carries, and that requirement. */
const failing = (() => {
  const carriers = carriersByStatement(loadCatalogue().values());
  const first = inventory[0]!.document;
  const s = inventory.find((x) => x.document === first && !x.untestable && carriers.get(x.id)?.length === 1)!;
  const requirement = carriers.get(s.id)![0]!;
  return { statement: s.id, requirement };
})();

/** The synthetic run with statement verdicts: the requirement above failed (a violation). */
function withStatements() {
  const r = results();
  const catalogue = loadCatalogue();
  const req = catalogue.get(failing.requirement)!;
  const row: RequirementRow = {
    id: req.id,
    level: req.level,
    area: req.area,
    section: req.section,
    text: req.text,
    kind: 'rule',
    status: 'failed',
    tests: ['suites/x.test.ts > x'],
  };
  return {
    ...r,
    statements: statementVerdicts(
      inventory,
      [row],
      new Map([...catalogue].map(([id, e]) => [id, { ...e, kind: 'rule' as const }])),
    ),
  };
}
