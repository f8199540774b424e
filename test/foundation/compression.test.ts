import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { rawRequest, type RawResponse } from '../../bench/processes.js';
import type { Database } from '../../src/db/tables.js';
import { ResponseCache } from '../../src/http/cache.js';
import { GZIP_LEVELS, GZIP_REPEATED_AFTER } from '../../src/http/compression.js';
import { defaultSettings } from '../../src/settings.js';
import { daysFromNow, makeEvent } from '../events/helpers.js';
import { forEachBackend, type TestServer } from '../support/server.js';

/** The answer's bytes as sent (the test server's `fetch` would decode a compressed body). */
function raw(
  srv: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(method, `${srv.origin}/wp-json/calendar/events/v1${path}`, headers);
}

const gzip = { 'accept-encoding': 'gzip' };
const identity = { 'accept-encoding': 'identity' };

/** A response cache over an empty database, at one version, compressing with `compress`. */
function storeWith(compress: (body: Buffer, level: number) => Promise<Buffer>) {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  const cache = new ResponseCache(db, { readVersion: async () => 1, readTags: async () => new Map(), compress });
  /** Stores `text` as the answer to `url`. */
  const fill = async (url: string, text: string) => {
    const request = {
      method: 'GET',
      lang: '',
      url,
      user: null,
      settings: defaultSettings(),
      lifetime: 'data' as const,
    };
    return { request, entry: (await cache.open(request)).fill(200, {}, Buffer.from(text)) };
  };
  return { db, cache, fill };
}

describe('a stored answer whose compression fails', () => {
  it('keeps its body and is compressed again by the next request that accepts gzip', async () => {
    let failures = 1;
    const { db, cache, fill } = storeWith(async (body: Buffer) => {
      if (failures-- > 0) throw new Error('out of memory');
      return gzipSync(body);
    });
    const text = JSON.stringify({ events: Array.from({ length: 40 }, (_, i) => ({ id: i, title: `Event ${i}` })) });
    const { request, entry } = await fill('/wp-json/calendar/events/v1/events', text);
    assert.equal(await cache.gzipped(entry), null, 'the failed compression gives no compressed form');
    assert.equal(entry.gzip, null);
    assert.equal((await cache.identity(entry)).toString(), text, 'the body is kept');
    const compressed = await cache.gzipped(entry);
    assert.ok(compressed, 'the next request compresses it');
    assert.equal(gunzipSync(compressed).toString(), text);
    assert.equal(entry.body, null, 'once compressed, only the compressed form is kept');
    assert.equal((await cache.identity(entry)).toString(), text);
    assert.equal((await cache.open(request)).hit, entry);
    await db.destroy();
  });
});

describe('a stored answer sent compressed again and again', () => {
  it('is first compressed at the fastest level, then once more at the repeated level, smaller, after the first sends', async () => {
    const levels: number[] = [];
    const { db, cache, fill } = storeWith(async (body: Buffer, level: number) => {
      levels.push(level);
      return gzipSync(body, { level });
    });
    const text = JSON.stringify({
      events: Array.from({ length: 200 }, (_, i) => ({
        id: i,
        title: `Event ${i}`,
        description: `<p>Day ${i % 7}</p>`,
      })),
    });
    const { entry } = await fill('/wp-json/calendar/events/v1/events?repeated=1', text);
    const first = (await cache.gzipped(entry))!;
    assert.deepEqual(levels, [GZIP_LEVELS.first]);
    assert.equal(entry.size, first.length, 'the entry is counted at its compressed size');
    for (let send = 1; send < GZIP_REPEATED_AFTER; send++) assert.equal(await cache.gzipped(entry), first);
    assert.deepEqual(levels, [GZIP_LEVELS.first], 'sent as first compressed until the repeated level is due');
    assert.equal(await cache.gzipped(entry), first, 'the send that starts it still gets the first form');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(levels, [GZIP_LEVELS.first, GZIP_LEVELS.repeated]);
    const again = (await cache.gzipped(entry))!;
    assert.ok(again.length < first.length, `${again.length} bytes against ${first.length}`);
    assert.equal(gunzipSync(again).toString(), text);
    assert.equal(entry.size, again.length, 'the entry is counted at its new size');
    for (let send = 0; send < 3 * GZIP_REPEATED_AFTER; send++) await cache.gzipped(entry);
    assert.equal(levels.length, 2, 'compressed again once only');
    assert.equal((await cache.identity(entry)).toString(), text);
    await db.destroy();
  });
});

