import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { forEachBackend, type TestServer } from '../support/server.js';
import { NO_CHROMIUM, findChromium } from '../support/browser.js';

const CHROMIUM = findChromium();
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// Outside CI a missing browser is a skip that scripts/test.mjs repeats under its summary; CI must run these tests.
const skip = !CHROMIUM && process.env.CI !== 'true' ? NO_CHROMIUM : false;

interface Visit {
  page: Page;
}

// Scalar announces what it cannot read on the console (an unresolved $ref is a warning, a document that does not load
// an error) and shows problems in alerts and error toasts; any of them fails the visit.
const PROBLEM_MESSAGES = new Set(['error', 'warning']);
const ERROR_BOXES = '[role="alert"], [data-sonner-toast][data-type="error"]';
/** The sidebar entry of `METHOD path` of the events tag, e.g. `GET /events/{id}`. */
const eventsEntry = (operation: string) => `[data-sidebar-id="api-1/tag/events/${operation.replace(' /', '/')}"]`;

/**
 * Opens `path` in a fresh headless Chromium profile, waits for the reference to list the events operations, runs
 * `body`, then fails on any console error or warning, page error, failed request, request leaving the server, or error
 * box on the page.
 */
async function inBrowser(srv: TestServer, path: string, body: (visit: Visit) => Promise<void>): Promise<void> {
  assert.ok(CHROMIUM, `under CI=true the browser tests must run, but there is ${NO_CHROMIUM}`);
  const profile = mkdtempSync(join(tmpdir(), 'calendar-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (PROBLEM_MESSAGES.has(message.type())) problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(`${srv.origin}/`)) problems.push(`external request: ${request.url()}`);
    });
    const response = await page.goto(`${srv.origin}${path}`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200);
    await page.waitForSelector('[data-sidebar-id="api-1/tag/events"]', { timeout: 30_000 }).catch((err) => {
      throw new Error(`the reference never listed the events tag; the page reported: ${problems.join('; ')}`, {
        cause: err,
      });
    });
    await body({ page });
    const boxes = await page.locator(ERROR_BOXES).allInnerTexts();
    assert.deepEqual([...problems, ...boxes.map((text) => `error box: ${text}`)], []);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The text of the document's title heading, which is where Scalar says that a document could not be loaded. */
async function documentTitle(page: Page): Promise<string> {
  return (await page.locator('h1').first().innerText()).trim();
}

forEachBackend('API reference page in a headless browser', (srv) => {
  it(
    'GET /docs renders the document without errors or warnings and shows the events operations',
    { skip, timeout: 120_000 },
    async () => {
      await inBrowser(srv(), '/docs', async ({ page }) => {
        assert.equal(await documentTitle(page), 'Calendar Server REST API');
        await page.locator('[data-sidebar-id="api-1/tag/events"] button[aria-expanded]').first().click();
        for (const op of [
          'GET /events',
          'POST /events',
          'GET /events/{id}',
          'POST /events/{id}',
          'PUT /events/{id}',
          'PATCH /events/{id}',
          'DELETE /events/{id}',
          'GET /events/by-slug/{slug}',
        ]) {
          await page.waitForSelector(eventsEntry(op), { timeout: 10_000 });
        }
        // Opening an operation shows its parameters from the route table.
        await page.locator(`${eventsEntry('GET /events')} a`).click();
        const operation = page.locator('section[id="api-1/tag/events/GET/events"]');
        await operation.waitFor({ timeout: 10_000 });
        await operation.getByText('start_date', { exact: true }).first().waitFor({ timeout: 10_000 });
      });
    },
  );

  it("/{lang}/docs renders the language variant's document in that language", { skip, timeout: 120_000 }, async () => {
    await inBrowser(srv(), '/de/docs', async ({ page }) => {
      assert.match(await documentTitle(page), /^REST-API von Calendar Server/);
      assert.equal(await page.title(), 'API-Referenz von Calendar Server');
      // Scalar's own texts follow the page's language too.
      await page.getByText('Einführung', { exact: true }).first().waitFor({ timeout: 10_000 });
    });
  });
});
