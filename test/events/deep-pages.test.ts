import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { seedDataset } from '../../bench/dataset.js';
import { forEachBackend } from '../support/server.js';

// Pages past the first thousand events of a list narrowed by dates alone are found by their first
// start (events/list-planner.ts, `seekStart`): the same events, in the same order, as the pages
// before them, and as the list's order over the whole window gives them.
forEachBackend('GET /events deep pages', (srv) => {
  const anchor = DateTime.utc().startOf('day');
  const from = anchor.minus({ days: 800 }).toISODate()!;
  const to = anchor.plus({ days: 800 }).toISODate()!;
  let expected: number[] = [];

  before(async () => {
    await seedDataset(srv().db, { events: 2500, seed: 3, backend: srv().backend, anchor: anchor.toISODate()! });
    // The list's order (events.md 2.6) over the window, read from the tables: the site is in UTC.
    const rows = await srv()
      .db.selectFrom('events as e')
      .innerJoin('posts as p', 'p.id', 'e.post_id')
      .select('p.id')
      .where('p.status', '=', 'publish')
      .where('e.hide_from_listings', '=', 0)
      .where('e.utc_start_date', '>=', `${from} 00:00:00`)
      .where('e.utc_end_date', '<=', `${to} 23:59:59`)
      .orderBy('e.start_date')
      .orderBy('p.date')
      .orderBy('p.id')
      .execute();
    expected = rows.map((row) => Number(row.id));
  });

  it('every page, near either end, holds the events the order puts there, ties at its edges included', async () => {
    assert.ok(expected.length > 1500, `the window holds ${expected.length} events`);
    const perPage = 50;
    const pages = Math.ceil(expected.length / perPage);
    const read = async (page: number) => {
      const res = await srv().get('/events', { query: { start_date: from, end_date: to, per_page: perPage, page } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('x-wp-total'), String(expected.length));
      return (res.body.events as Array<{ id: number }>).map((event) => event.id);
    };
    for (const page of [1, 19, 20, 21, 22, Math.floor(pages / 2), Math.floor(pages / 2) + 1, pages - 1, pages])
      assert.deepEqual(await read(page), expected.slice((page - 1) * perPage, page * perPage), `page ${page}`);
    // Events starting at the same time as a deep page's first: the dataset's times are on quarter hours.
    const starts = await srv()
      .db.selectFrom('events')
      .select(['start_date'])
      .where('post_id', 'in', expected.slice(1000, 1100))
      .execute();
    assert.ok(new Set(starts.map((row) => row.start_date)).size < 100, 'ties among the deep events');
  });
});
