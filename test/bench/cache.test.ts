import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database, Db, Trx } from '../../src/db/tables.js';
import { ResponseCache, etagOf, matchesIfNoneMatch } from '../../src/http/cache.js';
import { defaultSettings } from '../../src/settings.js';
import { daysFromNow, makeEvent } from '../events/helpers.js';
import { forEachBackend, type TestServer } from '../support/server.js';

/** The read endpoints whose responses go through the response cache (src/http/cache.ts). */
const CACHED_READS = [
  '/events',
  '/events/(?P<id>\\d+)',
  '/events/by-slug/(?P<slug>[^/]+)',
  '/venues',
  '/venues/(?P<id>\\d+)',
  '/venues/by-slug/(?P<slug>[^/]+)',
  '/organizers',
  '/organizers/(?P<id>\\d+)',
  '/organizers/by-slug/(?P<slug>[^/]+)',
  '/categories',
  '/categories/(?P<id>\\d+)',
  '/tags',
  '/tags/(?P<id>\\d+)',
];

const ids = (res: { body: any }) => (res.body.events as Array<{ id: number }>).map((e) => e.id);

/** Moves `data_version` as a write of another process would, without changing any data. */
const announceWrite = (db: Db) => sql`update data_version set version = version + 1 where id = 1`.execute(db);

/**
 * Runs a write behind the service's back that no cache can see: `data_version`, which the triggers
 * moved (migration 21), is put back as it was.
 */
async function unannounced(db: Db, write: (trx: Trx) => Promise<unknown>) {
  await db.transaction().execute(async (trx) => {
    const versions = await trx.selectFrom('data_version').selectAll().execute();
    await write(trx);
    for (const { id, version } of versions)
      await trx.updateTable('data_version').set({ version }).where('id', '=', id).execute();
  });
}

/** Changes a title behind the service's back, as another process would; `announced: false`: unseen by caches. */
async function retitle(srv: TestServer, id: number, title: string, announced: boolean) {
  const write = (trx: Trx) => trx.updateTable('posts').set({ title }).where('id', '=', id).execute();
  await (announced ? srv.db.transaction().execute(write) : unannounced(srv.db, write));
}

