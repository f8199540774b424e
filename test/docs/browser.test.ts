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
  problems: string[];
}

/**
 * Opens `path` in a fresh headless Chromium profile, recording console errors, page errors and requests leaving the
 * server.
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
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(`${srv.origin}/`)) problems.push(`external request: ${request.url()}`);
    });
    const response = await page.goto(`${srv.origin}${path}`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200);
    await page.waitForSelector('.opblock-summary-path[data-path="/events"]', { timeout: 30_000 });
    await body({ page, problems });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

forEachBackend('API reference page in a headless browser', (srv) => {
  it(
    'GET /docs renders the document without console errors and shows the events operations',
    { skip, timeout: 120_000 },
    async () => {
      await inBrowser(srv(), '/docs', async ({ page, problems }) => {
        assert.equal(
          await page
            .locator('.info .title')
            .first()
            .innerText()
            .then((t) => t.split('\n')[0]!.trim()),
          'Calendar Server REST API',
        );
        const operations = await page
          .locator('.opblock')
          .evaluateAll((blocks) =>
            blocks.map(
              (b) =>
                `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
            ),
          );
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
          assert.ok(operations.includes(op), `${op} is shown (shown: ${operations.join(', ')})`);
        }
        // Opening an operation shows its parameters from the route table.
        await page.locator('.opblock-summary-path[data-path="/events"]').first().click();
        await page.waitForSelector('.parameters-container .parameter__name', { timeout: 10_000 });
        const names = await page.locator('.opblock.is-open .parameter__name').allInnerTexts();
        assert.ok(
          names.some((n) => n.startsWith('start_date')),
          `start_date is listed (${names.join(', ')})`,
        );
        assert.deepEqual(problems, []);
      });
    },
  );

  it("/{lang}/docs renders the language variant's document", { skip, timeout: 120_000 }, async () => {
    await inBrowser(srv(), '/de/docs', async ({ page, problems }) => {
      await page.waitForSelector('.info .title');
      assert.match(await page.locator('.info .title').first().innerText(), /^REST-API von Calendar Server/);
      assert.equal(await page.title(), 'API-Referenz von Calendar Server');
      assert.deepEqual(problems, []);
    });
  });
});
