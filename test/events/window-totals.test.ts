import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Role } from '../../src/auth/roles.js';
import { forEachBackend, type TestServer } from '../support/server.js';
import { makeEvent } from './helpers.js';

// A list filtered by dates alone (and `featured`, and a visibility by status) takes its total
// from per-day counts kept by triggers (migration 08), with the days a bound cuts through counted
// event by event. Whatever the window, the total must be the number of events the list shows,
// before and after every kind of write that moves an event in or out of it.

const WINDOWS: Array<Record<string, string>> = [
  { start_date: '2031-03-01', end_date: '2031-03-06' },
  { start_date: '2031-03-02', end_date: '2031-03-03' },
  { start_date: '2031-03-02 12:00:00', end_date: '2031-03-04 06:00:00', strict_dates: 'true' },
  { starts_after: '2031-03-02', ends_before: '2031-03-05' },
  { starts_before: '2031-03-03 13:00:00', ends_after: '2031-03-02 08:00:00', strict_dates: 'true' },
  { start_date: '2031-03-01', end_date: '2031-03-06', featured: '1' },
  { start_date: '2031-03-01', end_date: '2031-03-06', featured: '0' },
  { starts_after: '2031-03-03 23:59:59', ends_before: '2031-03-07', strict_dates: 'true' },
  { ends_before: '2031-03-04', ends_after: '2031-02-28' },
  { start_date: '2031-03-03 23:30:00', end_date: '2031-03-05 11:00:00', strict_dates: 'true', featured: '0' },
];

/** Total (body and header) and the events the list shows, for one window. */
async function windowOf(srv: TestServer, query: Record<string, string>, as?: Role) {
  const res = await srv.get('/events', { query: { ...query, per_page: 50 }, as });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-tec-total'), String(res.body.total));
  return { total: res.body.total as number, titles: (res.body.events as Array<{ title: string }>).map((e) => e.title) };
}

/** Every window's total equals the number of events it lists, for a visitor and for an administrator. */
async function assertTotalsMatchLists(srv: TestServer) {
  for (const as of [undefined, 'administrator'] as const) {
    for (const query of WINDOWS) {
      const { total, titles } = await windowOf(srv, query, as);
      assert.equal(
        total,
        titles.length,
        `${JSON.stringify(query)} as ${as ?? 'visitor'}: total ${total}, listed ${titles.join(', ')}`,
      );
    }
  }
}

async function makeWeek(srv: TestServer) {
  const make = (title: string, start: string, end: string, fields: Record<string, unknown> = {}) =>
    makeEvent(srv, { title, start_date: `2031-03-${start}`, end_date: `2031-03-${end}`, status: 'publish', ...fields });
  return {
    a: await make('a', '01 09:00:00', '01 10:00:00'),
    b: await make('b spans midnight', '01 22:00:00', '02 02:00:00'),
    c: await make('c all day', '02', '02', { all_day: true }),
    d: await make('d featured', '02 12:00:00', '02 13:00:00', { featured: true }),
    e: await make('e three days', '03 13:00:00', '05 11:00:00'),
    f: await make('f late', '03 23:30:00', '04 00:30:00'),
    g: await make('g featured', '04 06:00:00', '04 07:00:00', { featured: true }),
    h: await make('h', '05 10:00:00', '05 12:00:00'),
    i: await make('i at midnight', '06 00:00:00', '06 01:00:00'),
    j: await make('j draft', '04 08:00:00', '04 09:00:00', { status: 'draft' }),
    k: await make('k private', '04 09:00:00', '04 10:00:00', { status: 'private' }),
    l: await make('l hidden', '03 08:00:00', '03 09:00:00', { hide_from_listings: true }),
    m: await make('m in Tokyo', '02 20:00:00', '02 22:00:00', { timezone: 'Asia/Tokyo' }),
    n: await make('n until the last second', '05 23:00:00', '05 23:59:59'),
  };
}

/** Moves events in and out of the windows by every kind of write. */
async function rewriteWeek(srv: TestServer, week: Awaited<ReturnType<typeof makeWeek>>) {
  const update = async (id: number, json: Record<string, unknown>) =>
    assert.equal((await srv.post(`/events/${id}`, { as: 'administrator', json })).status, 200);
  await update(week.a.id, { start_date: '2031-03-03 09:00:00', end_date: '2031-03-03 10:00:00' });
  await update(week.d.id, { featured: false });
  await update(week.h.id, { status: 'draft' });
  await update(week.g.id, { hide_from_listings: true });
  await update(week.j.id, { status: 'publish' });
  await update(week.e.id, { end_date: '2031-03-09 11:00:00' });
  assert.equal((await srv.request('DELETE', `/events/${week.i.id}`, { as: 'administrator' })).status, 200);
}

forEachBackend('GET /events totals over date windows', (srv) => {
  it('equal the events listed, for every bound that falls on or inside a day, before and after writes', async () => {
    const week = await makeWeek(srv());
    const whole = WINDOWS[0]!;
    assert.deepEqual((await windowOf(srv(), whole)).titles, [
      'a',
      'b spans midnight',
      'c all day',
      'd featured',
      'm in Tokyo',
      'e three days',
      'f late',
      'g featured',
      'h',
      'n until the last second',
      'i at midnight',
    ]);
    assert.equal((await windowOf(srv(), whole)).total, 11);
    assert.equal((await windowOf(srv(), whole, 'administrator')).total, 13);
    assert.equal((await windowOf(srv(), WINDOWS[5]!)).total, 2);
    await assertTotalsMatchLists(srv());

    await rewriteWeek(srv(), week);
    // a moved within the window, e now ends after it, h is a draft, g hidden, i trashed, j published.
    assert.equal((await windowOf(srv(), whole)).total, 8);
    assert.equal((await windowOf(srv(), WINDOWS[5]!)).total, 0);
    await assertTotalsMatchLists(srv());
  });
});

forEachBackend('GET /events totals over date windows on a New York site', (srv) => {
  it('compare each event’s own wall clock and still equal the events listed', async () => {
    await srv().setSetting('timezone', 'America/New_York');
    const week = await makeWeek(srv());
    assert.equal((await windowOf(srv(), WINDOWS[0]!)).total, 11);
    await assertTotalsMatchLists(srv());
    await rewriteWeek(srv(), week);
    assert.equal((await windowOf(srv(), WINDOWS[0]!)).total, 8);
    await assertTotalsMatchLists(srv());
  });
});
