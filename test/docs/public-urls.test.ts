import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { soon } from './support.js';

forEachBackend('Discovery headers on public URLs', (srv) => {
  const records: Record<string, any> = {};

  /** Requests a public URL as a record's `url` field gives it, on the test server. */
  const visit = (url: string, method = 'GET') => srv().request(method, url.replace(srv().config.siteUrl, srv().origin));

  function expectHeaders(res: TestResponse, apiRoot: string) {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-tec-api-version'), 'v1');
    assert.equal(res.headers.get('x-tec-api-root'), apiRoot);
    assert.equal(res.headers.get('x-tec-api-origin'), srv().config.siteUrl);
    assert.equal(res.headers.get('link'), `<${srv().base}/>; rel="https://api.w.org/"`);
  }

  before(async () => {
    const create = async (path: string, json: Record<string, unknown>) => {
      const res = await srv().post(path, { as: 'administrator', json });
      assert.equal(res.status, 201, `${path}: ${res.text}`);
      return res.body;
    };
    records.venue = await create('/venues', { venue: 'Blue Room', status: 'publish' });
    records.organizer = await create('/organizers', { organizer: 'Jazz Society', status: 'publish' });
    records.music = await create('/categories', { name: 'Music' });
    records.jazz = await create('/categories', { name: 'Jazz', parent: records.music.id });
    records.tag = await create('/tags', { name: 'Late night' });
    records.event = await create('/events', {
      title: 'Jazz Night',
      start_date: soon(30, 20),
      end_date: soon(30, 23),
      status: 'publish',
      venue: records.venue.id,
      organizer: [records.organizer.id],
      categories: [records.jazz.id],
      tags: [records.tag.id],
    });
    records.draft = await create('/events', {
      title: 'Secret plans',
      start_date: soon(31, 20),
      end_date: soon(31, 21),
      status: 'draft',
      slug: 'secret-plans',
    });
    records.japanese = await create('/events', {
      title: '日本の祭り',
      start_date: soon(32, 20),
      end_date: soon(32, 21),
      status: 'publish',
    });
  });

  it('the site root advertises the namespace root on GET and HEAD', async () => {
    for (const method of ['GET', 'HEAD'])
      expectHeaders(await srv().request(method, `${srv().origin}/`), `${srv().root}/`);
    const root = await srv().get(`${srv().origin}/`);
    assert.deepEqual(root.body, {
      name: 'Calendar Server',
      rest: `${srv().base}/`,
      namespace: `${srv().root}/`,
      openapi: `${srv().root}/doc`,
      reference: `${srv().config.siteUrl}/docs`,
    });
  });

  it("an event's url answers with X-TEC-API-ROOT {root}/events/{id}, on GET and HEAD", async () => {
    assert.equal(records.event.url, `${srv().config.siteUrl}/event/jazz-night/`);
    const apiRoot = `${srv().root}/events/${records.event.id}`;
    const get = await visit(records.event.url);
    expectHeaders(get, apiRoot);
    assert.deepEqual(get.body, { url: records.event.url, rest_url: apiRoot });
    const head = await visit(records.event.url, 'HEAD');
    expectHeaders(head, apiRoot);
    assert.equal(head.text, '');
    // The advertised URL is the event itself.
    const followed = await srv().get(apiRoot);
    assert.equal(followed.body.id, records.event.id);
  });

  it("a venue's url answers with {root}/events/?venue={id}, and that URL lists the venue's events", async () => {
    const apiRoot = `${srv().root}/events/?venue=${records.venue.id}`;
    expectHeaders(await visit(records.venue.url), apiRoot);
    expectHeaders(await visit(records.venue.url, 'HEAD'), apiRoot);
    const listed = await srv().get(apiRoot);
    assert.deepEqual(
      listed.body.events.map((e: any) => e.id),
      [records.event.id],
    );
  });

  it("an organizer's url answers with {root}/events/?organizer={id}", async () => {
    const apiRoot = `${srv().root}/events/?organizer=${records.organizer.id}`;
    expectHeaders(await visit(records.organizer.url), apiRoot);
    const listed = await srv().get(apiRoot);
    assert.deepEqual(
      listed.body.events.map((e: any) => e.id),
      [records.event.id],
    );
  });

  it("a category's url, with its ancestors, answers with {root}/events/?categories={slug}", async () => {
    assert.equal(records.jazz.url, `${srv().config.siteUrl}/events/category/music/jazz/`);
    expectHeaders(await visit(records.jazz.url), `${srv().root}/events/?categories=jazz`);
    expectHeaders(await visit(records.music.url, 'HEAD'), `${srv().root}/events/?categories=music`);
    const listed = await srv().get(`${srv().root}/events/?categories=jazz`);
    assert.deepEqual(
      listed.body.events.map((e: any) => e.id),
      [records.event.id],
    );
  });

  it('a category path without its ancestors, or with wrong ones, is 404', async () => {
    expectRestError(await visit(`${srv().config.siteUrl}/events/category/jazz/`), 404, 'rest_no_route');
    expectRestError(await visit(`${srv().config.siteUrl}/events/category/late-night/jazz/`), 404, 'rest_no_route');
    expectRestError(await visit(`${srv().config.siteUrl}/events/category/jazz/music/`), 404, 'rest_no_route');
    expectRestError(await visit(`${srv().config.siteUrl}/events/category/other/music/jazz/`), 404, 'rest_no_route');
  });

  it("a tag's url answers with {root}/events/?tags={slug}", async () => {
    assert.equal(records.tag.url, `${srv().config.siteUrl}/tag/late-night/`);
    expectHeaders(await visit(records.tag.url), `${srv().root}/events/?tags=late-night`);
    expectHeaders(await visit(records.tag.url, 'HEAD'), `${srv().root}/events/?tags=late-night`);
  });

  it('the trailing slash is optional', async () => {
    expectHeaders(await visit(records.event.url.replace(/\/$/, '')), `${srv().root}/events/${records.event.id}`);
  });

  it('a percent-encoded slug is found as its url spells it', async () => {
    assert.match(records.japanese.url, /\/event\/%[0-9a-f]{2}/);
    expectHeaders(await visit(records.japanese.url), `${srv().root}/events/${records.japanese.id}`);
  });

  it('unknown slugs are 404 rest_no_route, on GET and HEAD', async () => {
    for (const path of [
      '/event/no-such-event/',
      '/venue/no-such-venue/',
      '/organizer/nobody/',
      '/events/category/none/',
      '/tag/none/',
    ]) {
      const res = await visit(`${srv().config.siteUrl}${path}`);
      expectRestError(res, 404, 'rest_no_route');
      assert.equal(res.headers.get('x-tec-api-root'), null);
      assert.equal((await visit(`${srv().config.siteUrl}${path}`, 'HEAD')).status, 404);
    }
  });

  it('a record without a public page (draft, trashed) is 404', async () => {
    expectRestError(await visit(records.draft.url), 404, 'rest_no_route');
    const venue = (
      await srv().post('/venues', { as: 'administrator', json: { venue: 'Closed Hall', status: 'publish' } })
    ).body;
    expectHeaders(await visit(venue.url), `${srv().root}/events/?venue=${venue.id}`);
    assert.equal((await srv().request('DELETE', `/venues/${venue.id}`, { as: 'administrator' })).status, 200);
    expectRestError(await visit(venue.url), 404, 'rest_no_route');
  });

  it('a scheduled record gets its public page once its publication time has passed', async () => {
    const res = await srv().post('/events', {
      as: 'administrator',
      json: {
        title: 'Later on',
        start_date: soon(40, 20),
        end_date: soon(40, 21),
        status: 'future',
        date: soon(2, 12),
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, 'future');
    expectRestError(await visit(res.body.url), 404, 'rest_no_route');
    await srv()
      .db.updateTable('posts')
      .set({ date_utc: '2001-01-01 00:00:00' })
      .where('id', '=', res.body.id)
      .execute();
    expectHeaders(await visit(res.body.url), `${srv().root}/events/${res.body.id}`);
  });

  it('other methods on a public URL get the reference answers: OPTIONS [] and POST 404', async () => {
    const options = await visit(records.event.url, 'OPTIONS');
    assert.equal(options.status, 200);
    assert.deepEqual(options.body, []);
    expectRestError(await visit(records.event.url, 'POST'), 404, 'rest_no_route');
  });
});
