import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { daysFromNow, makeEvent, tableCounts } from '../events/helpers.js';
import { KINDS, create, plural } from '../linked/helpers.js';
import * as clearUnsafeUrls from '../../src/db/migrations/2026-11-27-11-clear-unsafe-urls.js';

/** URL forms that run script or name no web host: each is refused, whatever the field. */
const HOSTILE_URLS = [
  'javascript://example.com/%0Aalert(1)',
  'JaVaScRiPt://example.com/%0Aalert(1)',
  'javascript:alert(1)',
  'vbscript://example.com/msgbox(1)',
  '  javascript://example.com/%0Aalert(1)',
  '\u0001javascript://example.com/%0Aalert(1)',
  'java\tscript://example.com/%0Aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data://text/html;base64,PHNjcmlwdD4=',
  '//example.com/a',
  'http://',
  'http:///path',
  'mailto:someone@example.org',
];

const QUOTED = 'http://x.com/"><script>alert(1)</script>';
const QUOTED_STORED = 'http://x.com/%22%3E%3Cscript%3Ealert(1)%3C/script%3E';

/** No character that could end an attribute or open a tag, anywhere in a JSON body. */
function assertNoRawMarkup(res: TestResponse, where: string): void {
  for (const url of collectUrls(res.body)) assert.doesNotMatch(url, /["'<>`\s]/, `${where}: ${url}`);
}

function collectUrls(value: unknown): string[] {
  if (typeof value === 'string') return value.includes('x.com') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(collectUrls);
  if (value && typeof value === 'object') return Object.values(value).flatMap(collectUrls);
  return [];
}

forEachBackend('URL fields accept only http and https URLs', (srv) => {
  describe('POST /events and POST /events/{id}: website', () => {
    for (const website of HOSTILE_URLS) {
      it(`website ${JSON.stringify(website)} is rest_invalid_param naming website, and nothing is stored`, async () => {
        const before = await tableCounts(srv());
        const res = await srv().post('/events', {
          as: 'administrator',
          json: { title: 'Bad web', start_date: daysFromNow(2), end_date: daysFromNow(2), website },
        });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): website');
        assert.deepEqual(Object.keys(res.body.data.params), ['website']);
        assert.deepEqual(await tableCounts(srv()), before);

        const e = await makeEvent(srv(), { website: 'https://kept.example.org/' });
        const update = await srv().post(`/events/${e.id}`, { as: 'administrator', json: { website } });
        expectRestError(update, 400, 'rest_invalid_param', 'Invalid parameter(s): website');
        const row = await srv()
          .db.selectFrom('events')
          .select('website')
          .where('post_id', '=', e.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.website, 'https://kept.example.org/');
      });
    }

    it('quotes, angle brackets, backticks and spaces are stored percent-encoded and echoed so', async () => {
      const e = await makeEvent(srv(), { website: `  ${QUOTED}\u0007 ` });
      assert.equal(e.website, QUOTED_STORED);
      const row = await srv()
        .db.selectFrom('events')
        .select('website')
        .where('post_id', '=', e.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.website, QUOTED_STORED);
      const read = await srv().get(`/events/${e.id}`);
      assert.equal(read.body.website, QUOTED_STORED);
      assertNoRawMarkup(read, 'GET /events/{id}');

      const odd = await makeEvent(srv(), { website: "http://x.com/a'b`c d" });
      assert.equal(odd.website, 'http://x.com/a%27b%60c%20d');
    });

    it('the scheme is matched in any case and stored lower-case; the rest is kept as given', async () => {
      const e = await makeEvent(srv(), { website: 'HTTPS://Example.com/a b' });
      assert.equal(e.website, 'https://Example.com/a%20b');
      const row = await srv()
        .db.selectFrom('events')
        .select('website')
        .where('post_id', '=', e.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.website, 'https://Example.com/a%20b');
    });

    it('an empty website still clears the stored one', async () => {
      const e = await makeEvent(srv(), { website: 'https://example.org/' });
      const res = await srv().post(`/events/${e.id}`, { as: 'administrator', json: { website: '' } });
      assert.equal(res.status, 200, res.text);
      const row = await srv()
        .db.selectFrom('events')
        .select('website')
        .where('post_id', '=', e.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.website, '');
    });
  });

  for (const kind of KINDS) {
    const path = `/${plural(kind)}`;
    describe(`POST ${path} and PATCH ${path}/{id}: website`, () => {
      const count = async () =>
        Number(
          (
            await srv()
              .db.selectFrom('posts')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );

      for (const website of HOSTILE_URLS) {
        it(`website ${JSON.stringify(website)} is rest_invalid_param naming website, and nothing is stored`, async () => {
          const before = await count();
          const res = await srv().post(path, { as: 'administrator', json: { [kind]: `Bad web ${kind}`, website } });
          expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): website');
          assert.deepEqual(Object.keys(res.body.data.params), ['website']);
          assert.equal(await count(), before);

          const rec = await create(srv(), kind, {
            [kind]: `Kept web ${kind} ${Math.random()}`,
            website: 'https://kept.example.org/',
          });
          const update = await srv().request('PATCH', `${path}/${rec.id}`, { as: 'administrator', json: { website } });
          expectRestError(update, 400, 'rest_invalid_param', 'Invalid parameter(s): website');
          const row = await srv()
            .db.selectFrom(kind === 'venue' ? 'venues' : 'organizers')
            .select('website')
            .where('post_id', '=', rec.id)
            .executeTakeFirstOrThrow();
          assert.equal(row.website, 'https://kept.example.org/');
        });
      }

      it('website with quotes and tags is stored percent-encoded and echoed in website and json_ld', async () => {
        const rec = await create(srv(), kind, { [kind]: `Quoted ${kind}`, website: QUOTED });
        assert.equal(rec.website, QUOTED_STORED);
        const row = await srv()
          .db.selectFrom(kind === 'venue' ? 'venues' : 'organizers')
          .select('website')
          .where('post_id', '=', rec.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.website, QUOTED_STORED);
        const read = await srv().get(`${path}/${rec.id}`);
        assert.equal(read.body.website, QUOTED_STORED);
        assert.equal(read.body.json_ld.sameAs, QUOTED_STORED);
        if (kind === 'organizer') assert.equal(read.body.json_ld.url, QUOTED_STORED);
        assertNoRawMarkup(read, `GET ${path}/{id}`);
      });

      it('HTTPS://Example.com/a b is accepted and stored encoded', async () => {
        const rec = await create(srv(), kind, { [kind]: `Spaced ${kind}`, website: 'HTTPS://Example.com/a b' });
        assert.equal(rec.website, 'https://Example.com/a%20b');
      });

      it('inline data on an event is held to the same rule and stored cleaned', async () => {
        const before = await tableCounts(srv());
        const bad = await srv().post('/events', {
          as: 'administrator',
          json: {
            title: 'Inline bad',
            start_date: daysFromNow(2),
            end_date: daysFromNow(2),
            [kind]: { [kind]: `Inline bad ${kind}`, website: 'javascript://x.com/%0Aalert(1)' },
          },
        });
        expectRestError(bad, 400, 'rest_invalid_param', `Invalid parameter(s): ${kind}`);
        assert.deepEqual(await tableCounts(srv()), before);

        const e = await makeEvent(srv(), { [kind]: { [kind]: `Inline quoted ${kind}`, website: QUOTED } });
        const embedded = kind === 'venue' ? e.venue : e.organizer[0];
        assert.equal(embedded.website, QUOTED_STORED);
        assertNoRawMarkup(await srv().get(`/events/${e.id}`), 'GET /events/{id} with inline record');
      });
    });
  }

  describe('image given as a URL', () => {
    for (const image of HOSTILE_URLS) {
      it(`image ${JSON.stringify(image)} is rest_invalid_param naming image, and nothing is stored`, async () => {
        const before = await tableCounts(srv());
        const res = await srv().post('/events', {
          as: 'administrator',
          json: { title: 'Bad image', start_date: daysFromNow(2), end_date: daysFromNow(2), image },
        });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): image');
        assert.deepEqual(Object.keys(res.body.data.params), ['image']);
        assert.deepEqual(await tableCounts(srv()), before);
      });
    }

    it('a URL with quotes and tags is stored percent-encoded and echoed in image.url and json_ld.image', async () => {
      const e = await makeEvent(srv(), { image: `${QUOTED}.jpg` });
      assert.equal(e.image.url, `${QUOTED_STORED}.jpg`);
      const row = await srv()
        .db.selectFrom('images')
        .select('url')
        .where('post_id', '=', e.image.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.url, `${QUOTED_STORED}.jpg`);
      const read = await srv().get(`/events/${e.id}`);
      assert.equal(read.body.image.url, `${QUOTED_STORED}.jpg`);
      assert.equal(read.body.json_ld.image, `${QUOTED_STORED}.jpg`);
      assertNoRawMarkup(read, 'GET /events/{id}');

      const again = await makeEvent(srv(), { image: `${QUOTED_STORED}.jpg` });
      assert.equal(again.image.id, e.image.id, 'the cleaned URL finds the same image record');
    });

    for (const kind of KINDS) {
      it(`a ${kind} image URL is cleaned the same way`, async () => {
        const rec = await create(srv(), kind, { [kind]: `Pictured ${kind}`, image: `HTTPS://x.com/a b.png` });
        assert.equal(rec.image.url, 'https://x.com/a%20b.png');
      });
    }

    it('a malformed percent sequence in an image URL is stored, never a 500', async () => {
      const e = await makeEvent(srv(), { image: 'http://x.com/%E0%A4%A.jpg' });
      assert.equal(e.image.url, 'http://x.com/%E0%A4%A.jpg');
      assert.equal(e.image.extension, 'jpg');
    });
  });

  describe('migration 11 blanks stored websites that are not http(s) URLs and encodes markup characters', () => {
    it('script URLs stored before the rule are cleared; http(s) ones, in any case, are kept, with markup characters encoded', async () => {
      const bad = await makeEvent(srv(), { website: 'https://placeholder.example/' });
      const good = await makeEvent(srv(), { website: 'https://placeholder.example/' });
      const venue = await create(srv(), 'venue', { venue: 'Old venue', website: 'https://placeholder.example/' });
      const organizer = await create(srv(), 'organizer', {
        organizer: 'Old organizer',
        website: 'https://placeholder.example/',
      });
      const keptVenue = await create(srv(), 'venue', { venue: 'Kept venue', website: 'https://placeholder.example/' });
      await srv()
        .db.updateTable('events')
        .set({ website: 'javascript://x.com/%0Aalert(1)' })
        .where('post_id', '=', bad.id)
        .execute();
      await srv()
        .db.updateTable('events')
        .set({ website: 'HTTP://Kept.example/' })
        .where('post_id', '=', good.id)
        .execute();
      await srv()
        .db.updateTable('venues')
        .set({ website: ' JaVaScRiPt:alert(1)' })
        .where('post_id', '=', venue.id)
        .execute();
      await srv()
        .db.updateTable('organizers')
        .set({ website: 'vbscript:msgbox(1)' })
        .where('post_id', '=', organizer.id)
        .execute();
      await srv()
        .db.updateTable('venues')
        .set({ website: 'Https://kept.example/' })
        .where('post_id', '=', keptVenue.id)
        .execute();
      const quoted = await makeEvent(srv(), {
        website: 'https://placeholder.example/',
        image: 'https://x.com/placeholder.jpg',
      });
      await srv().db.updateTable('events').set({ website: QUOTED }).where('post_id', '=', quoted.id).execute();
      await srv()
        .db.updateTable('images')
        .set({ url: `${QUOTED}.jpg` })
        .where('post_id', '=', quoted.image.id)
        .execute();

      await clearUnsafeUrls.up(srv().db as unknown as Kysely<any>);

      const event = async (id: number) =>
        (await srv().db.selectFrom('events').select('website').where('post_id', '=', id).executeTakeFirstOrThrow())
          .website;
      assert.equal(await event(bad.id), '');
      assert.equal(await event(good.id), 'HTTP://Kept.example/');
      assert.equal(
        (
          await srv()
            .db.selectFrom('venues')
            .select('website')
            .where('post_id', '=', venue.id)
            .executeTakeFirstOrThrow()
        ).website,
        '',
      );
      assert.equal(
        (
          await srv()
            .db.selectFrom('organizers')
            .select('website')
            .where('post_id', '=', organizer.id)
            .executeTakeFirstOrThrow()
        ).website,
        '',
      );
      assert.equal(
        (
          await srv()
            .db.selectFrom('venues')
            .select('website')
            .where('post_id', '=', keptVenue.id)
            .executeTakeFirstOrThrow()
        ).website,
        'Https://kept.example/',
      );
      assert.equal(await event(quoted.id), QUOTED_STORED, 'quotes and tags stored earlier are percent-encoded');
      assert.equal(
        (
          await srv()
            .db.selectFrom('images')
            .select('url')
            .where('post_id', '=', quoted.image.id)
            .executeTakeFirstOrThrow()
        ).url,
        `${QUOTED_STORED}.jpg`,
      );
    });
  });
});
