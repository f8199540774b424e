import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import ical, { type ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import { forEachBackend, startTestServer, type TestServer } from '../support/server.js';

/**
 * Events of one instance written as iCalendar (a VEVENT per event, DTSTART/DTEND with TZID,
 * all-day as VALUE=DATE with the exclusive end, plain-text SUMMARY and DESCRIPTION, LOCATION, GEO,
 * ORGANIZER, CATEGORIES, URL, ATTACH), imported into an empty instance: every field iCalendar
 * carries reads back the same. Once from a calendar built from the JSON answers, once from the
 * instance's own feed (`/events/?ical=1`).
 */

const WALL = 'yyyy-MM-dd HH:mm:ss';

const EVENTS = [
  {
    title: 'Jazz & Blues <live>',
    description: 'Line one\nLine two',
    start_date: '2026-03-08 01:30:00',
    end_date: '2026-03-08 03:30:00',
    timezone: 'America/New_York',
    venue: { venue: 'Blue Hall', address: '1 Main St, Springfield', geo_lat: 40.5, geo_lng: -74.25 },
    organizer: { organizer: 'Jo Doe', email: 'jo@example.org' },
    tags: ['Jazz', 'Outdoor'],
    website: 'https://example.org/jazz',
    image: 'https://example.org/poster.png',
  },
  {
    title: 'Three-day fair',
    start_date: '2026-04-01 00:00:00',
    end_date: '2026-04-03 23:59:59',
    all_day: true,
    venue: { venue: 'Blue Hall' },
  },
  {
    title: 'Evening in Tokyo',
    start_date: '2026-10-25 19:00:00',
    end_date: '2026-10-25 21:00:00',
    timezone: 'Asia/Tokyo',
  },
  {
    title: 'Night over the fall-back hour',
    start_date: '2026-10-25 01:00:00',
    end_date: '2026-10-25 04:00:00',
    timezone: 'Europe/Berlin',
  },
];

const plain = (html: string) =>
  html
    .replace(/<br \/>\n?/g, '\n')
    .replace(/<\/?p>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .trim();

type Json = Record<string, any>;

/** One event's VEVENT, from its JSON answer alone. */
function veventOf(event: Json): ICalEventData {
  const zone = event.all_day ? 'utc' : event.timezone;
  const start = DateTime.fromFormat(event.start_date, WALL, { zone });
  const end = DateTime.fromFormat(event.end_date, WALL, { zone });
  const venue = Array.isArray(event.venue) ? undefined : event.venue;
  return {
    id: `${event.id}@source.example`,
    start,
    end: event.all_day ? end.startOf('day').plus({ days: 1 }) : end,
    allDay: event.all_day,
    ...(event.all_day ? {} : { timezone: event.timezone }),
    summary: plain(event.title),
    description: plain(event.description),
    ...(venue
      ? {
          location: {
            title: plain(venue.venue),
            ...(venue.address ? { address: venue.address } : {}),
            ...(venue.geo_lat !== undefined ? { geo: { lat: venue.geo_lat, lon: venue.geo_lng } } : {}),
          },
        }
      : {}),
    ...(event.organizer.length
      ? { organizer: { name: event.organizer[0].organizer, email: event.organizer[0].email } }
      : {}),
    categories: event.tags.map((tag: Json) => ({ name: tag.name })),
    ...(event.website !== event.url ? { url: event.website } : {}),
    ...(event.image ? { attachments: [event.image.url] } : {}),
  };
}

/** What iCalendar carries of an event's JSON answer. */
function carried(event: Json) {
  const venue = Array.isArray(event.venue) ? undefined : event.venue;
  return {
    title: event.title,
    description: event.description,
    start_date: event.start_date,
    end_date: event.end_date,
    utc_start_date: event.utc_start_date,
    utc_end_date: event.utc_end_date,
    all_day: event.all_day,
    timezone: event.timezone,
    website: event.website === event.url ? '' : event.website,
    image: event.image ? event.image.url : false,
    venue: venue && { venue: venue.venue, address: venue.address, geo_lat: venue.geo_lat, geo_lng: venue.geo_lng },
    organizer: event.organizer.map((o: Json) => ({ organizer: o.organizer, email: o.email })),
    tags: event.tags.map((t: Json) => t.name).sort(),
  };
}

forEachBackend('iCalendar round trip', (source) => {
  let target: TestServer;
  let fromFeed: TestServer;
  before(async () => {
    target = await startTestServer(source().backend);
    fromFeed = await startTestServer(source().backend);
  });
  after(async () => {
    await target?.close();
    await fromFeed?.close();
  });

  it('events written as VEVENTs and imported into an empty instance answer the same', async () => {
    const originals: Json[] = [];
    for (const event of EVENTS) {
      const res = await source().post('/events', { as: 'administrator', json: { ...event, status: 'publish' } });
      assert.equal(res.status, 201, res.text);
      originals.push(res.body);
    }
    const cal = ical({ name: 'Source' });
    for (const event of originals) cal.createEvent(veventOf(event));
    const imported = await target.post('/import/ics', {
      as: 'administrator',
      body: cal.toString(),
      headers: { 'content-type': 'text/calendar' },
    });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual([imported.body.created, imported.body.skipped], [EVENTS.length, 0]);
    for (const [n, original] of originals.entries()) {
      const item = imported.body.items[n];
      assert.equal(item.source_id, `${original.id}@source.example`);
      const copy = await target.get(`/events/${item.id}`);
      assert.equal(copy.status, 200, copy.text);
      assert.deepEqual(carried(copy.body), carried(original), original.title);
    }
    // The venue named twice is one venue there, and one here.
    assert.equal((await target.get('/venues')).body.total, 1);
  });

  it('the feed at /events/?ical=1 imported into an empty instance gives the same events', async () => {
    const list = await source().get('/events', { query: { start_date: '2026-01-01', end_date: '2026-12-31' } });
    assert.equal(list.body.total, EVENTS.length);
    const feed = await source().get(`${source().origin}/events/`, {
      query: { ical: 1, start_date: '2026-01-01', end_date: '2026-12-31' },
    });
    assert.equal(feed.status, 200, feed.text);
    assert.match(feed.headers.get('content-type') ?? '', /^text\/calendar/);
    const imported = await fromFeed.post('/import/ics', { as: 'administrator', json: { content: feed.text } });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual([imported.body.created, imported.body.skipped], [EVENTS.length, 0]);
    const copies = await fromFeed.get('/events', { query: { start_date: '2026-01-01', end_date: '2026-12-31' } });
    assert.equal(copies.body.total, EVENTS.length);
    for (const [n, original] of list.body.events.entries()) {
      const copy = copies.body.events[n];
      // The feed's URL is the event's page there, and its CATEGORIES hold categories and tags; a
      // LOCATION's address is the venue's address parts in one text.
      const venue = Array.isArray(original.venue) ? undefined : original.venue;
      const address =
        venue && [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country].filter(Boolean).join(', ');
      const expected = {
        ...carried(original),
        website: original.url,
        venue: venue && {
          venue: venue.venue,
          address: address || undefined,
          geo_lat: venue.geo_lat,
          geo_lng: venue.geo_lng,
        },
        tags: [...original.categories, ...original.tags].map((t: Json) => t.name).sort(),
      };
      assert.deepEqual({ ...carried(copy), website: copy.website }, expected, original.title);
    }
  });
});
