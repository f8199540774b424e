import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { makeSeries, occurrences, seriesCounts } from './support.js';

const starts = (events: any[]) => events.map((e) => e.start_date);

forEachBackend('POST /events with recurrence', (srv) => {
  it('the event leads the series and carries its rule; every other occurrence is an event listed by post_parent', async () => {
    const parent = await makeSeries(srv(), {
      title: 'Choir rehearsal',
      timezone: 'Europe/Paris',
      start_date: '2027-03-02 18:30:00',
      end_date: '2027-03-02 20:00:00',
      categories: 'Music',
      venue: { venue: 'Town hall' },
      cost: '5',
      recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270331T000000Z' },
    });
    assert.deepEqual(parent.recurrence, {
      rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270331T000000Z',
      rdates: [],
      exdates: [],
    });
    assert.equal(parent.series, undefined);
    const keys = Object.keys(parent);
    assert.deepEqual(keys.slice(keys.indexOf('custom_fields')), ['custom_fields', 'recurrence']);

    const list = await occurrences(srv(), parent.id);
    assert.deepEqual(starts(list), [
      '2027-03-04 18:30:00',
      '2027-03-09 18:30:00',
      '2027-03-11 18:30:00',
      '2027-03-16 18:30:00',
      '2027-03-18 18:30:00',
      '2027-03-23 18:30:00',
      '2027-03-25 18:30:00',
      '2027-03-30 18:30:00',
    ]);
    for (const e of list) {
      assert.equal(e.title, 'Choir rehearsal');
      assert.equal(e.end_date, `${e.start_date.slice(0, 10)} 20:00:00`);
      assert.equal(e.cost, '$5');
      assert.deepEqual(
        e.categories.map((c: any) => c.name),
        ['Music'],
      );
      assert.equal(e.venue.venue, 'Town hall');
      assert.deepEqual(e.series, { id: parent.id, rest_url: `${srv().root}/events/${parent.id}`, detached: false });
      assert.equal(e.recurrence, undefined);
      assert.match(e.slug, /^choir-rehearsal-2027-03-\d\d$/);
    }
    const single = await srv().get(`/events/${list[0].id}`);
    assert.deepEqual(single.body.series, list[0].series);
    const category = await srv().get('/categories', { query: { search: 'Music' } });
    assert.equal(category.body.categories[0].count, 9, 'the term counts the parent and its eight occurrences');
  });

  for (const [zone, before, after, back] of [
    // Weekly on Mondays 10:00 from 2027-03-01: the Monday before and after each change of offset.
    ['Europe/Paris', ['2027-03-22', '09:00'], ['2027-03-29', '08:00'], ['2027-11-01', '09:00']],
    ['America/New_York', ['2027-03-08', '15:00'], ['2027-03-15', '14:00'], ['2027-11-08', '15:00']],
    [
      'Australia/Sydney',
      ['2027-03-29', '2027-03-28 23:00'],
      ['2027-04-05', '00:00'],
      ['2027-10-04', '2027-10-03 23:00'],
    ],
  ] as const) {
    it(`a weekly 10:00 ${zone} series stays at 10:00 across both daylight-saving changes while UTC moves`, async () => {
      const parent = await makeSeries(srv(), {
        timezone: zone,
        start_date: '2027-03-01 10:00:00',
        end_date: '2027-03-01 11:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=40' },
      });
      const list = [parent, ...(await occurrences(srv(), parent.id))];
      assert.equal(list.length, 40);
      for (const e of list) {
        assert.equal(e.start_date.slice(11), '10:00:00', `${e.start_date} wall clock`);
        assert.equal(e.end_date.slice(11), '11:00:00');
      }
      const utc = new Map(list.map((e) => [e.start_date.slice(0, 10), e.utc_start_date.slice(0, 16)]));
      for (const [day, time] of [before, after, back]) {
        assert.equal(utc.get(day), time.length > 5 ? time : `${day} ${time}`, `${zone} ${day}`);
      }
    });
  }

  it('a start in the spring-forward gap moves forward by the gap that day only', async () => {
    const parent = await makeSeries(srv(), {
      timezone: 'Europe/Paris',
      start_date: '2027-03-27 02:30:00',
      end_date: '2027-03-27 03:00:00',
      recurrence: { rrule: 'FREQ=DAILY;COUNT=3' },
    });
    const list = await occurrences(srv(), parent.id);
    assert.deepEqual(
      list.map((e) => [e.start_date, e.utc_start_date]),
      [
        ['2027-03-28 03:30:00', '2027-03-28 01:30:00'],
        ['2027-03-29 02:30:00', '2027-03-29 00:30:00'],
      ],
    );
  });

  it('daily with COUNT and INTERVAL', async () => {
    const parent = await makeSeries(srv(), {
      start_date: '2027-05-01 09:00:00',
      end_date: '2027-05-01 10:00:00',
      recurrence: { rrule: 'FREQ=DAILY;INTERVAL=3;COUNT=4' },
    });
    assert.deepEqual(starts(await occurrences(srv(), parent.id)), [
      '2027-05-04 09:00:00',
      '2027-05-07 09:00:00',
      '2027-05-10 09:00:00',
    ]);
  });

  it('monthly by month day, and by weekday with BYSETPOS (last weekday of the month), with UNTIL as a date', async () => {
    const byDay = await makeSeries(srv(), {
      start_date: '2027-01-15 12:00:00',
      end_date: '2027-01-15 13:00:00',
      recurrence: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=15;UNTIL=20270415' },
    });
    assert.deepEqual(starts(await occurrences(srv(), byDay.id)), [
      '2027-02-15 12:00:00',
      '2027-03-15 12:00:00',
      '2027-04-15 12:00:00',
    ]);
    const lastWeekday = await makeSeries(srv(), {
      start_date: '2027-01-29 17:00:00',
      end_date: '2027-01-29 18:00:00',
      recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4' },
    });
    assert.deepEqual(starts(await occurrences(srv(), lastWeekday.id)), [
      '2027-02-26 17:00:00',
      '2027-03-31 17:00:00',
      '2027-04-30 17:00:00',
    ]);
  });

  it('rdates add occurrences (at the series time, or their own) and exdates remove days', async () => {
    const parent = await makeSeries(srv(), {
      start_date: '2027-06-07 19:00:00',
      end_date: '2027-06-07 21:00:00',
      recurrence: {
        rrule: 'FREQ=WEEKLY;COUNT=4',
        rdates: ['2027-06-10', '2027-06-30 08:15:00'],
        exdates: ['2027-06-14'],
      },
    });
    assert.deepEqual(parent.recurrence.exdates, ['2027-06-14']);
    const list = await occurrences(srv(), parent.id);
    assert.deepEqual(
      list.map((e) => [e.start_date, e.end_date]),
      [
        ['2027-06-10 19:00:00', '2027-06-10 21:00:00'],
        ['2027-06-21 19:00:00', '2027-06-21 21:00:00'],
        ['2027-06-28 19:00:00', '2027-06-28 21:00:00'],
        ['2027-06-30 08:15:00', '2027-06-30 10:15:00'],
      ],
    );
  });

  it('all-day and multi-day occurrences keep their days across a DST change', async () => {
    const allDay = await makeSeries(srv(), {
      timezone: 'America/New_York',
      all_day: true,
      start_date: '2027-03-13',
      end_date: '2027-03-13',
      recurrence: { rrule: 'FREQ=DAILY;COUNT=3' },
    });
    const days = await occurrences(srv(), allDay.id);
    assert.deepEqual(
      days.map((e) => [e.all_day, e.start_date, e.end_date, e.utc_start_date]),
      [
        [true, '2027-03-14 00:00:00', '2027-03-14 23:59:59', '2027-03-14 05:00:00'],
        [true, '2027-03-15 00:00:00', '2027-03-15 23:59:59', '2027-03-15 04:00:00'],
      ],
    );
    const festival = await makeSeries(srv(), {
      timezone: 'Europe/Paris',
      start_date: '2027-10-29 18:00:00',
      end_date: '2027-10-31 23:00:00',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2' },
    });
    const [next] = await occurrences(srv(), festival.id);
    assert.equal(next.start_date, '2027-11-05 18:00:00');
    assert.equal(next.end_date, '2027-11-07 23:00:00');
  });

  it('an endless rule is materialized up to the horizon (series_horizon_months) and no further', async () => {
    await srv().setSetting('series_horizon_months', '3');
    try {
      const parent = await makeSeries(srv(), {
        start_date: '2026-12-01 10:00:00',
        end_date: '2026-12-01 11:00:00',
        status: 'publish',
        recurrence: { rrule: 'FREQ=WEEKLY' },
      });
      const list = await occurrences(srv(), parent.id);
      const horizon = new Date();
      horizon.setUTCMonth(horizon.getUTCMonth() + 3);
      const last = list.at(-1).utc_start_date;
      assert.ok(last <= horizon.toISOString().replace('T', ' ').slice(0, 19), `${last} within the horizon`);
      assert.ok(list.length >= 10 && list.length <= 14, `${list.length} weekly occurrences in about three months`);
    } finally {
      await srv().setSetting('series_horizon_months', '24');
    }
  });

  it('a rule over the cap is refused with a 400 and leaves nothing behind', async () => {
    const before = await seriesCounts(srv());
    const tooLong = await srv().post('/events', {
      as: 'administrator',
      json: {
        title: 'Too long',
        start_date: '2027-01-01 10:00:00',
        end_date: '2027-01-01 11:00:00',
        categories: 'Brand new category',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=1001' },
      },
    });
    expectRestError(tooLong, 400, 'rest-event-series-too-long', /more than 1000 occurrences/);
    await srv().setSetting('series_max_occurrences', '50');
    try {
      const endless = await srv().post('/events', {
        as: 'administrator',
        json: {
          title: 'Endless daily',
          start_date: '2027-01-01 10:00:00',
          end_date: '2027-01-01 11:00:00',
          recurrence: { rrule: 'FREQ=DAILY' },
        },
      });
      expectRestError(endless, 400, 'rest-event-series-too-long', /more than 50 occurrences/);
    } finally {
      await srv().setSetting('series_max_occurrences', '1000');
    }
    assert.deepEqual(await seriesCounts(srv()), before);
    const terms = await srv().get('/categories', { query: { search: 'Brand new' } });
    assert.equal(terms.body.categories.length, 0);
  });

  for (const [recurrence, problem] of [
    ['FREQ=WEEKLY', /send an object/],
    [{ rrule: 'FREQ=HOURLY' }, /FREQ=HOURLY is not supported/],
    [{ rrule: 'FREQ=DAILY;COUNT=3;UNTIL=20270101' }, /COUNT and UNTIL/],
    [{ rrule: 'FREQ=WEEKLY;BYDAY=XX' }, /BYDAY/],
    [{ rrule: 'FREQ=DAILY', exdates: ['tomorrow'] }, /exdates/],
    [{ rrule: 'FREQ=DAILY', color: 'red' }, /color is not a recurrence field/],
    [{ rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=5' }, /rrule: Maximum iterations/],
  ] as const) {
    it(`recurrence ${JSON.stringify(recurrence)} is refused as invalid_recurrence`, async () => {
      const before = await seriesCounts(srv());
      const res = await srv().post('/events', {
        as: 'administrator',
        json: { title: 'Bad rule', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00', recurrence },
      });
      expectRestError(res, 400, 'rest_invalid_param');
      assert.equal(res.body.data.details.recurrence.code, 'invalid_recurrence');
      assert.match(res.body.data.details.recurrence.message, problem);
      assert.deepEqual(await seriesCounts(srv()), before);
    });
  }

  it('a 1,000-occurrence series is created in one request, its occurrences counted by the list', async () => {
    await srv().setSetting('series_horizon_months', '40');
    try {
      const started = performance.now();
      const parent = await makeSeries(srv(), {
        title: 'Daily stand-up',
        start_date: '2026-12-01 09:00:00',
        end_date: '2026-12-01 09:15:00',
        categories: 'Work',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=1000' },
      });
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 10_000, `created in ${Math.round(elapsed)} ms`);
      const res = await srv().get('/events', {
        query: { start_date: '2026-01-01', end_date: '2030-12-31', post_parent: parent.id, per_page: 1 },
      });
      assert.equal(res.headers.get('x-wp-total'), '999');
      const members = await srv()
        .db.selectFrom('event_series_members')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('series_id', '=', parent.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(members.n), 999);
      const work = await srv().get('/categories', { query: { search: 'Work' } });
      assert.equal(work.body.categories[0].count, 1000);
    } finally {
      await srv().setSetting('series_horizon_months', '24');
    }
  });

  it('discovery and /doc describe recurrence, series and scope', async () => {
    const doc = (await srv().get('/doc')).body;
    const event = doc.components.schemas.Event.properties;
    const resolve = (schema: any) => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema);
    assert.deepEqual(Object.keys(resolve(event.recurrence).properties), ['rrule', 'rdates', 'exdates']);
    assert.deepEqual(Object.keys(resolve(event.series).properties), ['id', 'rest_url', 'detached']);
    assert.ok(!doc.components.schemas.Event.required.includes('recurrence'));
    const routes = (await srv().get('')).body.routes;
    const endpoint = (pattern: string, method: string) =>
      routes[`/calendar/events/v1${pattern}`].endpoints.find((e: any) => e.methods.includes(method));
    assert.match(endpoint('/events', 'POST').args.recurrence.description, /RFC 5545/);
    assert.deepEqual(endpoint('/events/(?P<id>\\d+)', 'PUT').args.scope.enum, ['all', 'following']);
    assert.deepEqual(endpoint('/events/(?P<id>\\d+)', 'DELETE').args.scope.enum, ['all']);
  });
});
