import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';

const COLLECTIONS = ['events', 'venues', 'organizers'] as const;
type Collection = (typeof COLLECTIONS)[number];

/** The list's records, by the envelope key of each collection. */
const itemsOf = (collection: Collection, body: any): number[] => body[collection].map((r: { id: number }) => r.id);

async function createRecord(srv: TestServer, collection: Collection, i: number, categories: number[]) {
  const json =
    collection === 'events'
      ? { title: `Changed ${i}`, start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00', categories }
      : { [collection === 'venues' ? 'venue' : 'organizer']: `Changed ${collection} ${i}` };
  const res = await srv.post(`/${collection}`, { as: 'administrator', json });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
}

forEachBackend('modified_after, modified_before and orderby=modified', (srv) => {
  const ids: Record<Collection, number[]> = { events: [], venues: [], organizers: [] };
  let category: number;

  before(async () => {
    const res = await srv().post('/categories', { as: 'administrator', json: { name: 'Changed' } });
    category = res.body.id;
    for (const collection of COLLECTIONS) {
      for (let i = 0; i < 3; i++) ids[collection].push(await createRecord(srv(), collection, i, [category]));
      // The last change of the first record is the newest: the list's own order and this one differ.
      for (const [n, day] of [
        [0, '03'],
        [1, '01'],
        [2, '02'],
      ] as const) {
        await srv()
          .db.updateTable('posts')
          .set({ modified_utc: `2030-01-${day} 12:00:00` })
          .where('id', '=', ids[collection][n]!)
          .execute();
      }
    }
  });

  for (const collection of COLLECTIONS) {
    describe(`GET /${collection}`, () => {
      const [first, second, third] = [0, 1, 2].map((n) => () => ids[collection][n]!);

      it('modified_after keeps records changed after the instant, the count agreeing', async () => {
        const res = await srv().get(`/${collection}`, {
          as: 'administrator',
          query: { modified_after: '2030-01-01 12:00:00', orderby: 'modified' },
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(itemsOf(collection, res.body), [first(), third()]);
        assert.equal(res.headers.get('x-wp-total'), '2');
      });

      it('modified_before keeps records changed before the instant; an ISO time with offset is read as that instant', async () => {
        const res = await srv().get(`/${collection}`, {
          as: 'administrator',
          query: { modified_before: '2030-01-02T14:00:00+02:00', orderby: 'modified' },
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(itemsOf(collection, res.body), [second()]);
      });

      it('orderby=modified lists the newest change first; links repeat the parameters', async () => {
        const res = await srv().get(`/${collection}`, {
          as: 'administrator',
          query: { orderby: 'modified', modified_after: '2029-12-31', per_page: 2 },
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(itemsOf(collection, res.body), [first(), third()]);
        assert.match(res.headers.get('link') ?? '', /modified_after=2029-12-31.*orderby=modified/);
        const next = await srv().get(`/${collection}`, {
          as: 'administrator',
          query: { orderby: 'modified', modified_after: '2029-12-31', per_page: 2, page: 2 },
        });
        assert.deepEqual(itemsOf(collection, next.body), [second()]);
      });

      for (const [name, bad] of [
        ['modified_after', 'tomorrow'],
        ['modified_after', 'not a date'],
        ['modified_before', '2030-13-45'],
      ] as const) {
        it(`${name}=${JSON.stringify(bad)} is rest_invalid_param invalid_date`, async () => {
          const res = await srv().get(`/${collection}`, { query: { [name]: bad } });
          expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${name}`);
          assert.equal(res.body.data.details[name].code, 'invalid_date');
        });
      }

      it('orderby other than modified is rest_invalid_param', async () => {
        const res = await srv().get(`/${collection}`, { query: { orderby: 'title' } });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): orderby');
      });
    });
  }

  it('GET /events keeps its date window under the modified filters', async () => {
    const res = await srv().post('/events', {
      as: 'administrator',
      json: { title: 'Far', start_date: '2035-05-01 10:00', end_date: '2035-05-01 11:00' },
    });
    assert.equal(res.status, 201, res.text);
    const listed = await srv().get('/events', { query: { modified_after: '2000-01-01', orderby: 'modified' } });
    assert.equal(listed.status, 200, listed.text);
    assert.ok(!itemsOf('events', listed.body).includes(res.body.id), 'past the two-year default window');
    assert.equal(listed.headers.get('x-tec-total'), '3');
  });

  it('GET /events with a category filter orders by the last change too', async () => {
    const res = await srv().get('/events', {
      as: 'administrator',
      query: { categories: category, orderby: 'modified', modified_after: '2030-01-01 00:00:00' },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(itemsOf('events', res.body), [ids.events[0], ids.events[2], ids.events[1]]);
    assert.equal(res.headers.get('x-tec-total'), '3');
  });
});
