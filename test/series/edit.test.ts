import { it } from 'node:test';
import assert from 'node:assert/strict';
import { purgeTrash } from '../../src/resources/post-like/trash.js';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';
import { WIDE, makeSeries, occurrences, seriesCounts } from './support.js';

/** The total a list answers (a cached read when nothing was written since the same request). */
async function total(srv: TestServer, query: Record<string, string | number>, as?: 'administrator') {
  const res = await srv.get('/events', { query: { ...WIDE, per_page: 1, ...query }, as });
  assert.ok(res.status === 200 || res.status === 404, res.text);
  return Number(res.headers.get('x-wp-total') ?? 0);
}

const weekly = (title: string, count = 6, extra: Record<string, unknown> = {}) => ({
  title,
  timezone: 'Europe/Paris',
  start_date: '2027-09-06 10:00:00',
  end_date: '2027-09-06 11:00:00',
  recurrence: { rrule: `FREQ=WEEKLY;COUNT=${count}` },
  ...extra,
});

forEachBackend('Editing a series', (srv) => {
  it('scope=all on the first event changes every occurrence; lists, search and cached totals follow', async () => {
    const parent = await makeSeries(srv(), weekly('Zebra walk', 6, { categories: 'Walks' }));
    const before = await occurrences(srv(), parent.id);
    assert.equal(await total(srv(), { search: 'zebra' }), 6);
    assert.equal(await total(srv(), { search: 'zebra' }), 6, 'the cached read');
    const res = await srv().post(`/events/${parent.id}`, {
      as: 'administrator',
      json: {
        title: 'Yak walk',
        start_date: '2027-09-06 11:30:00',
        end_date: '2027-09-06 13:00:00',
        categories: 'Hikes',
      },
    });
    assert.equal(res.status, 200, res.text);
    const after = await occurrences(srv(), parent.id);
    assert.deepEqual(
      after.map((e) => e.id),
      before.map((e) => e.id),
      'the occurrences are kept, not replaced',
    );
    for (const e of after) {
      assert.equal(e.title, 'Yak walk');
      assert.equal(e.start_date.slice(11), '11:30:00');
      assert.equal(e.end_date.slice(11), '13:00:00');
      assert.deepEqual(
        e.categories.map((c: any) => c.name),
        ['Hikes'],
      );
    }
    assert.equal(after.at(-1).utc_start_date, '2027-10-11 09:30:00');
    assert.equal(await total(srv(), { search: 'zebra' }), 0);
    assert.equal(await total(srv(), { search: 'yak' }), 6);
    const walks = await srv().get('/categories', { query: { search: 'Walks', hide_empty: 'false' } });
    assert.equal(walks.body.categories[0].count, 0);
    const hikes = await srv().get('/categories', { query: { search: 'Hikes' } });
    assert.equal(hikes.body.categories[0].count, 6);
  });

  it('a new time zone keeps the wall clocks and moves every occurrence in UTC', async () => {
    const parent = await makeSeries(srv(), weekly('Zone change', 3));
    const res = await srv().post(`/events/${parent.id}`, {
      as: 'administrator',
      json: { timezone: 'America/New_York' },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      (await occurrences(srv(), parent.id)).map((e) => [e.timezone, e.start_date, e.utc_start_date]),
      [
        ['America/New_York', '2027-09-13 10:00:00', '2027-09-13 14:00:00'],
        ['America/New_York', '2027-09-20 10:00:00', '2027-09-20 14:00:00'],
      ],
    );
  });

  it('an event updated with a rule becomes a series; an occurrence alone takes no rule', async () => {
    const created = await srv().post('/events', {
      as: 'administrator',
      json: { title: 'Becomes a series', start_date: '2027-09-06 10:00:00', end_date: '2027-09-06 11:00:00' },
    });
    const res = await srv().post(`/events/${created.body.id}`, {
      as: 'administrator',
      json: { recurrence: { rrule: 'FREQ=DAILY;COUNT=3' } },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.recurrence.rrule, 'FREQ=DAILY;COUNT=3');
    const [first] = await occurrences(srv(), created.body.id);
    assert.equal(first.start_date, '2027-09-07 10:00:00');
    const before = await seriesCounts(srv());
    const refused = await srv().post(`/events/${first.id}`, {
      as: 'administrator',
      json: { title: 'Not saved', recurrence: { rrule: 'FREQ=WEEKLY' } },
    });
    expectRestError(refused, 400, 'rest_invalid_param');
    assert.match(refused.body.data.details.recurrence.message, /scope=following/);
    assert.deepEqual(await seriesCounts(srv()), before);
    assert.equal((await srv().get(`/events/${first.id}`)).body.title, 'Becomes a series');
  });

  it('a new rule removes and adds occurrences by day, and the day totals follow', async () => {
    const parent = await makeSeries(srv(), weekly('Rule change'));
    const window = { start_date: '2027-09-01', end_date: '2027-10-31', search: 'Rule change' };
    assert.equal(await total(srv(), window), 6);
    const kept = await occurrences(srv(), parent.id);
    const res = await srv().post(`/events/${parent.id}`, {
      as: 'administrator',
      json: { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=5' } },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=5');
    const now = await occurrences(srv(), parent.id);
    assert.deepEqual(
      now.map((e) => e.start_date.slice(0, 10)),
      ['2027-09-08', '2027-09-13', '2027-09-15', '2027-09-20'],
    );
    assert.equal(now[1].id, kept[0].id, 'Monday 13 September is the same event');
    assert.equal(await total(srv(), window), 5);
  });

  it('an occurrence updated alone is detached and later series edits leave it alone', async () => {
    const parent = await makeSeries(srv(), weekly('Detach me'));
    const [first, second] = await occurrences(srv(), parent.id);
    const alone = await srv().post(`/events/${second.id}`, { as: 'administrator', json: { title: 'Special edition' } });
    assert.equal(alone.status, 200, alone.text);
    assert.equal(alone.body.series.detached, true);
    await srv().post(`/events/${parent.id}`, { as: 'administrator', json: { title: 'Renamed series' } });
    const list = await occurrences(srv(), parent.id);
    assert.equal(list.find((e) => e.id === first.id).title, 'Renamed series');
    assert.equal(list.find((e) => e.id === second.id).title, 'Special edition');
    assert.equal(list.length, 5);
  });

  it('scope=all on an occurrence edits the series through its first event', async () => {
    const parent = await makeSeries(srv(), weekly('Through an occurrence'));
    const [, , third] = await occurrences(srv(), parent.id);
    const res = await srv().post(`/events/${third.id}`, {
      as: 'administrator',
      query: { scope: 'all' },
      json: { featured: true },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.series.detached, false);
    const read = await srv().get(`/events/${parent.id}`);
    assert.equal(read.body.featured, true);
    assert.ok((await occurrences(srv(), parent.id)).every((e) => e.featured === true));
  });

  it('scope=following splits the series into a new one led by that occurrence', async () => {
    const parent = await makeSeries(srv(), weekly('Split me', 6));
    const list = await occurrences(srv(), parent.id);
    const at = list[1]; // the third event of the series
    const res = await srv().post(`/events/${at.id}`, {
      as: 'administrator',
      query: { scope: 'following' },
      json: { title: 'Split me later' },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.recurrence, { rrule: 'FREQ=WEEKLY;COUNT=4', rdates: [], exdates: [] });
    assert.equal(res.body.series, undefined);
    const head = await srv().get(`/events/${parent.id}`);
    assert.equal(head.body.recurrence.rrule, 'FREQ=WEEKLY;COUNT=2');
    assert.equal(head.body.title, 'Split me');
    assert.deepEqual(
      (await occurrences(srv(), parent.id)).map((e) => e.id),
      [list[0].id],
    );
    const tail = await occurrences(srv(), at.id);
    assert.deepEqual(
      tail.map((e) => e.id),
      list.slice(2).map((e) => e.id),
    );
    for (const e of tail) {
      assert.equal(e.title, 'Split me later');
      assert.equal(e.series.id, at.id);
    }
    assert.equal(await total(srv(), { search: 'Split me later' }), 4);
  });

  it('an endless series split keeps an UNTIL just before the occurrence', async () => {
    const parent = await makeSeries(srv(), {
      ...weekly('Endless split'),
      recurrence: { rrule: 'FREQ=WEEKLY' },
    });
    const [, second] = await occurrences(srv(), parent.id);
    const res = await srv().post(`/events/${second.id}`, {
      as: 'administrator',
      query: { scope: 'following' },
      json: { description: 'From the third week' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.recurrence.rrule, 'FREQ=WEEKLY');
    const head = await srv().get(`/events/${parent.id}`);
    assert.equal(head.body.recurrence.rrule, 'FREQ=WEEKLY;UNTIL=20270920T075959Z');
    assert.equal((await occurrences(srv(), parent.id)).length, 1);
  });

  it('an edit that would exceed the cap is refused and changes nothing', async () => {
    const parent = await makeSeries(srv(), weekly('Capped edit'));
    const before = await seriesCounts(srv());
    const res = await srv().post(`/events/${parent.id}`, {
      as: 'administrator',
      json: { title: 'Never saved', recurrence: { rrule: 'FREQ=DAILY;COUNT=5000' } },
    });
    expectRestError(res, 400, 'rest-event-series-too-long');
    assert.deepEqual(await seriesCounts(srv()), before);
    const read = await srv().get(`/events/${parent.id}`);
    assert.equal(read.body.title, 'Capped edit');
    assert.equal(read.body.recurrence.rrule, 'FREQ=WEEKLY;COUNT=6');
  });

  it('scope takes all or following on updates and only all on deletes', async () => {
    const parent = await makeSeries(srv(), weekly('Scopes'));
    const update = await srv().post(`/events/${parent.id}`, {
      as: 'administrator',
      query: { scope: 'some' },
      json: { title: 'x' },
    });
    expectRestError(update, 400, 'rest_invalid_param');
    assert.ok('scope' in update.body.data.params);
    const del = await srv().request('DELETE', `/events/${parent.id}`, {
      as: 'administrator',
      query: { scope: 'following' },
    });
    expectRestError(del, 400, 'rest_invalid_param');
    assert.equal((await srv().get(`/events/${parent.id}`)).body.status, 'publish');
  });

  it('an author edits only their own series', async () => {
    const owner = await srv().user('author', 'series-owner');
    const other = await srv().user('author', 'series-other');
    const parent = await makeSeries(srv(), weekly('Owned series', 3, { status: 'publish' }), owner);
    const [occurrence] = await occurrences(srv(), parent.id);
    const before = await seriesCounts(srv());
    for (const [method, path, query] of [
      ['POST', `/events/${parent.id}`, {}],
      ['POST', `/events/${occurrence.id}`, { scope: 'all' }],
      ['DELETE', `/events/${parent.id}`, {}],
      ['DELETE', `/events/${occurrence.id}`, {}],
    ] as const) {
      const res = await srv().request(method, path, { as: other, query, json: { title: 'Taken over' } });
      expectRestError(res, 403, 'rest_forbidden');
    }
    assert.deepEqual(await seriesCounts(srv()), before);
    assert.ok((await occurrences(srv(), parent.id)).every((e) => e.title === 'Owned series'));
    const own = await srv().post(`/events/${parent.id}`, { as: owner, json: { title: 'Still mine' } });
    assert.equal(own.status, 200, own.text);
    assert.ok((await occurrences(srv(), parent.id)).every((e) => e.title === 'Still mine'));
  });
});

forEachBackend('Deleting and restoring a series', (srv) => {
  it('DELETE of an occurrence trashes it alone and adds its day to exdates; series edits never bring it back', async () => {
    const parent = await makeSeries(srv(), weekly('Skip a week'));
    const [, second] = await occurrences(srv(), parent.id);
    assert.equal(await total(srv(), { search: 'Skip a week' }), 6);
    assert.deepEqual((await srv().get(`/events/${parent.id}`)).body.recurrence.exdates, [], 'read, and cached');
    const res = await srv().request('DELETE', `/events/${second.id}`, { as: 'administrator' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'trash');
    assert.equal(await total(srv(), { search: 'Skip a week' }), 5);
    const read = await srv().get(`/events/${parent.id}`);
    assert.deepEqual(read.body.recurrence.exdates, ['2027-09-20']);
    await srv().post(`/events/${parent.id}`, { as: 'administrator', json: { title: 'Skip a week, renamed' } });
    const list = await occurrences(srv(), parent.id);
    assert.equal(list.length, 4);
    assert.ok(!list.some((e) => e.start_date.startsWith('2027-09-20')));
    const trashed = await srv().get(`/events/${second.id}`);
    expectRestError(trashed, 403, 'event-no-longer-available');
  });

  it('restoring an occurrence takes its day off exdates and keeps it detached', async () => {
    const parent = await makeSeries(srv(), weekly('Back again'));
    const [first] = await occurrences(srv(), parent.id);
    await srv().request('DELETE', `/events/${first.id}`, { as: 'administrator' });
    const res = await srv().post(`/events/${first.id}`, { as: 'administrator', json: { status: 'publish' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.slug, first.slug);
    assert.equal(res.body.series.detached, true);
    assert.deepEqual((await srv().get(`/events/${parent.id}`)).body.recurrence.exdates, []);
    assert.equal((await occurrences(srv(), parent.id)).length, 5);
  });

  it('DELETE of the first event trashes the whole series; restoring it restores them', async () => {
    const parent = await makeSeries(srv(), weekly('Whole series'));
    const list = await occurrences(srv(), parent.id);
    const alone = list[3];
    await srv().request('DELETE', `/events/${alone.id}`, { as: 'administrator' });
    assert.equal(await total(srv(), { search: 'Whole series' }), 5);
    const res = await srv().request('DELETE', `/events/${parent.id}`, { as: 'administrator' });
    assert.equal(res.status, 200, res.text);
    assert.equal(await total(srv(), { search: 'Whole series' }), 0);
    assert.equal(
      await total(srv(), { search: 'Whole series', status: 'trash', post_parent: parent.id }, 'administrator'),
      5,
      'every occurrence is in the trash',
    );
    const again = await srv().request('DELETE', `/events/${list[0].id}`, {
      as: 'administrator',
      query: { scope: 'all' },
    });
    expectRestError(again, 410, 'event-is-in-trash');

    const restored = await srv().post(`/events/${parent.id}`, { as: 'administrator', json: { status: 'publish' } });
    assert.equal(restored.status, 200, restored.text);
    assert.equal(await total(srv(), { search: 'Whole series' }), 5, 'the one trashed alone stays in the trash');
    const back = await occurrences(srv(), parent.id);
    assert.deepEqual(
      back.map((e) => e.slug),
      list.filter((e) => e.id !== alone.id).map((e) => e.slug),
    );
  });

  it('DELETE of an occurrence with scope=all trashes the whole series', async () => {
    const parent = await makeSeries(srv(), weekly('Via occurrence'));
    const [first] = await occurrences(srv(), parent.id);
    const res = await srv().request('DELETE', `/events/${first.id}`, { as: 'administrator', query: { scope: 'all' } });
    assert.equal(res.status, 200, res.text);
    expectRestError(await srv().get(`/events/${parent.id}`), 403, 'event-no-longer-available');
    assert.equal(await total(srv(), { search: 'Via occurrence' }), 0);
  });

  it('purging the trash removes a trashed series with its rule and memberships', async () => {
    const parent = await makeSeries(srv(), weekly('Purged series', 4));
    const kept = await makeSeries(srv(), weekly('Kept series', 3));
    await srv().request('DELETE', `/events/${parent.id}`, { as: 'administrator' });
    await srv()
      .db.transaction()
      .execute((trx) => purgeTrash(trx, 0));
    const rows = async (table: 'event_series' | 'event_series_members', column: 'post_id' | 'series_id', id: number) =>
      (await srv().db.selectFrom(table).selectAll().where(column, '=', id).execute()).length;
    assert.equal(await rows('event_series', 'post_id', parent.id), 0);
    assert.equal(await rows('event_series_members', 'series_id', parent.id), 0);
    assert.equal(await rows('event_series', 'post_id', kept.id), 1);
    assert.equal(await rows('event_series_members', 'series_id', kept.id), 2);
    assert.equal(await total(srv(), { post_parent: kept.id }), 2);
  });
});
