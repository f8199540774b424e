import { it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';
import { daysFromNow, makeEvent } from '../events/helpers.js';
import { makeSeries, occurrences } from '../series/support.js';

type Json = Record<string, any>;

/** A whole year of 2027 (all fixtures lie in it), so that the default window plays no part. */
const YEAR = { start_date: '2027-01-01', end_date: '2027-12-31' };

interface Feed {
  text: string;
  calendar: ICAL.Component;
  events: Map<string, ICAL.Component>;
}

/** Parses a feed with ical.js, an independent parser, registering its VTIMEZONEs. */
function parseFeed(text: string): Feed {
  const calendar = new ICAL.Component(ICAL.parse(text) as any[]);
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = new Map<string, ICAL.Component>();
  for (const vevent of calendar.getAllSubcomponents('vevent'))
    events.set(String(vevent.getFirstPropertyValue('uid')), vevent);
  return { text, calendar, events };
}

async function getFeed(srv: TestServer, path: string, query: Json = {}): Promise<Feed> {
  const res = await srv.get(`${srv.origin}${path}`, { query: { ical: 1, ...query } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'text/calendar; charset=utf-8');
  return parseFeed(res.text);
}

const uidOf = (srv: TestServer, id: number) => `${id}@${new URL(srv.config.siteUrl).host}`;
const utcSeconds = (wall: string) => DateTime.fromSQL(wall, { zone: 'utc' }).toSeconds();
const decode = (html: string) => html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** Every VEVENT field the JSON answer of the same event settles. */
function assertMatchesJson(srv: TestServer, vevent: ICAL.Component, json: Json) {
  const event = new ICAL.Event(vevent);
  assert.equal(event.uid, uidOf(srv, json.id));
  assert.equal(event.summary, decode(json.title));
  assert.equal(vevent.getFirstPropertyValue('url'), json.url);
  const created = vevent.getFirstPropertyValue('created') as ICAL.Time;
  const modified = vevent.getFirstPropertyValue('last-modified') as ICAL.Time;
  assert.equal(created.toUnixTime(), utcSeconds(json.date_utc));
  assert.equal(modified.toUnixTime(), utcSeconds(json.modified_utc));
  if (json.all_day) {
    assert.ok(event.startDate.isDate && event.endDate.isDate, 'all-day events are dates');
    assert.equal(event.startDate.toString(), json.start_date.slice(0, 10));
    const after = DateTime.fromSQL(json.end_date).plus({ days: 1 }).toISODate();
    assert.equal(event.endDate.toString(), after, 'the end date is exclusive');
  } else {
    assert.equal(event.startDate.toUnixTime(), utcSeconds(json.utc_start_date));
    assert.equal(event.endDate.toUnixTime(), utcSeconds(json.utc_end_date));
  }
  const venue = Array.isArray(json.venue) ? json.venue[0] : json.venue;
  if (venue) {
    assert.ok(event.location.startsWith(decode(venue.venue)), event.location);
    if (venue.city) assert.ok(event.location.includes(venue.city));
  } else assert.equal(event.location, null);
  const names = [...json.categories, ...json.tags].map((t: Json) => decode(t.name));
  const categories = vevent.getAllProperties('categories').flatMap((p) => p.getValues());
  assert.deepEqual(categories, [...new Set(names)]);
  if (json.image) assert.equal(vevent.getFirstPropertyValue('attach'), json.image.url);
  else assert.equal(vevent.getFirstProperty('attach'), null);
}

/** Raw bytes of a feed: CRLF only, lines of at most 75 octets, each valid UTF-8 on its own. */
async function assertWireForm(url: string) {
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  const text = bytes.toString('utf8');
  assert.ok(text.endsWith('\r\n'));
  assert.equal(text.replace(/\r\n/g, '').match(/[\r\n]/), null, 'no bare CR or LF');
  const strict = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  let folded = 0;
  for (let end = bytes.indexOf('\r\n', start); end >= 0; end = bytes.indexOf('\r\n', start)) {
    const line = bytes.subarray(start, end);
    assert.ok(line.length <= 75, `a line of ${line.length} octets: ${line.toString()}`);
    strict.decode(line);
    if (line[0] === 0x20) folded++;
    start = end + 2;
  }
  return folded;
}

forEachBackend('iCalendar feeds', (srv) => {
  const made: Record<string, Json> = {};

  it('fixtures: events in several zones, all-day, multi-day, protected and draft', async () => {
    await srv().setSetting('timezone', 'Europe/Berlin');
    await srv().setSetting('site_name', 'Fête; a, b');
    made.dst = await makeEvent(srv(), {
      title: 'Night over the DST change; with, commas & \\ backslash',
      description: `<p>First paragraph, with a comma; and a semicolon.</p>\n\n<p>Second line é — ${'ü'.repeat(80)}</p>`,
      timezone: 'America/New_York',
      // US daylight saving time starts on 2027-03-14 at 02:00.
      start_date: '2027-03-13 22:00:00',
      end_date: '2027-03-14 04:00:00',
      venue: {
        venue: 'Blue Room',
        address: '1 Main St',
        city: 'New York',
        country: 'USA',
        geo_lat: 40.5,
        geo_lng: -74.25,
      },
      organizer: [{ organizer: 'No Mail' }, { organizer: 'Ann "Annie" Org', email: 'ann@example.org' }],
      categories: ['Music'],
      tags: ['Night', 'Jazz & Blues'],
      image: 'https://cdn.example.org/pics/night.jpg',
    });
    made.allDay = await makeEvent(srv(), {
      title: 'Three-day fair',
      all_day: true,
      start_date: '2027-05-01',
      end_date: '2027-05-03',
      categories: ['Fairs'],
    });
    made.sydney = await makeEvent(srv(), {
      title: 'Sydney night',
      timezone: 'Australia/Sydney',
      // Sydney leaves daylight saving time on 2027-04-04 at 03:00.
      start_date: '2027-04-03 23:00:00',
      end_date: '2027-04-04 05:00:00',
    });
    made.kolkata = await makeEvent(srv(), {
      title: 'Kolkata afternoon',
      timezone: 'Asia/Kolkata',
      start_date: '2027-06-10 14:30:00',
      end_date: '2027-06-10 16:00:00',
    });
    made.offset = await makeEvent(srv(), {
      title: 'Fixed offset',
      timezone: 'UTC+5',
      start_date: '2027-06-11 09:00:00',
      end_date: '2027-06-11 10:00:00',
    });
    made.protected = await makeEvent(srv(), {
      title: 'Members only',
      description: 'Secret plans',
      start_date: '2027-06-12 18:00:00',
      end_date: '2027-06-12 20:00:00',
      venue: { venue: 'Hidden Hall', city: 'Berlin' },
      categories: ['Music'],
      post_password: 'sesame',
    });
    made.draft = await makeEvent(srv(), {
      title: 'Not yet',
      status: 'draft',
      start_date: '2027-06-13 18:00:00',
      end_date: '2027-06-13 19:00:00',
    });
    assert.equal(made.draft.status, 'draft');
  });

  it('the list feed holds the published events, each VEVENT matching the JSON answer of the event', async () => {
    const feed = await getFeed(srv(), '/events/', YEAR);
    const published = ['dst', 'allDay', 'sydney', 'kolkata', 'offset', 'protected'];
    assert.deepEqual(
      [...feed.events.keys()].sort(),
      published.map((k) => uidOf(srv(), made[k]!.id)).sort(),
      'published events only: no draft',
    );
    const list = await srv().get('/events', { query: { ...YEAR, per_page: 50 } });
    assert.equal(list.body.events.length, published.length);
    for (const json of list.body.events) {
      if (json.id === made.protected!.id) continue;
      assertMatchesJson(srv(), feed.events.get(uidOf(srv(), json.id))!, json);
    }
  });

  it('times carry the TZID of their zone with one VTIMEZONE per zone used; fixed offsets are UTC', async () => {
    const feed = await getFeed(srv(), '/events/', YEAR);
    const tzids = feed.calendar.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
    assert.deepEqual(tzids.sort(), ['America/New_York', 'Asia/Kolkata', 'Australia/Sydney', 'Europe/Berlin']);
    const dtstart = (key: string) => feed.events.get(uidOf(srv(), made[key]!.id))!.getFirstProperty('dtstart')!;
    assert.equal(dtstart('dst').getParameter('tzid'), 'America/New_York');
    assert.equal(dtstart('dst').toICALString(), 'DTSTART;TZID=America/New_York:20270313T220000');
    const dtend = feed.events.get(uidOf(srv(), made.dst!.id))!.getFirstProperty('dtend')!;
    assert.equal(dtend.toICALString(), 'DTEND;TZID=America/New_York:20270314T040000');
    // 22:00 EST is 03:00 UTC; 04:00 EDT is 08:00 UTC: five hours, not six, across the change.
    const dst = new ICAL.Event(feed.events.get(uidOf(srv(), made.dst!.id))!);
    assert.equal(dst.endDate.toUnixTime() - dst.startDate.toUnixTime(), 5 * 3600);
    const sydney = new ICAL.Event(feed.events.get(uidOf(srv(), made.sydney!.id))!);
    assert.equal(sydney.endDate.toUnixTime() - sydney.startDate.toUnixTime(), 7 * 3600);
    assert.equal(dtstart('kolkata').toICALString(), 'DTSTART;TZID=Asia/Kolkata:20270610T143000');
    assert.equal(dtstart('offset').toICALString(), 'DTSTART:20270611T040000Z');
    assert.equal(dtstart('allDay').toICALString(), 'DTSTART;VALUE=DATE:20270501');
    // The all-day event is in the site's zone, and needs no VTIMEZONE: Europe/Berlin comes from the
    // protected event, which has times in that zone.
    assert.equal(dtstart('protected').getParameter('tzid'), 'Europe/Berlin');
  });

  it('calendar properties: version, product, scale, method, names, description, refresh, zone', async () => {
    const { calendar } = await getFeed(srv(), '/events/', YEAR);
    const value = (name: string) => calendar.getFirstPropertyValue(name);
    assert.equal(value('version'), '2.0');
    assert.equal(value('prodid'), '-//Calendar Server//Feeds//EN');
    assert.equal(value('calscale'), 'GREGORIAN');
    assert.equal(value('method'), 'PUBLISH');
    assert.equal(value('name'), 'Fête; a, b');
    assert.equal(value('x-wr-calname'), 'Fête; a, b');
    assert.equal(value('description'), 'Events of Fête; a, b');
    assert.equal(String(value('refresh-interval')), 'PT1H');
    assert.equal(String(value('x-published-ttl')), 'PT1H');
    assert.equal(value('x-wr-timezone'), 'Europe/Berlin');
    assert.equal(value('url'), `${srv().config.siteUrl}/events/?ical=1&start_date=2027-01-01&end_date=2027-12-31`);
  });

  it('text is escaped, plain and folded at 75 octets without splitting a character, lines end in CRLF', async () => {
    const feed = await getFeed(srv(), `/event/${made.dst!.slug}/`);
    assert.equal(feed.events.size, 1);
    const vevent = feed.events.get(uidOf(srv(), made.dst!.id))!;
    assertMatchesJson(srv(), vevent, (await srv().get(`/events/${made.dst!.id}`)).body);
    assert.equal(vevent.getFirstPropertyValue('summary'), 'Night over the DST change; with, commas & \\ backslash');
    assert.match(feed.text, /\r\nSUMMARY:Night over the DST change\\; with\\, commas & \\\\ backslash\r\n/);
    assert.equal(
      vevent.getFirstPropertyValue('description'),
      `First paragraph, with a comma; and a semicolon.\n\nSecond line é — ${'ü'.repeat(80)}`,
    );
    const folded = await assertWireForm(`${srv().origin}/event/${made.dst!.slug}/?ical=1`);
    assert.ok(folded >= 2, 'the long description is folded');
    await assertWireForm(`${srv().origin}/events/?ical=1&start_date=2027-01-01&end_date=2027-12-31`);
  });

  it('location, geo, organizer with an email address, categories and tags, image', async () => {
    const feed = await getFeed(srv(), `/event/${made.dst!.slug}/`);
    const vevent = feed.events.get(uidOf(srv(), made.dst!.id))!;
    assert.equal(vevent.getFirstPropertyValue('location'), 'Blue Room\n1 Main St, New York, USA');
    assert.deepEqual(vevent.getFirstPropertyValue('geo'), [40.5, -74.25]);
    const organizer = vevent.getFirstProperty('organizer')!;
    // A double quote cannot stand in a parameter value (RFC 5545 3.1).
    assert.equal(organizer.getParameter('cn'), "Ann 'Annie' Org", 'the first organizer with an email address');
    assert.equal(organizer.getFirstValue(), 'mailto:ann@example.org');
    const categories = vevent.getAllProperties('categories').flatMap((p) => p.getValues());
    assert.deepEqual(categories, ['Music', 'Jazz & Blues', 'Night'], 'categories, then tags, each in name order');
    assert.equal(vevent.getFirstPropertyValue('attach'), 'https://cdn.example.org/pics/night.jpg');
    assert.equal(vevent.getFirstPropertyValue('sequence'), 0);
  });

  it('a password-protected event shows its title and times only', async () => {
    const feed = await getFeed(srv(), '/events/', YEAR);
    const vevent = feed.events.get(uidOf(srv(), made.protected!.id))!;
    assert.equal(vevent.getFirstPropertyValue('summary'), 'Members only');
    assert.equal(vevent.getFirstPropertyValue('dtstart')!.toString(), '2027-06-12T18:00:00');
    for (const hidden of ['description', 'location', 'geo', 'categories', 'organizer', 'attach'])
      assert.equal(vevent.getFirstProperty(hidden), null, `${hidden} is left out`);
    assert.ok(!feed.text.includes('Secret') && !feed.text.includes('Hidden Hall'));
  });

  it('SEQUENCE grows with every update and LAST-MODIFIED follows', async () => {
    const e = await makeEvent(srv(), {
      title: 'Changing',
      start_date: '2027-08-01 10:00:00',
      end_date: '2027-08-01 11:00:00',
    });
    const sequence = async () => {
      const feed = await getFeed(srv(), `/event/${e.slug}/`);
      return feed.events.get(uidOf(srv(), e.id))!.getFirstPropertyValue('sequence');
    };
    assert.equal(await sequence(), 0);
    for (const [i, title] of ['Changed once', 'Changed twice'].entries()) {
      const res = await srv().post(`/events/${e.id}`, { as: 'administrator', json: { title } });
      assert.equal(res.status, 200, res.text);
      assert.equal(await sequence(), i + 1);
    }
    const row = await srv()
      .db.selectFrom('events')
      .select('sequence')
      .where('post_id', '=', e.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.sequence, 2);
  });

  it('the feed ignores the caller: an administrator gets no drafts either', async () => {
    const res = await srv().get(`${srv().origin}/events/`, { as: 'administrator', query: { ical: 1, ...YEAR } });
    assert.equal(res.status, 200);
    assert.ok(!res.text.includes('Not yet'));
    assert.ok(res.text.includes('Members only') && !res.text.includes('Secret plans'));
  });
});

forEachBackend('iCalendar feeds: filters, addresses and HTTP', (srv) => {
  const made: Record<string, Json> = {};

  it('fixtures', async () => {
    const parent = await srv().post('/categories', { as: 'administrator', json: { name: 'Arts' } });
    const child = await srv().post('/categories', {
      as: 'administrator',
      json: { name: 'Opera', parent: parent.body.id },
    });
    assert.equal(child.status, 201, child.text);
    made.opera = await makeEvent(srv(), {
      title: 'Opera night',
      categories: [child.body.id],
      tags: ['Loud'],
      featured: true,
      start_date: daysFromNow(5),
      end_date: daysFromNow(5, '12:00:00'),
    });
    made.plain = await makeEvent(srv(), {
      title: 'Plain talk',
      start_date: daysFromNow(6),
      end_date: daysFromNow(6, '12:00:00'),
    });
    made.recent = await makeEvent(srv(), {
      title: 'Recent past',
      start_date: daysFromNow(-20),
      end_date: daysFromNow(-20, '12:00:00'),
    });
    made.old = await makeEvent(srv(), {
      title: 'Long ago',
      start_date: daysFromNow(-40),
      end_date: daysFromNow(-40, '12:00:00'),
    });
  });

  const titles = (feed: Feed) => [...feed.events.values()].map((v) => v.getFirstPropertyValue('summary')).sort();

  it(`without dates a feed starts 30 days back (the JSON list starts yesterday)`, async () => {
    assert.deepEqual(titles(await getFeed(srv(), '/events/')), ['Opera night', 'Plain talk', 'Recent past']);
    const list = await srv().get('/events');
    assert.deepEqual(list.body.events.map((e: Json) => e.title).sort(), ['Opera night', 'Plain talk']);
  });

  it('the filters of GET /events: categories (sub-categories included), tags, search, featured, per_page', async () => {
    assert.deepEqual(titles(await getFeed(srv(), '/events/', { categories: 'arts' })), ['Opera night']);
    assert.deepEqual(titles(await getFeed(srv(), '/events/', { tags: 'loud' })), ['Opera night']);
    assert.deepEqual(titles(await getFeed(srv(), '/events/', { search: 'talk' })), ['Plain talk']);
    assert.deepEqual(titles(await getFeed(srv(), '/events/', { featured: 'false' })), ['Plain talk', 'Recent past']);
    assert.deepEqual(titles(await getFeed(srv(), '/events/', { per_page: 1 })), ['Recent past'], 'in start order');
    const both = await getFeed(srv(), '/events/', {
      start_date: daysFromNow(-45).slice(0, 10),
      end_date: daysFromNow(-30).slice(0, 10),
    });
    assert.deepEqual(titles(both), ['Long ago']);
  });

  it('invalid filters are refused as GET /events refuses them, in the JSON error shape', async () => {
    const bad = async (query: Json, param: string) => {
      const res = await srv().get(`${srv().origin}/events/`, { query: { ical: 1, ...query } });
      expectRestError(res, 400, 'rest_invalid_param');
      assert.ok(param in res.body.data.params, res.text);
      assert.match(res.headers.get('content-type')!, /^application\/json/);
    };
    await bad({ start_date: 'not a date' }, 'start_date');
    await bad({ categories: 'no-such-category' }, 'categories');
    await bad({ per_page: 0 }, 'per_page');
    await bad({ featured: 'maybe' }, 'featured');
  });

  it('category and tag archive addresses answer their events; unknown ones are 404', async () => {
    assert.deepEqual(titles(await getFeed(srv(), '/events/category/arts/')), ['Opera night']);
    assert.deepEqual(titles(await getFeed(srv(), '/events/category/arts/opera/')), ['Opera night']);
    const opera = await getFeed(srv(), '/events/category/arts/opera/');
    assert.equal(opera.calendar.getFirstPropertyValue('name'), 'Calendar Server: Opera');
    assert.deepEqual(titles(await getFeed(srv(), '/tag/loud/')), ['Opera night']);
    for (const path of ['/events/category/opera/', '/events/category/nope/', '/tag/nope/', '/event/nope/']) {
      const res = await srv().get(`${srv().origin}${path}`, { query: { ical: 1 } });
      expectRestError(res, 404, 'rest_feed_not_found');
    }
  });

  it('a draft event has no feed; a published one has, at its address and at its route', async () => {
    const draft = await makeEvent(srv(), { title: 'Draft', status: 'draft' });
    expectRestError(
      await srv().get(`${srv().origin}/event/${draft.slug}/`, { query: { ical: 1 } }),
      404,
      'rest_feed_not_found',
    );
    const viaRoute = await srv().get(`/feeds/events/${made.plain!.slug}`);
    const viaSite = await srv().get(`${srv().origin}/event/${made.plain!.slug}/?ical=1`);
    assert.equal(viaRoute.status, 200);
    assert.equal(viaRoute.text, viaSite.text);
    assert.deepEqual(titles(parseFeed(viaRoute.text)), ['Plain talk']);
  });

  it('without ?ical the site addresses are what they were', async () => {
    expectRestError(await srv().get(`${srv().origin}/events/`), 404, 'rest_no_route');
    const page = await srv().get(`${srv().origin}/event/${made.plain!.slug}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^application\/json/);
  });

  it('GET /events links to the feed of the same filters', async () => {
    const res = await srv().get('/events', { query: { tags: 'loud', search: 'opera', per_page: 5 } });
    assert.equal(res.status, 200);
    const feed = `${srv().config.siteUrl}/events/?ical=1&search=opera&tags=loud`;
    assert.ok(
      res.headers.get('link')!.includes(`<${feed}>; rel="alternate"; type="text/calendar"`),
      res.headers.get('link')!,
    );
    const followed = await srv().get(feed.replace(srv().config.siteUrl, srv().origin));
    assert.deepEqual(titles(parseFeed(followed.text)), ['Opera night']);
  });

  it('ETag and 304, gzip like the JSON reads', async () => {
    const url = `${srv().origin}/events/?ical=1`;
    const first = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"/);
    const body = await first.text();
    assert.equal(parseFeed(body).events.size, 3);
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const zipped = await srv().request('GET', url, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.text, body, 'the client decompresses to the same feed');
    const raw = await import('node:http').then(
      (http) =>
        new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
          http
            .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
            })
            .on('error', reject);
        }),
    );
    assert.equal(raw.encoding, 'gzip');
    assert.equal(gunzipSync(raw.bytes).toString('utf8'), body);
    // A write makes the stored feed stale: the next answer is built again.
    await makeEvent(srv(), { title: 'Newcomer' });
    const after = await fetch(url, { headers: { 'if-none-match': etag } });
    assert.equal(after.status, 200);
    assert.ok((await after.text()).includes('Newcomer'));
  });

  it('_fields and _envelope leave a feed as it is; HEAD answers without a body', async () => {
    const plain = await srv().get(`${srv().origin}/events/`, { query: { ical: 1 } });
    const shaping: Record<string, string>[] = [{ _fields: 'id' }, { _envelope: '1' }];
    for (const query of shaping) {
      const res = await srv().get(`${srv().origin}/events/`, { query: { ical: 1, ...query } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/calendar; charset=utf-8');
      assert.equal(res.text, plain.text);
    }
    const head = await srv().request('HEAD', `${srv().origin}/events/?ical=1`);
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/calendar; charset=utf-8');
    assert.equal(head.text, '');
  });

  it('/doc and discovery describe the feeds', async () => {
    const doc = await srv().get('/doc');
    const op = doc.body.paths['/feeds/events'].get;
    assert.ok(op.summary.includes('?ical=1'));
    assert.deepEqual(Object.keys(op.responses['200'].content), ['text/calendar']);
    assert.ok(op.parameters.some((p: Json) => p.name === 'categories'));
    assert.ok(doc.body.paths['/feeds/events/{slug}'].get);
    assert.ok(doc.body.paths['/feeds/categories/{path}'].get);
    assert.ok(doc.body.paths['/feeds/tags/{slug}'].get);
    const index = await srv().get('');
    const route = index.body.routes['/calendar/events/v1/feeds/events'];
    assert.deepEqual(route.methods, ['GET']);
    assert.equal(route.endpoints[0].args.per_page.maximum, undefined);
    assert.equal(route.endpoints[0].args.per_page.default, 100);
  });
});

forEachBackend('iCalendar feeds of recurring series', (srv) => {
  it('a series is one VEVENT per occurrence in the window, at the wall time of its zone across DST', async () => {
    const parent = await makeSeries(srv(), {
      title: 'Feed yoga',
      timezone: 'Europe/Paris',
      start_date: '2027-03-16 10:00:00',
      end_date: '2027-03-16 11:00:00',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=5', exdates: ['2027-04-06'] },
    });
    const moved = (await occurrences(srv(), parent.id)).find((e) => e.start_date.startsWith('2027-03-30'));
    const edit = await srv().post(`/events/${moved.id}`, {
      as: 'administrator',
      json: { start_date: '2027-03-30 12:00:00', end_date: '2027-03-30 13:00:00' },
    });
    assert.equal(edit.status, 200, edit.text);

    const feed = await getFeed(srv(), '/events/', {
      start_date: '2027-03-01',
      end_date: '2027-04-30',
      search: 'Feed yoga',
    });
    const vevents = [...feed.events.values()].map((vevent) => new ICAL.Event(vevent));
    assert.ok(
      vevents.every((event) => !event.isRecurring()),
      'no RRULE: the occurrences are listed',
    );
    const starts = vevents.map((event) => [event.startDate.zone.tzid, event.startDate.toString()]).sort();
    assert.deepEqual(starts, [
      ['Europe/Paris', '2027-03-16T10:00:00'],
      ['Europe/Paris', '2027-03-23T10:00:00'],
      ['Europe/Paris', '2027-03-30T12:00:00'],
      ['Europe/Paris', '2027-04-13T10:00:00'],
    ]);
    const utc = vevents.map((event) => event.startDate.toUnixTime()).sort();
    assert.deepEqual(
      utc.map((t) => DateTime.fromSeconds(t, { zone: 'utc' }).toFormat('MM-dd HH:mm')),
      ['03-16 09:00', '03-23 09:00', '03-30 10:00', '04-13 08:00'],
    );
    for (const json of [parent, ...(await occurrences(srv(), parent.id))]) {
      const vevent = feed.events.get(uidOf(srv(), json.id));
      assert.ok(vevent, `occurrence ${json.start_date} in the feed`);
      assertMatchesJson(srv(), vevent, (await srv().get(`/events/${json.id}`)).body);
    }

    const one = await getFeed(srv(), `/event/${parent.slug}/`);
    assert.deepEqual([...one.events.keys()], [uidOf(srv(), parent.id)]);
  });
});