forEachBackend('gzip answers of cached reads', (srv) => {
  const window = { start_date: '2043-03-01', end_date: '2043-03-31' };
  const list = `/events?start_date=${window.start_date}&end_date=${window.end_date}`;

  it('a list of 1 KiB or more is sent gzip-compressed to a client that accepts gzip, and decodes to the uncompressed answer', async () => {
    for (let day = 1; day <= 4; day++) {
      await makeEvent(srv(), {
        title: `Compressed ${day}`,
        status: 'publish',
        start_date: `2043-03-0${day} 10:00:00`,
        end_date: `2043-03-0${day} 11:00:00`,
      });
    }
    // The first read builds the answer; the next ones are served from the cache, in either coding.
    const built = await raw(srv(), 'GET', list, gzip);
    const plain = await raw(srv(), 'GET', list, identity);
    const again = await raw(srv(), 'GET', list, gzip);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(Number(plain.headers['content-length']), plain.body.length);
    assert.ok(plain.body.length > 2048, `an answer of ${plain.body.length} bytes`);
    const answer = JSON.parse(plain.body.toString('utf8'));
    assert.deepEqual(
      answer.events.map((e: { title: string }) => e.title),
      ['Compressed 1', 'Compressed 2', 'Compressed 3', 'Compressed 4'],
    );
    for (const res of [built, again]) {
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], 'gzip');
      assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
      assert.equal(Number(res.headers['content-length']), res.body.length);
      assert.ok(res.body.length < plain.body.length / 2, `${res.body.length} compressed bytes of ${plain.body.length}`);
      assert.deepEqual(gunzipSync(res.body), plain.body);
      assert.equal(res.headers['x-tec-total'], '4');
    }
    for (const res of [built, plain, again]) assert.equal(res.headers.vary, 'Accept-Encoding');
    // The same content in other bytes: the compressed answer's ETag is the weak form of the plain one's.
    assert.match(plain.headers.etag ?? '', /^"[A-Za-z0-9_-]+"$/);
    assert.equal(built.headers.etag, `W/${plain.headers.etag}`);
    assert.equal(again.headers.etag, built.headers.etag);
  });

  it('Accept-Encoding without gzip, or refusing it, gets the answer uncompressed; any coding or a weighted list with gzip gets it compressed', async () => {
    await makeEvent(srv(), {
      title: 'Negotiated',
      status: 'publish',
      start_date: daysFromNow(5),
      end_date: daysFromNow(5, '11:00:00'),
    });
    const coding = async (header: string | null) => {
      const res = await raw(srv(), 'GET', '/events', header === null ? {} : { 'accept-encoding': header });
      assert.equal(res.status, 200, header ?? 'no header');
      return res.headers['content-encoding'] ?? 'none';
    };
    assert.equal(await coding(null), 'none');
    assert.equal(await coding('identity'), 'none');
    assert.equal(await coding('br'), 'none');
    assert.equal(await coding('gzip;q=0, identity'), 'none');
    assert.equal(await coding('gzip'), 'gzip');
    assert.equal(await coding('*'), 'gzip');
    assert.equal(await coding('deflate, gzip;q=0.5, br;q=0.9'), 'gzip');
    assert.equal(await coding('GZIP'), 'gzip');
  });

  it('answers under 1 KiB, client errors included, go uncompressed even when gzip is accepted', async () => {
    await makeEvent(srv(), {
      title: 'Small',
      status: 'publish',
      start_date: '2044-05-02 10:00:00',
      end_date: '2044-05-02 11:00:00',
    });
    const pastEnd = await raw(srv(), 'GET', '/events?start_date=2044-05-01&end_date=2044-05-31&page=2', gzip);
    assert.equal(pastEnd.status, 404);
    assert.equal(pastEnd.headers['content-encoding'], undefined);
    assert.equal(pastEnd.headers.vary, 'Accept-Encoding');
    assert.equal(JSON.parse(pastEnd.body.toString('utf8')).code, 'event-archive-page-not-found');
    const tags = await raw(srv(), 'GET', '/tags', gzip);
    assert.equal(tags.status, 200);
    assert.ok(tags.body.length < 1024, `an empty tag list of ${tags.body.length} bytes`);
    assert.equal(tags.headers['content-encoding'], undefined);
    assert.match(tags.headers.etag ?? '', /^"/, 'an uncompressed answer keeps its strong ETag');
  });

  it('If-None-Match with either form of the ETag revalidates either coding, and HEAD announces the compressed length', async () => {
    const plain = await raw(srv(), 'GET', list, identity);
    const compressed = await raw(srv(), 'GET', list, gzip);
    const strong = plain.headers.etag!;
    const weak = compressed.headers.etag!;
    const revalidated = await raw(srv(), 'GET', list, { ...gzip, 'if-none-match': strong });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.body.length, 0);
    assert.equal(revalidated.headers.etag, weak);
    const plainRevalidated = await raw(srv(), 'GET', list, { ...identity, 'if-none-match': weak });
    assert.equal(plainRevalidated.status, 304);
    assert.equal(plainRevalidated.headers.etag, strong);
    const head = await raw(srv(), 'HEAD', list, gzip);
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-encoding'], 'gzip');
    assert.equal(Number(head.headers['content-length']), compressed.body.length);
  });

  it('a write is in the next compressed read of a list and of the event', async () => {
    const event = await makeEvent(srv(), {
      title: 'Before the write',
      status: 'publish',
      start_date: '2045-06-03 10:00:00',
      end_date: '2045-06-03 11:00:00',
    });
    const path = '/events?start_date=2045-06-01&end_date=2045-06-30';
    const decoded = async (p: string) => {
      const res = await raw(srv(), 'GET', p, gzip);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], 'gzip', p);
      return JSON.parse(gunzipSync(res.body).toString('utf8'));
    };
    assert.equal((await decoded(path)).events[0].title, 'Before the write');
    assert.equal((await decoded(`/events/${event.id}`)).title, 'Before the write');
    const updated = await srv().post(`/events/${event.id}`, {
      as: 'administrator',
      json: { title: 'After the write' },
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal((await decoded(path)).events[0].title, 'After the write');
    assert.equal((await decoded(`/events/${event.id}`)).title, 'After the write');
  });
});
