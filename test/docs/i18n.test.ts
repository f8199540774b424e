import { it } from 'node:test';
import assert from 'node:assert/strict';
import { catalogFor, translate } from '../../src/http/i18n/index.js';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';
import { textPairs, texts } from './support.js';

const NS = 'calendar/events/v1';
const LANGUAGES = ['es', 'fr', 'de'];

async function variant(srv: TestServer, lang: string, path: string) {
  const res = await srv.get(`${srv.origin}${lang ? `/${lang}` : ''}/wp-json/${NS}${path}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Every human-readable text the route table and the OpenAPI generator produce, in English. */
async function englishTexts(srv: TestServer): Promise<string[]> {
  const all = texts(await variant(srv, '', '/doc'));
  texts(await variant(srv, '', ''), all);
  const page = await srv.get(`${srv.origin}/docs`);
  all.add(/<title>([^<]*)<\/title>/.exec(page.text)![1]!);
  return [...all].sort();
}

forEachBackend('Language variants', (srv) => {
  for (const lang of LANGUAGES) {
    it(`every description of discovery and /doc has a ${lang} translation in src/http/i18n/${lang}.ts`, async () => {
      const catalog = catalogFor(lang);
      assert.ok(catalog, `no catalog registered for ${lang}`);
      const missing = (await englishTexts(srv())).filter((text) => !catalog[text]?.trim());
      assert.deepEqual(missing, [], `texts missing from src/http/i18n/${lang}.ts`);
    });

    it(`the ${lang} variant of discovery and /doc shows the ${lang} catalog texts in place of the English ones`, async () => {
      for (const path of ['', '/doc']) {
        const pairs = textPairs(await variant(srv(), '', path), await variant(srv(), lang, path));
        assert.ok(pairs.length > 10);
        for (const [en, localized] of pairs) assert.equal(localized, translate(en, lang), `${lang}${path}: ${en}`);
      }
    });
  }

  it('the variants differ only in texts and links: same paths, operations, parameters and schemas', async () => {
    const strip = (doc: any) =>
      JSON.stringify(doc, (key, value) =>
        ['description', 'summary', 'title'].includes(key) && typeof value === 'string' ? undefined : value,
      ).replaceAll(`/es/wp-json`, '/wp-json');
    assert.equal(strip(await variant(srv(), 'es', '/doc')), strip(await variant(srv(), '', '/doc')));
  });

  it('/en/ serves the English texts', async () => {
    const en = await variant(srv(), 'en', '/doc');
    assert.equal(en.info.title, 'Calendar Server REST API');
    assert.equal(en.servers[0].url, `${srv().config.siteUrl}/en/wp-json/${NS}/`);
  });

  it('error messages stay English in every variant (decisions.md X 19)', async () => {
    for (const lang of LANGUAGES) {
      const res = await srv().get(`${srv().origin}/${lang}/wp-json/${NS}`, { query: { namespace: 'nope' } });
      expectRestError(res, 404, 'rest_invalid_namespace', 'The specified namespace could not be found.');
      expectRestError(
        await srv().get(`${srv().origin}/${lang}/wp-json/${NS}/nothing-here`),
        404,
        'rest_no_route',
        'No route was found matching the URL and request method.',
      );
    }
  });
});
