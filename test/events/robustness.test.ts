import { it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/server.js';
import { daysFromNow, makeEvent, tableCounts } from './helpers.js';

const hostile: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  '0',
  'x'.repeat(5000),
  '%',
  '%%20',
  "'; drop table posts; --",
  '日本語',
  '\u0000',
  [],
  [[]],
  {},
  { a: { b: 1 } },
  ['a', 1, null],
  '1,,2',
  '-5',
  '9999999999999999999999',
];

forEachBackend('events: hostile input never gives a 500', (srv) => {
  it('every list parameter, alone', async () => {
    const names = [
      'page',
      'per_page',
      'start_date',
      'end_date',
      'starts_before',
      'starts_after',
      'ends_before',
      'ends_after',
      'strict_dates',
      'search',
      'categories',
      'tags',
      'venue',
      'organizer',
      'featured',
      'status',
      'geoloc',
      'geoloc_lat',
      'geoloc_lng',
      'geoloc_radius',
      'include',
      'post_parent',
      'ticketed',
      'password',
      'context',
    ];
    for (const name of names) {
      for (const value of hostile) {
        if (typeof value === 'object' && value !== null) continue;
        const res = await srv().get('/events', { as: 'editor', query: { [name]: String(value) } });
        assert.ok(res.status < 500, `${name}=${String(value).slice(0, 40)}: ${res.status} ${res.text.slice(0, 200)}`);
      }
      const arr = await srv().get(`/events?${name}[]=1&${name}[]=x&${name}[a]=2`, { as: 'editor' });
      assert.ok(arr.status < 500, `${name} as array: ${arr.status} ${arr.text.slice(0, 200)}`);
    }
  });

  it('every write field, alone, on create and update, leaving nothing behind when refused', async () => {
    const e = await makeEvent(srv());
    const names = [
      'author',
      'date',
      'date_utc',
      'title',
      'description',
      'slug',
      'excerpt',
      'status',
      'timezone',
      'all_day',
      'start_date',
      'end_date',
      'image',
      'cost',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'categories',
      'tags',
      'venue',
      'organizer',
      'post_password',
      'password',
      'id',
    ];
    for (const name of names) {
      for (const value of hostile) {
        const before = await tableCounts(srv());
        const create = await srv().post('/events', {
          as: 'editor',
          json: { title: 'h', start_date: daysFromNow(1), end_date: daysFromNow(1), [name]: value },
        });
        assert.ok(
          create.status < 500,
          `create ${name}=${JSON.stringify(value)?.slice(0, 40)}: ${create.status} ${create.text.slice(0, 200)}`,
        );
        if (create.status >= 400)
          assert.deepEqual(
            await tableCounts(srv()),
            before,
            `create ${name}=${JSON.stringify(value)?.slice(0, 40)} left rows behind`,
          );
        const update = await srv().request('PATCH', `/events/${e.id}`, { as: 'editor', json: { [name]: value } });
        assert.ok(
          update.status < 500,
          `update ${name}=${JSON.stringify(value)?.slice(0, 40)}: ${update.status} ${update.text.slice(0, 200)}`,
        );
      }
    }
  });

  it('hostile slugs and IDs in paths', async () => {
    for (const path of [
      '/events/99999999999999999999',
      '/events/by-slug/%',
      '/events/by-slug/%E0%A4%A',
      '/events/by-slug/' + 'a'.repeat(3000),
      '/events/by-slug/..%2F..',
    ]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await srv().request(method, path, {
          as: 'editor',
          json: method === 'POST' ? { title: 'x' } : undefined,
        });
        assert.ok(res.status < 500, `${method} ${path.slice(0, 60)}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
  });
});
