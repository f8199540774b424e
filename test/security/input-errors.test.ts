import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_INPUT_DEPTH } from '../../src/http/input.js';
import { expectRestError, forEachBackend } from '../support/server.js';
import { tableCounts } from '../events/helpers.js';

const json = { 'content-type': 'application/json' };
const nested = (depth: number) => `${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}`;

forEachBackend('Hostile input answers 4xx', (srv) => {
  let eventId = 0;
  before(async () => {
    for (const title of ['Emoji 😀 night', 'Plain evening']) {
      const res = await srv().post('/events', {
        as: 'administrator',
        json: { title, start_date: '2030-02-01 10:00', end_date: '2030-02-01 11:00' },
      });
      assert.equal(res.status, 201, res.text);
      eventId = res.body.id;
    }
  });

  describe('JSON nesting', () => {
    it(`a body nested ${MAX_INPUT_DEPTH * 12} deep is 400 rest_invalid_json with PHP's depth error, nothing written`, async () => {
      const counts = await tableCounts(srv());
      const res = await srv().post('/venues', {
        as: 'administrator',
        body: `{"venue":${nested(MAX_INPUT_DEPTH * 12)}}`,
        headers: json,
      });
      expectRestError(res, 400, 'rest_invalid_json', 'Invalid JSON body passed.');
      assert.equal(res.body.data.json_error_code, 1);
      assert.equal(res.body.data.json_error_message, 'Maximum stack depth exceeded');
      assert.deepEqual(await tableCounts(srv()), counts);
    });

    it('the same on an anonymous request', async () => {
      const res = await srv().post('/events', { body: `{"title":${nested(MAX_INPUT_DEPTH + 1)}}`, headers: json });
      expectRestError(res, 400, 'rest_invalid_json');
    });

    it(`nesting up to ${MAX_INPUT_DEPTH} levels is read (and then judged by the argument)`, async () => {
      const res = await srv().post('/venues', {
        as: 'administrator',
        body: `{"venue":${nested(MAX_INPUT_DEPTH - 1)}}`,
        headers: json,
      });
      expectRestError(res, 400, 'rest_invalid_param');
      assert.deepEqual(Object.keys(res.body.data.params), ['venue']);
    });
  });

  describe('search', () => {
    it('a search of 600 emoji words is 200: past nine terms the whole string is one term, as WordPress', async () => {
      const res = await srv().get('/events', { query: { search: '😀 '.repeat(600) } });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      assert.equal(res.body.total, 0);
    });

    it('ten words find an event holding them as one phrase, and not one holding each apart', async () => {
      const title = 'one two three four five six seven eight nine ten';
      const made = await srv().post('/events', {
        as: 'administrator',
        json: { title, start_date: '2030-02-02 10:00', end_date: '2030-02-02 11:00' },
      });
      assert.equal(made.status, 201, made.text);
      const apart = await srv().post('/events', {
        as: 'administrator',
        json: {
          title: 'ten nine eight seven six five four three two one',
          start_date: '2030-02-02 10:00',
          end_date: '2030-02-02 11:00',
        },
      });
      assert.equal(apart.status, 201, apart.text);
      const res = await srv().get('/events', {
        query: { search: title, start_date: '2030-01-01', end_date: '2030-12-31' },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.events.map((e: { id: number }) => e.id),
        [made.body.id],
      );
      const nine = await srv().get('/events', {
        query: {
          search: 'one two three four five six seven eight nine',
          start_date: '2030-01-01',
          end_date: '2030-12-31',
        },
      });
      assert.equal(nine.body.total, 2);
    });

    it('a long emoji search of one word is 200 and finds nothing', async () => {
      const res = await srv().get('/events', { query: { search: '😀'.repeat(1000) } });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      assert.equal(res.body.total, 0);
    });

    it('a venue search of many distinct words is 400 rest_invalid_param on search', async () => {
      const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
      for (const path of ['/venues', '/organizers']) {
        const res = await srv().get(path, { query: { search: words } });
        expectRestError(res, 400, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.body.data.params), ['search']);
      }
    });

    it('a venue search repeating one word many times is one fragment: 200', async () => {
      const res = await srv().get('/venues', { query: { search: 'hall '.repeat(500) } });
      assert.equal(res.status, 200, res.text.slice(0, 300));
    });
  });

  describe('integers past the ID columns', () => {
    const huge = '99999999999';
    it('an event ID past the column range is 404 rest-event-not-found on read, update and delete', async () => {
      expectRestError(await srv().get(`/events/${huge}`), 404, 'rest-event-not-found');
      expectRestError(
        await srv().post(`/events/${huge}`, { as: 'administrator', json: { title: 'x' } }),
        404,
        'rest-event-not-found',
      );
      expectRestError(
        await srv().request('DELETE', `/events/${huge}`, { as: 'administrator' }),
        404,
        'rest-event-not-found',
      );
    });

    it('post_parent, include, venue, organizer, categories and tags past the range are 400 naming the parameter', async () => {
      for (const name of ['post_parent', 'include', 'venue', 'organizer', 'categories', 'tags']) {
        const res = await srv().get('/events', { query: { [name]: huge } });
        expectRestError(res, 400, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.body.data.params), [name], name);
      }
    });

    it('linked and term routes and their filters past the range answer 4xx', async () => {
      for (const path of [`/venues/${huge}`, `/organizers/${huge}`, `/categories/${huge}`, `/tags/${huge}`]) {
        const res = await srv().get(path);
        assert.equal(res.status, 400, `${path}: ${res.text}`);
        assert.equal(res.body.code, 'rest_invalid_param');
      }
      for (const [path, name] of [
        ['/venues', 'event'],
        ['/organizers', 'event'],
        ['/categories', 'event'],
        ['/categories', 'post'],
        ['/categories', 'parent'],
        ['/tags', 'include'],
        ['/categories', 'exclude'],
      ] as const) {
        const res = await srv().get(path, { query: { [name]: huge } });
        expectRestError(res, 400, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.body.data.params), [name], `${path} ${name}`);
      }
    });

    it('an author, image or linked ID past the range on a write is 400, nothing written', async () => {
      const counts = await tableCounts(srv());
      for (const [name, value] of [
        ['author', huge],
        ['image', huge],
        ['venue', huge],
        ['organizer', huge],
      ] as const) {
        const res = await srv().post('/events', {
          as: 'administrator',
          json: { title: 'Huge', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', [name]: value },
        });
        expectRestError(res, 400, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.body.data.params), [name], name);
      }
      assert.deepEqual(await tableCounts(srv()), counts);
    });

    it('a term ID past the range on a write links nothing, like any unknown term ID (wp_set_object_terms)', async () => {
      for (const name of ['categories', 'tags']) {
        const res = await srv().post('/events', {
          as: 'administrator',
          json: { title: 'Huge', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', [name]: [huge] },
        });
        assert.equal(res.status, 201, `${name}: ${res.text}`);
        assert.deepEqual(res.body[name], []);
      }
    });
  });

  describe('NUL bytes', () => {
    it('NUL in a by-slug path is a clean 400 or 404, never 500', async () => {
      for (const path of ['/events/by-slug/a%00b', '/venues/by-slug/a%00b', '/organizers/by-slug/%00']) {
        const res = await srv().get(path);
        assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status} ${res.text}`);
      }
    });

    it('NUL inside text fields is dropped before storage', async () => {
      const res = await srv().post('/events', {
        as: 'administrator',
        json: {
          title: 'Nu\u0000ll',
          description: 'a\u0000b',
          slug: 'nu\u0000ll-slug',
          start_date: '2030-01-01 10:00',
          end_date: '2030-01-01 11:00',
        },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.title, 'Null');
      assert.equal(res.body.slug, 'null-slug');
      const venue = await srv().post('/venues', {
        as: 'administrator',
        form: { venue: 'Ve\u0000nue', city: 'Ro\u0000me' },
      });
      assert.equal(venue.status, 201, venue.text);
      assert.equal(venue.body.venue, 'Venue');
      assert.equal(venue.body.city, 'Rome');
      const term = await srv().post('/tags', { as: 'administrator', json: { name: 'T\u0000ag', slug: 'ta\u0000g' } });
      assert.equal(term.status, 201, term.text);
      assert.equal(term.body.name, 'Tag');
    });

    it('NUL in a query key or value is dropped', async () => {
      const res = await srv().get('/events', {
        query: { 'sea\u0000rch': 'Pla\u0000in', start_date: '2030-01-01', end_date: '2030-12-31' },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.events.map((e: { title: string }) => e.title),
        ['Plain evening'],
      );
    });

    it('the event made before still reads', async () => {
      assert.equal((await srv().get(`/events/${eventId}`)).status, 200);
    });
  });
});
