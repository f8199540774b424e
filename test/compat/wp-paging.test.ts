import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { soon } from '../docs/support.js';

const COLLECTIONS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
type Collection = (typeof COLLECTIONS)[number];
const COUNT = 5;
const PER_PAGE = 2;

/**
 * Generic WordPress REST clients (node-wpapi, for one) page by `X-WP-Total` / `X-WP-TotalPages`;
 * every list sends them beside TEC's `X-TEC-Total` / `X-TEC-TotalPages`, with the same values.
 */
forEachBackend('X-WP-Total and X-WP-TotalPages on every list', (srv) => {
  const created: Record<Collection, number[]> = { events: [], venues: [], organizers: [], categories: [], tags: [] };

  before(async () => {
    const create = async (path: string, json: Record<string, unknown>) => {
      const res = await srv().post(path, { as: 'administrator', json });
      assert.equal(res.status, 201, `${path}: ${res.text}`);
      return res.body.id as number;
    };
    for (let i = 0; i < COUNT; i++) {
      created.venues.push(await create('/venues', { venue: `Paging venue ${i}`, status: 'publish' }));
      created.organizers.push(await create('/organizers', { organizer: `Paging organizer ${i}`, status: 'publish' }));
      created.categories.push(await create('/categories', { name: `Paging category ${i}` }));
      created.tags.push(await create('/tags', { name: `Paging tag ${i}` }));
    }
    // Each event carries one category and one tag, so that the term lists' default hide_empty shows them all.
    for (let i = 0; i < COUNT; i++) {
      created.events.push(
        await create('/events', {
          title: `Paging event ${i}`,
          start_date: soon(10 + i, 19),
          end_date: soon(10 + i, 21),
          status: 'publish',
          categories: [created.categories[i]],
          tags: [created.tags[i]],
        }),
      );
    }
  });

  /** Pages as a client that knows only the WordPress headers: from page 1 to X-WP-TotalPages. */
  async function pageThrough(collection: Collection) {
    const ids: number[] = [];
    let totalPages = 1;
    let total: number | undefined;
    for (let page = 1; page <= totalPages; page++) {
      assert.ok(page <= 20, 'runaway paging');
      const res = await srv().get(`/${collection}`, { query: { per_page: PER_PAGE, page } });
      assert.equal(res.status, 200, `${collection} page ${page}: ${res.text}`);
      const wpTotal = res.headers.get('x-wp-total');
      const wpPages = res.headers.get('x-wp-totalpages');
      assert.match(wpTotal ?? '', /^\d+$/, `${collection} page ${page} X-WP-Total`);
      assert.match(wpPages ?? '', /^\d+$/, `${collection} page ${page} X-WP-TotalPages`);
      assert.equal(wpTotal, res.headers.get('x-tec-total'));
      assert.equal(wpPages, res.headers.get('x-tec-totalpages'));
      assert.equal(Number(wpTotal), res.body.total);
      assert.equal(Number(wpPages), res.body.total_pages);
      totalPages = Number(wpPages);
      total = Number(wpTotal);
      ids.push(...res.body[collection].map((record: { id: number }) => record.id));
    }
    return { ids, total, totalPages };
  }

  for (const collection of COLLECTIONS) {
    describe(`GET /${collection}`, () => {
      it(`a client paging by X-WP-TotalPages alone reaches every ${collection} record once`, async () => {
        const { ids, total, totalPages } = await pageThrough(collection);
        assert.equal(total, COUNT);
        assert.equal(totalPages, Math.ceil(COUNT / PER_PAGE));
        assert.equal(ids.length, COUNT, `duplicates or gaps: ${ids.join(',')}`);
        assert.deepEqual(
          [...ids].sort((a, b) => a - b),
          [...created[collection]].sort((a, b) => a - b),
        );
      });
    });
  }

  describe('every list shape', () => {
    it('an empty list sends X-WP-Total: 0 and X-WP-TotalPages: 0', async () => {
      for (const collection of COLLECTIONS) {
        const res = await srv().get(`/${collection}`, { query: { search: 'zzzznomatchzzzz' } });
        assert.equal(res.status, 200, `${collection}: ${res.text}`);
        assert.equal(res.headers.get('x-wp-total'), '0', collection);
        assert.equal(res.headers.get('x-wp-totalpages'), '0', collection);
        assert.equal(res.headers.get('x-tec-total'), '0', collection);
      }
    });

    it('a term page past the end still reports the true totals in both pairs', async () => {
      const res = await srv().get('/tags', { query: { per_page: PER_PAGE, page: 9 } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.tags, []);
      assert.equal(res.headers.get('x-wp-total'), String(COUNT));
      assert.equal(res.headers.get('x-wp-totalpages'), '3');
    });

    it('an error sends neither pair', async () => {
      const res = await srv().get('/events', { query: { per_page: PER_PAGE, page: 9 } });
      expectRestError(res, 404, 'event-archive-page-not-found');
      assert.equal(res.headers.get('x-wp-total'), null);
      assert.equal(res.headers.get('x-wp-totalpages'), null);
    });

    it('_envelope carries both pairs in its headers', async () => {
      for (const collection of COLLECTIONS) {
        const res = await srv().get(`/${collection}`, { query: { per_page: PER_PAGE, _envelope: '1' } });
        assert.equal(res.status, 200);
        assert.equal(res.body.status, 200);
        assert.equal(res.body.headers['X-WP-Total'], String(COUNT), collection);
        assert.equal(res.body.headers['X-WP-TotalPages'], '3', collection);
        assert.equal(res.body.headers['X-TEC-Total'], String(COUNT), collection);
        assert.equal(res.body.headers['X-TEC-TotalPages'], '3', collection);
      }
    });

    it('a browser client may read them (CORS expose list)', async () => {
      const res = await srv().get('/venues', { headers: { origin: 'https://app.example' } });
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim());
      for (const header of ['X-WP-Total', 'X-WP-TotalPages', 'X-TEC-Total', 'X-TEC-TotalPages'])
        assert.ok(exposed.includes(header), header);
      assert.equal(res.headers.get('x-wp-total'), String(COUNT));
    });

    it('/doc documents both pairs on every list', async () => {
      const doc = await srv().get('/doc');
      for (const collection of COLLECTIONS) {
        const headers = doc.body.paths[`/${collection}`].get.responses['200'].headers;
        for (const name of ['X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'X-WP-TotalPages']) {
          assert.deepEqual(headers[name]?.schema, { type: 'integer' }, `${collection} ${name}`);
        }
      }
    });
  });
});
