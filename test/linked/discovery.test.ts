import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/server.js';

const NS = '/calendar/events/v1';

forEachBackend('venues and organizers in discovery (common.md 1.2, 2.1.1)', (srv) => {
  describe('GET / (namespace index)', () => {
    it('registers the six routes after the events routes and before the categories, in order', async () => {
      const res = await srv().get('/');
      const keys = Object.keys(res.body.routes);
      const order = [
        `${NS}/events/by-slug/(?P<slug>[^/]+)`,
        `${NS}/venues`,
        `${NS}/venues/(?P<id>\\d+)`,
        `${NS}/venues/by-slug/(?P<slug>[^/]+)`,
        `${NS}/organizers`,
        `${NS}/organizers/(?P<id>\\d+)`,
        `${NS}/organizers/by-slug/(?P<slug>[^/]+)`,
        `${NS}/categories`,
      ];
      const positions = order.map((k) => keys.indexOf(k));
      assert.ok(
        positions.every((p) => p >= 0),
        JSON.stringify(keys),
      );
      assert.deepEqual(
        [...positions].sort((a, b) => a - b),
        positions,
      );
      assert.equal(positions[1], positions[0]! + 1);
    });

    it('shows the list, create and single endpoints with the reference arguments in order', async () => {
      const res = await srv().get('/');
      const venues = res.body.routes[`${NS}/venues`];
      assert.deepEqual(venues.methods, ['GET', 'POST']);
      const [list, create] = venues.endpoints;
      assert.deepEqual(Object.keys(list.args), [
        'page',
        'per_page',
        'search',
        'event',
        'has_events',
        'only_with_upcoming',
        'status',
        // This service's own, after the reference's.
        'modified_after',
        'modified_before',
        'orderby',
      ]);
      assert.equal(list.args.page.default, 1);
      assert.equal(list.args.per_page.default, 10);
      assert.equal(list.args.only_with_upcoming.default, false);
      assert.deepEqual(Object.keys(create.args), [
        'author',
        'date',
        'date_utc',
        'venue',
        'description',
        'status',
        'show_map',
        'show_map_link',
        'address',
        'city',
        'country',
        'province',
        'state',
        'zip',
        'phone',
        'website',
        'stateprovince',
        'image',
        'geo_lat',
        'geo_lng',
      ]);
      assert.equal(create.args.venue.required, true);
      assert.equal(create.args.description.default, null);
      assert.equal('default' in create.args.author, false);
      const organizers = res.body.routes[`${NS}/organizers`].endpoints[1].args;
      assert.deepEqual(Object.keys(organizers), [
        'author',
        'date',
        'date_utc',
        'organizer',
        'description',
        'status',
        'phone',
        'website',
        'email',
        'image',
      ]);
      assert.equal(organizers.organizer.required, true);
      assert.equal(organizers.organizer.default, null);
      const single = res.body.routes[`${NS}/organizers/(?P<id>\\d+)`];
      assert.deepEqual(single.methods, ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      assert.deepEqual(Object.keys(single.endpoints[0].args), ['id']);
      assert.equal(single.endpoints[2].args.id.required, true);
      assert.equal(single.endpoints[2].args.organizer.required, false);
      const bySlug = res.body.routes[`${NS}/venues/by-slug/(?P<slug>[^/]+)`];
      assert.equal(bySlug.endpoints[2].args.slug.required, true);
    });
  });

  describe('GET /doc', () => {
    it('documents the venue and organizer paths', async () => {
      const res = await srv().get('/doc');
      assert.equal(res.status, 200);
      for (const path of [
        '/venues',
        '/venues/{id}',
        '/venues/by-slug/{slug}',
        '/organizers',
        '/organizers/{id}',
        '/organizers/by-slug/{slug}',
      ]) {
        assert.ok(res.body.paths[path], path);
      }
      assert.ok(res.body.paths['/venues'].post.responses['201']);
    });
  });
});
