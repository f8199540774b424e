import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeSetting } from '../../src/settings.js';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { soon } from '../docs/support.js';

const NO_ROUTE = 'No route was found matching the URL and request method.';

/** The `rest_api_enabled` setting: TEC's "REST API disabled" option (decisions.md, "Site settings"). */
forEachBackend('rest_api_enabled', (srv) => {
  const records: Record<string, any> = {};
  /** Namespace paths, relative to the namespace root, one per route family. */
  const paths = () => [
    '',
    '/',
    '/doc',
    '/events',
    `/events/${records.event.id}`,
    '/events/by-slug/switch-night',
    '/venues',
    `/venues/${records.venue.id}`,
    '/organizers',
    `/organizers/${records.organizer.id}`,
    '/categories',
    `/categories/${records.category.id}`,
    '/tags',
    `/tags/${records.tag.id}`,
  ];
  /** Site pages with their `X-TEC-API-ROOT` when the API is on (common.md 2.5). */
  const pages = () => [
    { path: '/', apiRoot: `${srv().root}/` },
    { path: '/event/switch-night/', apiRoot: `${srv().root}/events/${records.event.id}` },
    { path: '/events/category/switch-music/', apiRoot: `${srv().root}/events/?categories=switch-music` },
    { path: '/tag/switch-tag/', apiRoot: `${srv().root}/events/?tags=switch-tag` },
    { path: `/venue/switch-room/`, apiRoot: `${srv().root}/events/?venue=${records.venue.id}` },
  ];
  const countPosts = async () =>
    Number(
      (
        await srv()
          .db.selectFrom('posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  function expectUnregistered(res: TestResponse, what: string) {
    expectRestError(res, 404, 'rest_no_route', NO_ROUTE);
    // WordPress sends no Allow header when no route matched (common.md 1.7).
    assert.equal(res.headers.get('allow'), null, what);
    assert.equal(res.headers.get('x-tec-total'), null, what);
  }

  before(async () => {
    const create = async (path: string, json: Record<string, unknown>) => {
      const res = await srv().post(path, { as: 'administrator', json });
      assert.equal(res.status, 201, `${path}: ${res.text}`);
      return res.body;
    };
    records.venue = await create('/venues', { venue: 'Switch Room', status: 'publish' });
    records.organizer = await create('/organizers', { organizer: 'Switch Society', status: 'publish' });
    records.category = await create('/categories', { name: 'Switch Music' });
    records.tag = await create('/tags', { name: 'Switch Tag' });
    records.event = await create('/events', {
      title: 'Switch Night',
      start_date: soon(20, 20),
      end_date: soon(20, 22),
      status: 'publish',
      venue: records.venue.id,
      organizer: [records.organizer.id],
      categories: [records.category.id],
      tags: [records.tag.id],
    });
  });

  describe('on (the default)', () => {
    it('is on by default: the namespace answers and site pages advertise it', async () => {
      for (const path of paths()) {
        const res = await srv().get(path);
        assert.equal(res.status, 200, `${path}: ${res.text}`);
      }
      const index = await srv().get(`${srv().origin}/wp-json/`);
      assert.deepEqual(index.body.namespaces, ['calendar/events/v1']);
      assert.ok(Object.keys(index.body.routes).includes('/calendar/events/v1/events'));
      for (const { path, apiRoot } of pages()) {
        const res = await srv().get(`${srv().origin}${path}`);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get('x-tec-api-version'), 'v1', path);
        assert.equal(res.headers.get('x-tec-api-root'), apiRoot, path);
        assert.equal(res.headers.get('x-tec-api-origin'), srv().config.siteUrl, path);
      }
    });

    it('the setting accepts on/off values only', async () => {
      await assert.rejects(srv().setSetting('rest_api_enabled', 'maybe'), /must be on or off/);
    });
  });

  describe('off', () => {
    before(async () => {
      await srv().setSetting('rest_api_enabled', 'off');
    });
    after(async () => {
      await srv().setSetting('rest_api_enabled', 'on');
    });

    it('every namespace route answers 404 rest_no_route, for every caller and method', async () => {
      for (const path of paths()) {
        expectUnregistered(await srv().get(path), `GET ${path}`);
        expectUnregistered(await srv().get(path, { as: 'administrator' }), `GET ${path} as administrator`);
        const head = await srv().request('HEAD', path);
        assert.equal(head.status, 404, `HEAD ${path}`);
        assert.equal(head.headers.get('allow'), null, `HEAD ${path}`);
      }
      for (const path of [`/events/${records.event.id}`, `/venues/${records.venue.id}`, `/tags/${records.tag.id}`]) {
        expectUnregistered(await srv().request('DELETE', path, { as: 'administrator' }), `DELETE ${path}`);
      }
    });

    it('writes answer 404 rest_no_route and nothing is written', async () => {
      const before = await countPosts();
      const writes: Array<[string, Record<string, unknown>]> = [
        ['/events', { title: 'Switched off', start_date: soon(21, 20), end_date: soon(21, 22) }],
        ['/venues', { venue: 'Switched off venue' }],
        ['/organizers', { organizer: 'Switched off organizer' }],
        [`/events/${records.event.id}`, { title: 'Renamed while off' }],
      ];
      for (const [path, json] of writes)
        expectUnregistered(await srv().post(path, { as: 'administrator', json }), `POST ${path}`);
      expectUnregistered(
        await srv().post('/tags', { as: 'administrator', json: { name: 'Switched off tag' } }),
        'POST /tags',
      );
      assert.equal(await countPosts(), before);
      const tag = await srv()
        .db.selectFrom('terms')
        .select('id')
        .where('name', '=', 'Switched off tag')
        .executeTakeFirst();
      assert.equal(tag, undefined);
      const event = await srv()
        .db.selectFrom('posts')
        .select('title')
        .where('id', '=', records.event.id)
        .executeTakeFirstOrThrow();
      assert.equal(event.title, 'Switch Night');
    });

    it('the language variants and ?rest_route= are unregistered too', async () => {
      expectUnregistered(await srv().get(`${srv().origin}/fr/wp-json/calendar/events/v1/events`), 'fr');
      expectUnregistered(await srv().get(`${srv().origin}/de/wp-json/calendar/events/v1`), 'de index');
      expectUnregistered(await srv().get(`${srv().origin}/?rest_route=/calendar/events/v1/events`), 'rest_route');
      expectUnregistered(await srv().get(`${srv().origin}/?rest_route=/calendar/events/v1/doc`), 'rest_route doc');
    });

    it('OPTIONS answers as on an unregistered path, without Allow', async () => {
      const unknown = await srv().request('OPTIONS', '/no-such-route');
      const res = await srv().request('OPTIONS', '/events');
      assert.equal(res.status, unknown.status);
      assert.deepEqual(res.body, unknown.body);
      assert.equal(res.headers.get('allow'), null);
    });

    it('a bad credential is still refused with 401 first', async () => {
      const bad = { authorization: `Basic ${Buffer.from('nobody:aaaa bbbb cccc dddd eeee ffff').toString('base64')}` };
      const res = await srv().get('/events', { headers: bad });
      assert.equal(res.status, 401, res.text);
    });

    it('the REST index root still answers, without the namespace', async () => {
      for (const url of [
        `${srv().origin}/wp-json/`,
        `${srv().origin}/wp-json`,
        `${srv().origin}/fr/wp-json/`,
        `${srv().origin}/?rest_route=/`,
      ]) {
        const res = await srv().get(url);
        assert.equal(res.status, 200, `${url}: ${res.text}`);
        assert.equal(res.body.name, 'Calendar Server', url);
        assert.equal(res.body.url, srv().config.siteUrl, url);
        assert.deepEqual(res.body.namespaces, [], url);
        assert.deepEqual(res.body.routes, {}, url);
        assert.deepEqual(res.body.authentication, {}, url);
      }
    });

    it('site pages send X-TEC-API-VERSION: disabled and no X-TEC-API-ROOT or X-TEC-API-ORIGIN, on GET and HEAD', async () => {
      for (const { path, apiRoot } of pages()) {
        for (const method of ['GET', 'HEAD']) {
          const res = await srv().request(method, `${srv().origin}${path}`);
          assert.equal(res.status, 200, `${method} ${path}: ${res.text}`);
          assert.equal(res.headers.get('x-tec-api-version'), 'disabled', `${method} ${path}`);
          assert.equal(res.headers.get('x-tec-api-root'), null, `${method} ${path}`);
          assert.equal(res.headers.get('x-tec-api-origin'), null, `${method} ${path}`);
          // The REST index root still answers, so its link stays.
          assert.equal(res.headers.get('link'), `<${srv().base}/>; rel="https://api.w.org/"`);
          if (method === 'GET')
            assert.equal(res.text.includes(apiRoot), false, `${path} body names the disabled API: ${res.text}`);
        }
      }
      const root = await srv().get(`${srv().origin}/`);
      assert.deepEqual(root.body, {
        name: 'Calendar Server',
        rest: `${srv().base}/`,
        reference: `${srv().config.siteUrl}/docs`,
      });
      const event = await srv().get(`${srv().origin}/event/switch-night/`);
      assert.deepEqual(event.body, { url: `${srv().config.siteUrl}/event/switch-night/` });
    });

    it('a page that does not exist is still a 404', async () => {
      expectRestError(await srv().get(`${srv().origin}/event/no-such-event/`), 404, 'rest_no_route');
    });
  });

  describe('switching on a running server', () => {
    it('is seen within a second both ways, and a cached answer does not mask it', async () => {
      // Warm the response cache and keep an ETag, as a revalidating client would.
      const warm = await srv().get('/events');
      assert.equal(warm.status, 200);
      const again = await srv().get('/events');
      const etag = again.headers.get('etag');
      assert.ok(etag);
      assert.equal((await srv().get('/events', { headers: { 'if-none-match': etag } })).status, 304);

      // Written behind the server's back, as the CLI does: no invalidation of its settings copy.
      await writeSetting(srv().db, 'rest_api_enabled', 'off');
      await new Promise((r) => setTimeout(r, 1000));
      expectUnregistered(await srv().get('/events'), 'cached list after off');
      expectUnregistered(await srv().get('/events', { headers: { 'if-none-match': etag } }), 'revalidation after off');
      assert.equal((await srv().get(`${srv().origin}/`)).headers.get('x-tec-api-version'), 'disabled');
      assert.deepEqual((await srv().get(`${srv().origin}/wp-json/`)).body.namespaces, []);

      await writeSetting(srv().db, 'rest_api_enabled', 'on');
      await new Promise((r) => setTimeout(r, 1000));
      const back = await srv().get('/events');
      assert.equal(back.status, 200, back.text);
      assert.deepEqual(
        back.body.events.map((e: any) => e.id),
        [records.event.id],
      );
      assert.equal(back.headers.get('x-tec-total'), '1');
      const site = await srv().get(`${srv().origin}/`);
      assert.equal(site.headers.get('x-tec-api-version'), 'v1');
      assert.equal(site.headers.get('x-tec-api-root'), `${srv().root}/`);
      assert.equal(site.headers.get('x-tec-api-origin'), srv().config.siteUrl);
      assert.deepEqual((await srv().get(`${srv().origin}/wp-json/`)).body.namespaces, ['calendar/events/v1']);
    });
  });
});
