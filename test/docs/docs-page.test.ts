import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { BUNDLE_FILE, installedBundleDir } from '../../src/http/api-reference-bundle.js';

/** The configuration the page hands Scalar, read back from its `data-configuration` attribute. */
function scalarConfiguration(res: TestResponse): Record<string, unknown> {
  const attribute = /<script id="api-reference" data-url="[^"]*" data-configuration="([^"]*)"><\/script>/.exec(
    res.text,
  );
  assert.ok(attribute, 'the page holds the element Scalar mounts on');
  return JSON.parse(attribute[1]!.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))));
}

forEachBackend('GET /docs (API reference page)', (srv) => {
  it('serves an HTML page that loads the API reference from this server and reads /doc', async () => {
    const res = await srv().get(`${srv().origin}/docs`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=UTF-8');
    assert.match(res.text, /<html lang="en">/);
    assert.match(res.text, /<title>Calendar Server API reference<\/title>/);
    assert.match(res.text, /data-url="\/wp-json\/calendar\/events\/v1\/doc"/);
    assert.ok(res.text.includes('<script src="/docs/assets/api-reference.js"></script>'));
    // No CDN: every referenced resource is a path on this server, and the icon is empty rather than /favicon.ico.
    assert.doesNotMatch(res.text, /(src|href)="(https?:)?\/\//);
    assert.match(res.text, /<link rel="icon" href="data:,">/);
    const doc = await srv().get(`${srv().origin}/wp-json/calendar/events/v1/doc`);
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    assert.equal((await srv().get(`${srv().origin}/docs/`)).status, 200);
  });

  it("turns off every Scalar feature that would reach Scalar's servers", async () => {
    assert.deepEqual(scalarConfiguration(await srv().get(`${srv().origin}/docs`)), {
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      localization: { locale: 'en' },
    });
  });

  it("the language variant's page reads that variant's /doc and shows its texts", async () => {
    const res = await srv().get(`${srv().origin}/fr/docs`);
    assert.equal(res.status, 200);
    assert.match(res.text, /<html lang="fr">/);
    assert.match(res.text, /<title>Référence de l&#39;API Calendar Server<\/title>/);
    assert.match(res.text, /data-url="\/fr\/wp-json\/calendar\/events\/v1\/doc"/);
    assert.deepEqual(scalarConfiguration(res).localization, { locale: 'fr' });
    const doc = await srv().get(`${srv().origin}/fr/wp-json/calendar/events/v1/doc`);
    assert.equal(doc.body.info.title, 'API REST de Calendar Server');
  });

  it('an unknown language segment is 404', async () => {
    expectRestError(await srv().get(`${srv().origin}/xx/docs`), 404, 'rest_no_route');
  });

  it("serves Scalar's standalone bundle as JavaScript", async () => {
    const res = await fetch(`${srv().origin}/docs/assets/api-reference.js`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/javascript; charset=UTF-8');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=86400');
    assert.ok(
      Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(installedBundleDir(), BUNDLE_FILE))),
      'the bundle is the installed file',
    );
  });

  it('nothing else of the package or the file system is served', async () => {
    for (const path of [
      '/docs/assets/package.json',
      '/docs/assets/standalone.js',
      '/docs/assets/standalone.js.map',
      '/docs/assets/api-reference.js.map',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/toString',
      '/docs/assets/..%2Fpackage.json',
      '/docs/assets/',
      '/docs/x',
    ]) {
      expectRestError(await srv().get(`${srv().origin}${path}`), 404, 'rest_no_route');
    }
  });

  it('HEAD answers without a body; other methods get the reference answers', async () => {
    const head = await srv().request('HEAD', `${srv().origin}/docs`);
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('content-type'), 'text/html; charset=UTF-8');
    const options = await srv().request('OPTIONS', `${srv().origin}/docs`);
    assert.equal(options.status, 200);
    assert.deepEqual(options.body, []);
    expectRestError(await srv().request('POST', `${srv().origin}/docs`), 404, 'rest_no_route');
  });
});
