import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ical from 'ical-generator';
import { DateTime } from 'luxon';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';

/** A calendar as another application writes it. */
function calendar(): string {
  const cal = ical({ name: 'Elsewhere' });
  cal.createEvent({
    id: 'dst@elsewhere.example',
    start: DateTime.fromISO('2026-03-08T01:30:00', { zone: 'America/New_York' }),
    end: DateTime.fromISO('2026-03-08T03:30:00', { zone: 'America/New_York' }),
    timezone: 'America/New_York',
    summary: 'Across <DST> & more',
    description: 'Line one\nLine two',
    location: { title: 'Blue Hall', address: '1 Main St, Springfield', geo: { lat: 40.5, lon: -74.25 } },
    organizer: { name: 'Jo Doe', email: 'jo@example.org' },
    categories: [{ name: 'Jazz' }, { name: 'Outdoor' }],
    url: 'https://example.org/e1',
    attachments: ['https://example.org/poster.png'],
  });
  cal.createEvent({
    id: 'allday@elsewhere.example',
    start: DateTime.fromISO('2026-04-01'),
    end: DateTime.fromISO('2026-04-04'),
    allDay: true,
    summary: 'Three days',
    location: { title: 'Blue Hall' },
  });
  cal.createEvent({
    id: 'utc@elsewhere.example',
    start: DateTime.fromISO('2026-06-01T10:00:00Z'),
    end: DateTime.fromISO('2026-06-01T11:15:00Z'),
    summary: 'In UTC',
  });
  return cal.toString();
}

/** Hand-written lines joined with CRLF (RFC 5545 3.1). */
const lines = (...content: string[]) => `${content.join('\r\n')}\r\n`;
const wrap = (...events: string[][]) =>
  lines('BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events.flat(), 'END:VCALENDAR');
const vevent = (uid: string, ...props: string[]) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'DTSTAMP:20260101T000000Z',
  ...props,
  'END:VEVENT',
];

async function counts(srv: TestServer) {
  const rows = await srv.db
    .selectFrom('posts')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('type')
    .execute();
  const version = await srv.db
    .selectFrom('data_version')
    .select((eb) => eb.fn.sum<number>('version').as('v'))
    .executeTakeFirst();
  const imported = await srv.db
    .selectFrom('import_sources')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  const byType = Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
  return {
    event: byType.event ?? 0,
    venue: byType.venue ?? 0,
    organizer: byType.organizer ?? 0,
    image: byType.image ?? 0,
    version: Number(version?.v),
    imported: Number(imported?.n),
  };
}

