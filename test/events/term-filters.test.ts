import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { purgeTrash } from '../../src/resources/post-like/trash.js';
import { forEachBackend, type TestServer } from '../support/server.js';

/** The listing columns `event_terms` copies from `events` (migration 06). */
const COPIED = [
  'status',
  'author',
  'hide_from_listings',
  'start_date',
  'end_date',
  'utc_start_date',
  'utc_end_date',
  'featured',
] as const;

/** Links whose copies differ from their event row. */
async function staleLinks(srv: TestServer): Promise<unknown[]> {
  const differs = sql.raw(COPIED.map((c) => `et.${c} is distinct from e.${c}`).join(' or '));
  const { rows } =
    await sql`select et.event_id, et.term_id from event_terms et join events e on e.post_id = et.event_id where ${differs}`.execute(
      srv.db,
    );
  return rows;
}

forEachBackend('GET /events category and tag filters', (srv) => {
  it('totals and pages of term filters follow every write of their events', async () => {
    const cat = await srv().request('POST', '/categories', { as: 'editor', json: { name: 'Filter follower' } });
    const tag = await srv().request('POST', '/tags', { as: 'editor', json: { name: 'Filter follower tag' } });
    assert.equal(cat.status, 201, cat.text);
    assert.equal(tag.status, 201, tag.text);
    const write = async (method: string, path: string, json: Record<string, unknown>) => {
      const res = await srv().request(method, path, { as: 'editor', json });
      assert.ok(res.status === 200 || res.status === 201, `${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    };
    const window = { start_date: '2031-03-01', end_date: '2031-03-31' };
    const inside = { start_date: '2031-03-10 10:00:00', end_date: '2031-03-10 11:00:00' };
    /** Total and page IDs of the category filter, the tag filter, both, and both with `featured`. */
    const lists = async () => {
      const one = async (query: Record<string, string | number>) => {
        const res = await srv().get('/events', { query: { ...window, per_page: 50, ...query } });
        assert.equal(res.status, 200, res.text);
        const ids = (res.body.events as Array<{ id: number }>).map((e) => e.id).sort((x, y) => x - y);
        assert.equal(res.body.total, ids.length, 'total and page agree');
        return ids;
      };
      return {
        cat: await one({ categories: cat.body.id }),
        tag: await one({ tags: tag.body.slug }),
        both: await one({ categories: cat.body.id, tags: tag.body.id }),
        featured: await one({ categories: cat.body.id, featured: 1 }),
      };
    };

    const a = await write('POST', '/events', { title: 'A', ...inside, categories: [cat.body.id], tags: [tag.body.id] });
    const b = await write('POST', '/events', { title: 'B', ...inside, categories: [cat.body.id], status: 'draft' });
    assert.deepEqual(await lists(), { cat: [a.id], tag: [a.id], both: [a.id], featured: [] });
    await write('PATCH', `/events/${b.id}`, { status: 'publish', featured: true });
    assert.deepEqual(await lists(), { cat: [a.id, b.id], tag: [a.id], both: [a.id], featured: [b.id] });
    // Dates moved out of the window and back.
    await write('PATCH', `/events/${a.id}`, { start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' });
    assert.deepEqual(await lists(), { cat: [b.id], tag: [], both: [], featured: [b.id] });
    await write('PATCH', `/events/${a.id}`, inside);
    assert.deepEqual((await lists()).cat, [a.id, b.id]);
    // Hidden from listings, unfeatured, private (not listed to anonymous callers), trashed.
    await write('PATCH', `/events/${a.id}`, { hide_from_listings: true });
    assert.deepEqual(await lists(), { cat: [b.id], tag: [], both: [], featured: [b.id] });
    await write('PATCH', `/events/${a.id}`, { hide_from_listings: false });
    await write('PATCH', `/events/${b.id}`, { featured: false, status: 'private' });
    assert.deepEqual(await lists(), { cat: [a.id], tag: [a.id], both: [a.id], featured: [] });
    assert.equal((await srv().request('DELETE', `/events/${a.id}`, { as: 'editor' })).status, 200);
    assert.deepEqual(await lists(), { cat: [], tag: [], both: [], featured: [] });
    await write('PATCH', `/events/${a.id}`, { status: 'publish' });
    await write('PATCH', `/events/${b.id}`, { status: 'publish', tags: [tag.body.id] });
    assert.deepEqual(await lists(), { cat: [a.id, b.id], tag: [a.id, b.id], both: [a.id, b.id], featured: [] });
    // Scheduled: listed once its publication time has passed and a read publishes it.
    const c = await write('POST', '/events', {
      title: 'C',
      ...inside,
      date: '2099-01-01 00:00:00',
      categories: [cat.body.id],
    });
    assert.equal(c.status, 'future');
    assert.deepEqual((await lists()).cat, [a.id, b.id]);
    await srv().db.updateTable('posts').set({ date_utc: '2020-01-01 00:00:00' }).where('id', '=', c.id).execute();
    assert.deepEqual((await lists()).cat, [a.id, b.id, c.id]);
    // Term links changed, then a record trashed and purged.
    await write('PATCH', `/events/${a.id}`, { categories: [], tags: [] });
    assert.deepEqual(await lists(), { cat: [b.id, c.id], tag: [b.id], both: [b.id], featured: [] });
    assert.equal((await srv().request('DELETE', `/events/${b.id}`, { as: 'editor' })).status, 200);
    await srv()
      .db.transaction()
      .execute((trx) => purgeTrash(trx, 0));
    assert.deepEqual(await lists(), { cat: [c.id], tag: [], both: [], featured: [] });
    assert.deepEqual(await staleLinks(srv()), []);
  });

  it('an event carrying several terms of one filter is counted once', async () => {
    const names = ['Twice one', 'Twice two'];
    const ids: number[] = [];
    for (const name of names) {
      const res = await srv().request('POST', '/categories', { as: 'editor', json: { name } });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    const dates = { start_date: '2032-06-10 10:00:00', end_date: '2032-06-10 11:00:00' };
    for (const categories of [ids, [ids[0]], [ids[1]]]) {
      const res = await srv().post('/events', { as: 'editor', json: { title: 'Twice', ...dates, categories } });
      assert.equal(res.status, 201, res.text);
    }
    const res = await srv().get('/events', {
      query: { start_date: '2032-06-01', end_date: '2032-06-30', categories: ids.join(',') },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.total, 3);
    assert.equal(res.headers.get('x-tec-total'), '3');
    assert.equal(res.body.events.length, 3);
  });

  it("pages read from a filter's links follow the list order, ties on the start included", async () => {
    const ids: number[] = [];
    for (const name of ['Paged one', 'Paged two']) {
      const res = await srv().request('POST', '/categories', { as: 'editor', json: { name } });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    // Nine events over four start times; several share one, told apart by publication date, then ID.
    const starts = [
      '2033-04-12 09:00:00',
      '2033-04-10 09:00:00',
      '2033-04-11 09:00:00',
      '2033-04-11 09:00:00',
      '2033-04-11 09:00:00',
      '2033-04-10 09:00:00',
      '2033-04-13 09:00:00',
      '2033-04-11 09:00:00',
      '2033-04-12 09:00:00',
    ];
    const published = [
      '2020-01-05',
      '2020-01-03',
      '2020-01-09',
      '2020-01-01',
      '2020-01-04',
      '2020-01-03',
      '2020-01-02',
      '2020-01-04',
      '2020-01-01',
    ];
    const expected: Array<{ id: number; key: string }> = [];
    for (const [i, start] of starts.entries()) {
      const categories = i % 3 === 0 ? ids : [ids[i % 2]!];
      const res = await srv().post('/events', {
        as: 'editor',
        json: {
          title: `Paged ${i}`,
          start_date: start,
          end_date: start.replace('09:', '10:'),
          date: `${published[i]} 12:00:00`,
          categories,
        },
      });
      assert.equal(res.status, 201, res.text);
      expected.push({ id: res.body.id, key: `${start} ${published[i]} ${String(res.body.id).padStart(9, '0')}` });
    }
    const order = expected.sort((a, b) => (a.key < b.key ? -1 : 1)).map((e) => e.id);
    const page = async (perPage: number, n: number) => {
      const res = await srv().get('/events', {
        query: {
          start_date: '2033-04-01',
          end_date: '2033-04-30',
          categories: ids.join(','),
          per_page: perPage,
          page: n,
        },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.total, 9);
      return (res.body.events as Array<{ id: number }>).map((e) => e.id);
    };
    assert.deepEqual(await page(50, 1), order);
    for (const perPage of [1, 2, 4]) {
      const pages: number[] = [];
      for (let n = 1; n <= Math.ceil(9 / perPage); n++) pages.push(...(await page(perPage, n)));
      assert.deepEqual(pages, order, `pages of ${perPage}`);
    }
  });
});