describe('If-None-Match matching', () => {
  it('matches the strong tag, its weak form, one of a list, and *', () => {
    const tag = etagOf(Buffer.from('{"a":1}'));
    assert.match(tag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal(matchesIfNoneMatch(tag, tag), true);
    assert.equal(matchesIfNoneMatch(`W/${tag}`, tag), true);
    assert.equal(matchesIfNoneMatch(`"other", ${tag}`, tag), true);
    assert.equal(matchesIfNoneMatch('*', tag), true);
    assert.equal(matchesIfNoneMatch('"other"', tag), false);
    assert.equal(matchesIfNoneMatch(undefined, tag), false);
  });
});

describe('data_version reads of the response cache', () => {
  it('a lookup never uses a version read that started before it, even when reads are shared', async () => {
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const reads: Array<{ resolve(version: number): void }> = [];
    let stored = 4;
    const db = {
      selectFrom: kysely.selectFrom.bind(kysely),
      // Each read sees the version stored when it started, and finishes when the test says so.
      executeQuery: () => {
        const seen = stored;
        return new Promise((resolve) => reads.push({ resolve: () => resolve({ rows: [{ version: seen }] }) }));
      },
    } as unknown as Db;
    // Tag versions are read after a version that moved; none are needed here.
    const cache = new ResponseCache(db, { readTags: async () => new Map() });
    const request = {
      method: 'GET',
      lang: '',
      url: '/wp-json/calendar/events/v1/events',
      user: null,
      settings: defaultSettings(),
      lifetime: 'clock' as const,
    };
    const turn = () => new Promise((r) => setImmediate(r));
    // Lookups that arrive together share one read, started after the last of them.
    const first = cache.open(request);
    const second = cache.open(request);
    assert.equal(reads.length, 0, 'the read waits for the lookups arriving with the first');
    await turn();
    assert.equal(reads.length, 1);
    stored = 5; // a write commits while that read is running
    const third = cache.open(request);
    const fourth = cache.open(request);
    reads[0]!.resolve(0);
    const a = await first;
    assert.equal(a.fill(200, {}, Buffer.from('"a"')).version, 4);
    assert.equal(
      (await second).hit?.body?.toString(),
      '"a"',
      'the lookup that shared the read is answered by the entry its sibling built',
    );
    await turn();
    assert.equal(reads.length, 2, 'lookups made while a read runs get the next one, which they share');
    reads[1]!.resolve(0);
    const c = await third;
    assert.equal(c.hit, null, 'an entry built under version 4 is not served at version 5');
    assert.equal(c.fill(200, {}, Buffer.from('"c"')).version, 5);
    assert.equal((await fourth).hit?.body?.toString(), '"c"');
    await kysely.destroy();
  });
});

forEachBackend('response cache', (srv) => {
  it('declares every public read endpoint cacheable, and no write endpoint', () => {
    const declared = srv().built.app.routes.flatMap((route) =>
      route.endpoints.filter((ep) => ep.cache).map((ep) => ({ pattern: route.pattern, methods: ep.methods })),
    );
    for (const pattern of CACHED_READS) {
      assert.ok(
        declared.some((d) => d.pattern === pattern),
        `GET ${pattern} should be declared with a cache lifetime`,
      );
    }
    for (const d of declared) assert.deepEqual(d.methods, ['GET'], `${d.pattern}: only GET endpoints may be cached`);
  });

  it('a cached read carries an ETag, and If-None-Match with it answers 304 without a body', async () => {
    await makeEvent(srv(), { title: 'Tagged', status: 'publish' });
    const first = await srv().get('/events');
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.ok(etag, 'ETag header missing');
    const again = await srv().get('/events', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.headers.get('etag'), etag);
    const other = await srv().get('/events', { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(other.status, 200);
    assert.deepEqual(other.body, first.body);
  });

  it('a cached answer holds text of two, three and four UTF-8 bytes a character exactly, with its length', async () => {
    const title = 'Café – 20 € 🎉 東京';
    const { id } = await makeEvent(srv(), { title, status: 'publish' });
    // Uncompressed, so that the length is the text's (compression.test.ts covers gzip answers).
    const miss = await srv().get(`/events/${id}`, { headers: { 'accept-encoding': 'identity' } });
    const hit = await srv().get(`/events/${id}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(miss.status, 200);
    assert.equal(miss.body.title, title);
    assert.equal(hit.text, miss.text, 'the stored bytes decode to the text that was built');
    assert.equal(Number(hit.headers.get('content-length')), Buffer.byteLength(miss.text));
    assert.equal(hit.headers.get('etag'), miss.headers.get('etag'));
  });

  it('reads that follow the clock are reused within the second; the rest until the next write', async () => {
    const venue = await srv().request('POST', '/venues', { as: 'administrator', json: { venue: 'Clockwork Hall' } });
    assert.equal(venue.status, 201, venue.text);
    const event = await makeEvent(srv(), {
      title: 'Before',
      status: 'publish',
      start_date: daysFromNow(3),
      end_date: daysFromNow(3, '11:00:00'),
      venue: venue.body.id,
    });
    const titles = async (path: string, query: Record<string, string | number> = {}) => {
      const res = await srv().get(path, { query });
      assert.equal(res.status, 200, `${path} ${res.text}`);
      return path === '/venues'
        ? res.body.venues.map((v: { venue: string }) => v.venue)
        : (res.body.events ?? [res.body]).map((e: { title: string }) => e.title);
    };
    const reads = {
      // A relative bound and `only_with_upcoming` read the clock to the second.
      relative: () => titles('/events', { starts_after: '-1 day' }),
      upcoming: () => titles('/venues', { only_with_upcoming: 1 }),
      // Fixed bounds, `include` and a plain venue list do not read it; the default window is whole UTC days.
      fixed: () => titles('/events', { start_date: '2000-01-01', end_date: '2100-12-31' }),
      included: () => titles('/events', { include: event.id }),
      byDefault: () => titles('/events'),
      venues: () => titles('/venues'),
      single: () => titles(`/events/${event.id}`),
    };
    const names = Object.keys(reads) as Array<keyof typeof reads>;
    const readAll = async () =>
      Object.fromEntries(await Promise.all(names.map(async (name) => [name, await reads[name]()])));
    const day = () => new Date().toISOString().slice(0, 10);
    const firstDay = day();
    const builtAt = Date.now();
    const before = await readAll();
    for (const name of names)
      assert.ok(
        before[name].includes(name === 'venues' || name === 'upcoming' ? 'Clockwork Hall' : 'Before'),
        `${name}: ${before[name]}`,
      );
    // Changes that do not move data_version are invisible to the cache...
    await retitle(srv(), event.id, 'Unannounced', false);
    await retitle(srv(), venue.body.id, 'Quiet Hall', false);
    const unchanged = await readAll();
    // ...within the second for reads that follow the clock: on a loaded machine that second may be over.
    const withinTheSecond = Date.now() - builtAt < 1000;
    for (const name of names) {
      if (withinTheSecond || (name !== 'relative' && name !== 'upcoming'))
        assert.deepEqual(unchanged[name], before[name], name);
    }
    // ...until the second is over for reads that follow the clock, and until the next write for the others.
    await new Promise((r) => setTimeout(r, 1100));
    const later = await readAll();
    assert.ok(
      later.relative.includes('Unannounced') && !later.relative.includes('Before'),
      `relative: ${later.relative}`,
    );
    assert.ok(
      later.upcoming.includes('Quiet Hall') && !later.upcoming.includes('Clockwork Hall'),
      `upcoming: ${later.upcoming}`,
    );
    for (const name of ['fixed', 'included', 'venues', 'single'] as const)
      assert.deepEqual(later[name], before[name], name);
    if (day() === firstDay)
      assert.deepEqual(later.byDefault, before.byDefault, 'the default window is the same all day');
    await announceWrite(srv().db);
    const written = await readAll();
    for (const name of names)
      assert.ok(
        !written[name].includes('Before') && !written[name].includes('Clockwork Hall'),
        `${name}: ${written[name]}`,
      );
  });

  it('client errors of cached reads are kept like answers, without an ETag, until the next write', async () => {
    const window = { start_date: '2041-02-01', end_date: '2041-02-28' };
    const event = await makeEvent(srv(), {
      title: 'Alone',
      status: 'publish',
      start_date: '2041-02-10 10:00:00',
      end_date: '2041-02-10 11:00:00',
    });
    const pastEnd = () => srv().get('/events', { query: { ...window, per_page: 1, page: 2 } });
    const first = await pastEnd();
    assert.equal(first.status, 404, first.text);
    assert.equal(first.body.code, 'event-archive-page-not-found');
    assert.equal(first.headers.get('etag'), null);
    assert.equal(first.headers.get('content-type'), 'application/json; charset=UTF-8');
    // A second event written behind the cache's back: the stored 404 stands until a write is seen.
    await unannounced(srv().db, async (trx) => {
      const { id } = await trx
        .insertInto('posts')
        .values({
          ...(await trx.selectFrom('posts').selectAll().where('id', '=', event.id).executeTakeFirstOrThrow()),
          id: undefined,
          slug: 'alone-twin',
        } as any)
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await trx.selectFrom('events').selectAll().where('post_id', '=', event.id).executeTakeFirstOrThrow();
      await trx
        .insertInto('events')
        .values({ ...row, post_id: id })
        .execute();
    });
    const again = await pastEnd();
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, first.body);
    const revalidated = await srv().get('/events', {
      query: { ...window, per_page: 1, page: 2 },
      headers: { 'if-none-match': '*' },
    });
    assert.equal(revalidated.status, 404, 'an error is never a 304');
    await announceWrite(srv().db);
    const after = await pastEnd();
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.total, 2);
    assert.ok(after.headers.get('etag'));
  });

  it('a scheduled event going live is seen by the next cached read of any kind', async () => {
    const tag = await srv().request('POST', '/tags', { as: 'editor', json: { name: 'Going live' } });
    assert.equal(tag.status, 201);
    const scheduled = await makeEvent(srv(), { title: 'Soon', date: '2099-01-01 00:00:00', tags: [tag.body.id] });
    assert.equal(scheduled.status, 'future');
    assert.equal((await srv().get(`/tags/${tag.body.id}`)).body.count, 0);
    // Its publication time passes without any write: the read itself publishes it first.
    await srv()
      .db.updateTable('posts')
      .set({ date_utc: '2020-01-01 00:00:00' })
      .where('id', '=', scheduled.id)
      .execute();
    assert.equal((await srv().get(`/tags/${tag.body.id}`)).body.count, 1);
  });

  it('a write from another process (data_version bumped) is seen by the next read', async () => {
    const event = await makeEvent(srv(), { title: 'Original', status: 'publish' });
    const before = await srv().get(`/events/${event.id}`);
    const list = await srv().get('/events', { query: { include: event.id } });
    assert.equal(list.body.events[0].title, 'Original');
    await retitle(srv(), event.id, 'Changed elsewhere', true);
    assert.equal((await srv().get(`/events/${event.id}`)).body.title, 'Changed elsewhere');
    assert.equal(
      (await srv().get('/events', { query: { include: event.id } })).body.events[0].title,
      'Changed elsewhere',
    );
    const revalidated = await srv().get(`/events/${event.id}`, {
      headers: { 'if-none-match': before.headers.get('etag')! },
    });
    assert.equal(revalidated.status, 200);
    assert.notEqual(revalidated.headers.get('etag'), before.headers.get('etag'));
  });

  it('concurrent reads started after a write all see it', async () => {
    const event = await makeEvent(srv(), { title: 'Round 0', status: 'publish' });
    for (let round = 1; round <= 3; round++) {
      const before = Array.from({ length: 10 }, () => srv().get(`/events/${event.id}`));
      await retitle(srv(), event.id, `Round ${round}`, true);
      const after = await Promise.all(Array.from({ length: 20 }, () => srv().get(`/events/${event.id}`)));
      assert.deepEqual([...new Set(after.map((res) => res.body.title))], [`Round ${round}`]);
      await Promise.all(before);
    }
  });

  it('a created event is in the next list read, anonymous and authenticated', async () => {
    const anonymous = await srv().get('/events', { query: { per_page: 50 } });
    const editor = await srv().get('/events', { as: 'editor', query: { per_page: 50 } });
    const created = await makeEvent(srv(), {
      title: 'Fresh',
      status: 'publish',
      start_date: daysFromNow(1),
      end_date: daysFromNow(1, '11:00:00'),
    });
    const anonymousAfter = await srv().get('/events', { query: { per_page: 50 } });
    const editorAfter = await srv().get('/events', { as: 'editor', query: { per_page: 50 } });
    assert.ok(ids(anonymousAfter).includes(created.id));
    assert.ok(ids(editorAfter).includes(created.id));
    assert.equal(anonymousAfter.body.total, anonymous.body.total + 1);
    assert.equal(editorAfter.body.total, editor.body.total + 1);
  });

  it('a list total counted for one page is recounted after a write, on any page of the same filter', async () => {
    await makeEvent(srv(), {
      title: 'Counted first',
      status: 'publish',
      start_date: daysFromNow(2),
      end_date: daysFromNow(2, '11:00:00'),
    });
    const first = await srv().get('/events', { query: { per_page: 1, page: 1 } });
    const total = Number(first.body.total);
    await makeEvent(srv(), {
      title: 'Counted',
      status: 'publish',
      start_date: daysFromNow(2),
      end_date: daysFromNow(2, '11:00:00'),
    });
    const second = await srv().get('/events', { query: { per_page: 1, page: 2 } });
    assert.equal(second.status, 200);
    assert.equal(Number(second.headers.get('x-tec-total')), total + 1);
    assert.equal(second.body.total, total + 1);
  });

  it('an update is in the next single, by-slug and list read, anonymous and authenticated, and revalidation sees it', async () => {
    const event = await makeEvent(srv(), { title: 'Old title', status: 'publish' });
    const single = await srv().get(`/events/${event.id}`);
    const bySlug = await srv().get(`/events/by-slug/${event.slug}`);
    await srv().get(`/events/${event.id}`, { as: 'editor' });
    await srv().get('/events', { query: { include: event.id } });
    const updated = await srv().post(`/events/${event.id}`, { as: 'administrator', json: { title: 'New title' } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal((await srv().get(`/events/${event.id}`)).body.title, 'New title');
    assert.equal((await srv().get(`/events/${event.id}`, { as: 'editor' })).body.title, 'New title');
    assert.equal((await srv().get(`/events/by-slug/${event.slug}`)).body.title, 'New title');
    assert.equal((await srv().get('/events', { query: { include: event.id } })).body.events[0].title, 'New title');
    for (const [path, before] of [
      [`/events/${event.id}`, single],
      [`/events/by-slug/${event.slug}`, bySlug],
    ] as const) {
      const res = await srv().get(path, { headers: { 'if-none-match': before.headers.get('etag')! } });
      assert.equal(res.status, 200, `${path} answered ${res.status} to a stale ETag`);
      assert.equal(res.body.title, 'New title');
    }
  });

  it('a deleted event leaves the next list and single reads', async () => {
    const event = await makeEvent(srv(), { title: 'Doomed', status: 'publish' });
    assert.equal((await srv().get(`/events/${event.id}`)).status, 200);
    assert.ok(ids(await srv().get('/events', { query: { include: event.id } })).includes(event.id));
    await srv().get(`/events/${event.id}`, { as: 'editor' });
    const deleted = await srv().request('DELETE', `/events/${event.id}`, { as: 'administrator' });
    assert.equal(deleted.status, 200, deleted.text);
    // A trashed event is 403 event-no-longer-available for every caller (events.md 3.2).
    assert.equal((await srv().get(`/events/${event.id}`)).status, 403);
    assert.equal((await srv().get(`/events/${event.id}`, { as: 'editor' })).body.code, 'event-no-longer-available');
    assert.deepEqual(ids(await srv().get('/events', { query: { include: event.id } })), []);
  });

  it('anonymous and authenticated callers never share an entry', async () => {
    const draft = await makeEvent(srv(), { title: 'Private draft', status: 'draft' }, 'editor');
    const query = { include: draft.id };
    const asEditor = await srv().get('/events', { as: 'editor', query });
    assert.deepEqual(ids(asEditor), [draft.id]);
    assert.match(asEditor.headers.get('cache-control') ?? '', /no-store/);
    const anonymous = await srv().get('/events', { query });
    assert.deepEqual(ids(anonymous), []);
    assert.equal(anonymous.headers.get('cache-control'), null);
    assert.deepEqual(ids(await srv().get('/events', { as: 'editor', query })), [draft.id]);
    assert.equal((await srv().get(`/events/${draft.id}`, { as: 'editor' })).status, 200);
    assert.notEqual((await srv().get(`/events/${draft.id}`)).status, 200);
  });

  it('a bad credential is 401 even when the same read is cached', async () => {
    const editor = await srv().user('editor');
    assert.equal((await srv().get('/events', { as: editor })).status, 200);
    assert.equal((await srv().get('/events', { as: editor })).status, 200);
    const wrong = {
      ...editor,
      header: `Basic ${Buffer.from(`${editor.login}:wrong password here`).toString('base64')}`,
    };
    const res = await srv().get('/events', { as: wrong });
    assert.equal(res.status, 401, res.text);
  });

  it('_fields and _envelope are part of the key', async () => {
    await makeEvent(srv(), { title: 'Fielded', status: 'publish' });
    const full = await srv().get('/events');
    const fields = await srv().get('/events', { query: { _fields: 'id' } });
    assert.deepEqual(Object.keys(fields.body), []);
    const eventsOnly = await srv().get('/events', { query: { _fields: 'events.id' } });
    assert.deepEqual(Object.keys(eventsOnly.body.events[0]), ['id']);
    const enveloped = await srv().get('/events', { query: { _envelope: '1' } });
    assert.deepEqual(Object.keys(enveloped.body), ['body', 'status', 'headers']);
    assert.deepEqual(enveloped.body.body, full.body);
    assert.deepEqual((await srv().get('/events')).body, full.body);
  });

  it('site settings are part of the key', async () => {
    for (let i = 0; i < 3; i++) await makeEvent(srv(), { title: `Paged ${i}`, status: 'publish' });
    assert.ok((await srv().get('/events')).body.events.length >= 3);
    await srv().setSetting('posts_per_page', '2');
    try {
      assert.equal((await srv().get('/events')).body.events.length, 2);
    } finally {
      await srv().setSetting('posts_per_page', '10');
    }
  });

  it('venues, organizers and categories created through an event are in the next reads', async () => {
    const names = (res: { body: any }, key: string, field: string) =>
      (res.body[key] as Array<Record<string, unknown>>).map((r) => r[field]);
    const venues = await srv().get('/venues', { query: { only_with_upcoming: 1, per_page: 50 } });
    assert.ok(
      !names(await srv().get('/organizers', { query: { per_page: 50 } }), 'organizers', 'organizer').includes(
        'Cache Society',
      ),
    );
    assert.ok(
      !names(await srv().get('/categories', { query: { per_page: 50 } }), 'categories', 'name').includes(
        'Cache Category',
      ),
    );
    const event = await makeEvent(srv(), {
      title: 'Linked',
      status: 'publish',
      venue: { venue: 'Cache Hall', city: 'Lyon' },
      organizer: [{ organizer: 'Cache Society' }],
      categories: ['Cache Category'],
    });
    const venuesAfter = await srv().get('/venues', { query: { only_with_upcoming: 1, per_page: 50 } });
    assert.ok(names(venuesAfter, 'venues', 'venue').includes('Cache Hall'));
    assert.equal(venuesAfter.body.total, (venues.body.total ?? 0) + 1);
    assert.ok(
      names(await srv().get('/organizers', { query: { per_page: 50 } }), 'organizers', 'organizer').includes(
        'Cache Society',
      ),
    );
    assert.ok(
      names(await srv().get('/categories', { query: { per_page: 50 } }), 'categories', 'name').includes(
        'Cache Category',
      ),
    );
    const venueId = event.venue.id as number;
    await srv().get(`/venues/${venueId}`);
    const renamed = await srv().post(`/venues/${venueId}`, {
      as: 'administrator',
      json: { venue: 'Cache Hall Renamed' },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await srv().get(`/venues/${venueId}`)).body.venue, 'Cache Hall Renamed');
    assert.equal((await srv().get(`/events/${event.id}`)).body.venue.venue, 'Cache Hall Renamed');
  });
});

forEachBackend(
  'response cache turned off (RESPONSE_CACHE_MB=0)',
  (srv) => {
    it('keeps no answer: a change no cache could see is in the next read', async () => {
      const event = await makeEvent(srv(), { title: 'Kept nowhere', status: 'publish' });
      const read = async () => (await srv().get(`/events/${event.id}`)).body.title;
      assert.equal(await read(), 'Kept nowhere');
      assert.equal(await read(), 'Kept nowhere');
      await retitle(srv(), event.id, 'Seen at once', false);
      assert.equal(await read(), 'Seen at once');
    });
  },
  { RESPONSE_CACHE_MB: '0' },
);
