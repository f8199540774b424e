import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expectRestError, forEachBackend } from '../support/server.js';

const require = createRequire(import.meta.url);
const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));

forEachBackend('GET /docs (API reference page)', (srv) => {
  it('serves an HTML page that loads Swagger UI from this server and reads /doc', async () => {
    const res = await srv().get(`${srv().origin}/docs`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=UTF-8');
    assert.match(res.text, /<html lang="en">/);
    assert.match(res.text, /<title>Calendar Server API reference<\/title>/);
    assert.match(res.text, /data-spec-url="\/wp-json\/calendar\/events\/v1\/doc"/);
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js', 'favicon-32x32.png'])
      assert.ok(res.text.includes(`"/docs/assets/${asset}"`), asset);
    // No CDN: every referenced resource is a path on this server.
    assert.doesNotMatch(res.text, /(src|href)="(https?:)?\/\//);
    const doc = await srv().get(`${srv().origin}/wp-json/calendar/events/v1/doc`);
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    assert.equal((await srv().get(`${srv().origin}/docs/`)).status, 200);
  });

  it("the language variant's page reads that variant's /doc and shows its texts", async () => {
    const res = await srv().get(`${srv().origin}/fr/docs`);
    assert.equal(res.status, 200);
    assert.match(res.text, /<html lang="fr">/);
    assert.match(res.text, /<title>Référence de l&#39;API Calendar Server<\/title>/);
    assert.match(res.text, /data-spec-url="\/fr\/wp-json\/calendar\/events\/v1\/doc"/);
    const doc = await srv().get(`${srv().origin}/fr/wp-json/calendar/events/v1/doc`);
    assert.equal(doc.body.info.title, 'API REST de Calendar Server');
  });

  it('an unknown language segment is 404', async () => {
    expectRestError(await srv().get(`${srv().origin}/xx/docs`), 404, 'rest_no_route');
  });

  it('serves the installed swagger-ui-dist files with their content types', async () => {
    const cases: Array<[string, string]> = [
      ['swagger-ui-bundle.js', 'application/javascript; charset=UTF-8'],
      ['swagger-ui.css', 'text/css; charset=UTF-8'],
      ['favicon-32x32.png', 'image/png'],
    ];
    for (const [name, type] of cases) {
      const res = await fetch(`${srv().origin}/docs/assets/${name}`);
      assert.equal(res.status, 200, name);
      assert.equal(res.headers.get('content-type'), type);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=86400');
      assert.ok(
        Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(SWAGGER_UI, name))),
        `${name} is the installed file`,
      );
    }
    const init = await srv().get(`${srv().origin}/docs/assets/init.js`);
    assert.equal(init.status, 200);
    assert.match(init.text, /SwaggerUIBundle\(/);
    assert.match(init.text, /validatorUrl: null/);
  });

  it('nothing else of the package or the file system is served', async () => {
    for (const path of [
      '/docs/assets/package.json',
      '/docs/assets/index.html',
      '/docs/assets/swagger-ui.js.map',
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