async function eventOf(srv: TestServer, id: number) {
  const res = await srv.get(`/events/${id}`, { as: 'administrator' });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const importIcs = (srv: TestServer, json: Record<string, unknown>, as: 'administrator' | 'editor' = 'administrator') =>
  srv.post('/import/ics', { as, json });

forEachBackend('POST /import/ics', (srv) => {
  describe('a calendar written by another application', () => {
    let ids: Record<string, number> = {};

    it('creates one event per VEVENT and reports each with its line', async () => {
      const text = calendar();
      const begins = text.split('\r\n').flatMap((line, index) => (line === 'BEGIN:VEVENT' ? [index + 1] : []));
      assert.equal(begins.length, 3);
      const res = await importIcs(srv(), { content: text });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        {
          created: res.body.created,
          updated: res.body.updated,
          unchanged: res.body.unchanged,
          skipped: res.body.skipped,
        },
        { created: 3, updated: 0, unchanged: 0, skipped: 0 },
      );
      assert.deepEqual(
        res.body.items.map((i: { source_id: string; line: number; action: string }) => [i.source_id, i.line, i.action]),
        [
          ['dst@elsewhere.example', begins[0], 'created'],
          ['allday@elsewhere.example', begins[1], 'created'],
          ['utc@elsewhere.example', begins[2], 'created'],
        ],
      );
      ids = Object.fromEntries(res.body.items.map((i: { source_id: string; id: number }) => [i.source_id, i.id]));
    });

    it('keeps the zone and wall clock of a TZID event on a DST change, and its texts as plain text', async () => {
      const event = await eventOf(srv(), ids['dst@elsewhere.example']!);
      assert.equal(event.title, 'Across &lt;DST&gt; &amp; more');
      assert.equal(event.timezone, 'America/New_York');
      assert.equal(event.start_date, '2026-03-08 01:30:00');
      assert.equal(event.end_date, '2026-03-08 03:30:00');
      // 01:30 EST and 03:30 EDT: one hour apart in UTC, across the spring-forward gap.
      assert.equal(event.utc_start_date, '2026-03-08 06:30:00');
      assert.equal(event.utc_end_date, '2026-03-08 07:30:00');
      assert.equal(event.all_day, false);
      assert.match(event.description, /Line one<br \/>\s*Line two/);
      assert.equal(event.website, 'https://example.org/e1');
      assert.equal(event.image.url, 'https://example.org/poster.png');
    });

    it('LOCATION and GEO become a venue, ORGANIZER an organizer, CATEGORIES tags', async () => {
      const event = await eventOf(srv(), ids['dst@elsewhere.example']!);
      assert.equal(event.venue.venue, 'Blue Hall');
      assert.equal(event.venue.address, '1 Main St, Springfield');
      assert.equal(event.venue.geo_lat, 40.5);
      assert.equal(event.venue.geo_lng, -74.25);
      assert.equal(event.organizer[0].organizer, 'Jo Doe');
      assert.equal(event.organizer[0].email, 'jo@example.org');
      assert.deepEqual(event.tags.map((t: { name: string }) => t.name).sort(), ['Jazz', 'Outdoor']);
    });

    it('an all-day VEVENT ends on the day before its exclusive DTEND; a venue of the same name is reused', async () => {
      const event = await eventOf(srv(), ids['allday@elsewhere.example']!);
      assert.equal(event.all_day, true);
      assert.equal(event.start_date, '2026-04-01 00:00:00');
      assert.equal(event.end_date, '2026-04-03 23:59:59');
      const dst = await eventOf(srv(), ids['dst@elsewhere.example']!);
      assert.equal(event.venue.id, dst.venue.id);
      const venues = await srv().get('/venues', { as: 'administrator' });
      assert.equal(venues.body.total, 1);
    });

    it('a UTC date-time keeps its times in UTC', async () => {
      const event = await eventOf(srv(), ids['utc@elsewhere.example']!);
      assert.equal(event.timezone, 'UTC');
      assert.equal(event.start_date, '2026-06-01 10:00:00');
      assert.equal(event.end_date, '2026-06-01 11:15:00');
    });

    it('importing the same file again changes nothing and reports every event unchanged', async () => {
      const before = await counts(srv());
      const res = await importIcs(srv(), { content: calendar() });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.created, res.body.updated, res.body.unchanged], [0, 0, 3]);
      assert.deepEqual(await counts(srv()), before);
    });

    it('a changed VEVENT updates its event, by UID, without a duplicate; properties it lost are cleared', async () => {
      const before = await counts(srv());
      const text = wrap(
        vevent('dst@elsewhere.example', 'DTSTART;TZID=America/New_York:20260308T040000', 'SUMMARY:Renamed'),
      );
      const res = await srv().post('/import/ics', {
        as: 'administrator',
        body: text,
        headers: { 'content-type': 'text/calendar; charset=utf-8' },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.items, [
        {
          kind: 'event',
          source_id: 'dst@elsewhere.example',
          line: 4,
          action: 'updated',
          id: ids['dst@elsewhere.example'],
        },
      ]);
      const event = await eventOf(srv(), ids['dst@elsewhere.example']!);
      assert.equal(event.title, 'Renamed');
      assert.equal(event.start_date, '2026-03-08 04:00:00');
      assert.deepEqual(event.venue, []);
      assert.deepEqual(event.organizer, []);
      assert.deepEqual(event.tags, []);
      // An event without a website shows its own URL there, as TEC does.
      assert.equal(event.website, event.url);
      assert.equal(event.image, false);
      const after = await counts(srv());
      assert.equal(after.event, before.event);
      assert.equal(after.imported, before.imported);
    });
  });

  describe('what a VEVENT says about itself', () => {
    it('a Windows zone name (TZID) becomes the IANA zone', async () => {
      const res = await importIcs(srv(), {
        content: wrap(
          vevent(
            'windows@test',
            'DTSTART;TZID=W. Europe Standard Time:20261025T020000',
            'DTEND;TZID=W. Europe Standard Time:20261025T040000',
            'SUMMARY:Windows zone',
          ),
        ),
      });
      assert.equal(res.status, 200, res.text);
      const event = await eventOf(srv(), res.body.items[0].id);
      assert.equal(event.timezone, 'Europe/Berlin');
      assert.equal(event.start_date, '2026-10-25 02:00:00');
      assert.equal(event.end_date, '2026-10-25 04:00:00');
    });

    it('STATUS:CANCELLED moves the imported event to the trash; confirmed again, it comes back', async () => {
      const confirmed = wrap(vevent('cancel@test', 'DTSTART:20260701T100000Z', 'SUMMARY:Maybe'));
      const first = await importIcs(srv(), { content: confirmed });
      const id = first.body.items[0].id;
      const cancelled = await importIcs(srv(), {
        content: wrap(vevent('cancel@test', 'DTSTART:20260701T100000Z', 'SUMMARY:Maybe', 'STATUS:CANCELLED')),
      });
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.deepEqual(
        [cancelled.body.trashed, cancelled.body.items[0].action, cancelled.body.items[0].id],
        [1, 'trashed', id],
      );
      expectRestError(await srv().get(`/events/${id}`), 403, 'event-no-longer-available');
      const back = await importIcs(srv(), { content: confirmed });
      assert.equal(back.body.items[0].action, 'updated');
      assert.equal((await eventOf(srv(), id)).status, 'publish');
    });

    it('recurring, UID-less and refused VEVENTs are skipped with a reason; the others are imported', async () => {
      const before = await counts(srv());
      const res = await importIcs(srv(), {
        content: wrap(
          vevent('weekly@test', 'DTSTART:20260701T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Weekly'),
          ['BEGIN:VEVENT', 'DTSTART:20260701T100000Z', 'SUMMARY:No UID', 'END:VEVENT'],
          vevent('untitled@test', 'DTSTART:20260701T100000Z'),
          vevent('fine@test', 'DTSTART:20260702T100000Z', 'SUMMARY:Fine'),
        ),
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.created, res.body.skipped], [1, 3]);
      const [weekly, noUid, untitled, fine] = res.body.items;
      assert.deepEqual([weekly.line, weekly.action], [4, 'skipped']);
      assert.match(weekly.reason, /RRULE/);
      assert.deepEqual([noUid.line, noUid.source_id, noUid.action], [11, null, 'skipped']);
      assert.match(noUid.reason, /no UID/);
      assert.deepEqual([untitled.line, untitled.action], [15, 'skipped']);
      assert.match(untitled.reason, /^rest_missing_callback_param: Missing parameter\(s\): title/);
      assert.equal(fine.action, 'created');
      const after = await counts(srv());
      assert.equal(after.event, before.event + 1);
      assert.equal(after.imported, before.imported + 1);
    });

    it('a changed occurrence (RECURRENCE-ID) is skipped, and its recurring event after it for its RRULE', async () => {
      const res = await importIcs(srv(), {
        content: wrap(
          vevent('series@test', 'RECURRENCE-ID:20260708T100000Z', 'DTSTART:20260708T120000Z', 'SUMMARY:Moved'),
          vevent('series@test', 'DTSTART:20260701T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Weekly'),
        ),
      });
      assert.equal(res.status, 200, res.text);
      const [occurrence, series] = res.body.items;
      assert.deepEqual([occurrence.line, occurrence.action, series.line, series.action], [4, 'skipped', 11, 'skipped']);
      assert.match(occurrence.reason, /RECURRENCE-ID/);
      assert.match(series.reason, /RRULE/);
    });

    it('status=draft and category=SLUG apply to the imported events', async () => {
      const category = await srv().post('/categories', { as: 'administrator', json: { name: 'Imported' } });
      const res = await importIcs(srv(), {
        content: wrap(vevent('draft@test', 'DTSTART:20260801T100000Z', 'SUMMARY:Draft')),
        status: 'draft',
        category: 'imported',
      });
      assert.equal(res.status, 200, res.text);
      const event = await eventOf(srv(), res.body.items[0].id);
      assert.equal(event.status, 'draft');
      assert.deepEqual(
        event.categories.map((c: { id: number }) => c.id),
        [category.body.id],
      );
    });

    it('dry_run reports what an import would do and writes nothing', async () => {
      const before = await counts(srv());
      const res = await importIcs(srv(), {
        content: wrap(vevent('dry@test', 'DTSTART:20260901T100000Z', 'SUMMARY:Dry', 'LOCATION:Dry Hall')),
        dry_run: true,
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.dry_run, res.body.created, res.body.items[0].action], [true, 1, 'created']);
      assert.deepEqual(await counts(srv()), before);
    });
  });

  describe('refusals', () => {
    async function refused(json: Record<string, unknown>, as: 'administrator' | 'editor' | null = 'administrator') {
      const before = await counts(srv());
      const res = await srv().post('/import/ics', { as: as ?? undefined, json });
      assert.deepEqual(await counts(srv()), before, 'nothing was written');
      return res;
    }

    it('a file cut short is refused naming the line, and none of its events is imported', async () => {
      const text = wrap(vevent('one@test', 'DTSTART:20261001T100000Z', 'SUMMARY:One')).replace(
        /END:VCALENDAR\r\n$/,
        '',
      );
      const res = await refused({ content: text });
      expectRestError(
        res,
        400,
        'rest_ics_invalid',
        /^The calendar is not valid iCalendar: line 9: the file ends before END:VCALENDAR/,
      );
      assert.equal(res.body.data.line, 9);
    });

    it('a date that is no date is refused naming its line', async () => {
      const res = await refused({
        content: wrap(
          vevent('ok@test', 'DTSTART:20261001T100000Z', 'SUMMARY:Ok'),
          vevent('bad@test', 'DTSTART:2026-10-01 10:00', 'SUMMARY:Bad'),
        ),
      });
      expectRestError(res, 400, 'rest_ics_invalid', /line 13: DTSTART "2026-10-01 10:00" is not a date/);
      assert.equal(res.body.data.line, 13);
    });

    it('text that is not iCalendar is refused on line 1; a line without a colon on its own line', async () => {
      expectRestError(
        await refused({ content: 'hello' }),
        400,
        'rest_ics_invalid',
        /line 1: an iCalendar file starts with BEGIN:VCALENDAR/,
      );
      const res = await refused({ content: wrap(['BEGIN:VEVENT', 'UID:x', 'garbage', 'END:VEVENT']) });
      expectRestError(res, 400, 'rest_ics_invalid', /line 6: not a property line/);
    });

    it('neither content nor url, or both, is refused', async () => {
      expectRestError(await refused({}), 400, 'rest_import_no_source');
      expectRestError(
        await refused({ content: wrap(), url: 'https://example.org/x.ics' }),
        400,
        'rest_import_two_sources',
      );
    });

    it('a url that is not http, https or webcal is rest_invalid_param; one that cannot be read says why', async () => {
      expectRestError(
        await refused({ url: 'file:///etc/passwd' }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): url',
      );
      const res = await refused({ url: `${srv().origin}/no-such.ics` });
      expectRestError(res, 400, 'rest_import_source_unreadable', /HTTP 404/);
    });

    it('an unknown category slug and an unknown status are rest_invalid_param', async () => {
      expectRestError(
        await refused({ content: wrap(), category: 'nope' }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): category',
      );
      expectRestError(
        await refused({ content: wrap(), status: 'future' }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): status',
      );
    });

    it('only administrators may import: an editor is 403, an anonymous caller 401', async () => {
      const content = wrap(vevent('perm@test', 'DTSTART:20261001T100000Z', 'SUMMARY:Perm'));
      expectRestError(await refused({ content }, 'editor'), 403, 'rest_forbidden');
      expectRestError(await refused({ content }, null), 401, 'rest_forbidden');
    });
  });
});
