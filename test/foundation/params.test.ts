import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';

forEachBackend('Shared parameter handling', (srv) => {
  it('missing required arguments are listed together in rest_missing_callback_param', async () => {
    const res = await srv().post('/events', { as: 'administrator', json: {} });
    expectRestError(res, 400, 'rest_missing_callback_param', 'Missing parameter(s): title, start_date, end_date');
    assert.deepEqual(res.body.data.params, ['title', 'start_date', 'end_date']);
  });

  it('validation runs before permission: anonymous create without a title is 400, not 401', async () => {
    expectRestError(
      await srv().post('/events', { json: { start_date: '2030-01-01 10:00:00' } }),
      400,
      'rest_missing_callback_param',
    );
  });

  it('invalid arguments are reported together with a reason each in rest_invalid_param', async () => {
    const res = await srv().get('/events', { query: { page: '0', featured: 'maybe' } });
    expectRestError(res, 400, 'rest_invalid_param');
    assert.equal(res.body.data.params.page, 'Invalid parameter.');
    assert.equal(res.body.message, 'Invalid parameter(s): page');
  });

  it('type failures carry rest_invalid_type details', async () => {
    const res = await srv().get('/events', { query: { featured: 'maybe' } });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): featured');
    assert.deepEqual(res.body.data.params, { featured: 'featured is not of type boolean.' });
    assert.deepEqual(res.body.data.details, {
      featured: { code: 'rest_invalid_type', message: 'featured is not of type boolean.', data: { param: 'featured' } },
    });
  });

  it('a page number beyond any integer is past the last page, never a 500', async () => {
    const huge = { page: '99999999999999999999' };
    expectRestError(await srv().get('/events', { query: huge }), 404, 'event-archive-page-not-found');
    expectRestError(await srv().get('/venues', { query: huge }), 404, 'venue-archive-page-not-found');
    expectRestError(await srv().get('/organizers', { query: huge }), 404, 'organizer-archive-page-not-found');
    for (const path of ['/categories', '/tags']) {
      const res = await srv().get(path, { query: huge });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-tec-total'), String(res.body.total));
    }
  });

  it('per_page above max_per_page is clamped silently', async () => {
    const res = await srv().get('/categories', { query: { per_page: '500', hide_empty: '0' } });
    assert.equal(res.status, 200);
    assert.match(res.body.rest_url, /per_page=500/);
  });

  it('NUL characters in input are dropped instead of failing the request', async () => {
    const res = await srv().get('/events', { query: { search: 'ja\u0000zz' } });
    assert.equal(res.status, 200);
    const created = await srv().post('/tags', { as: 'administrator', json: { name: 'No\u0000Nul' } });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'NoNul');
  });

  it('form-encoded bodies with bracket syntax are read like JSON bodies', async () => {
    const res = await srv().post('/categories', { as: 'administrator', form: 'name=Jazz%20Night&description=Late' });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, 'Jazz Night');
    assert.equal(res.body.description, 'Late');
  });

  it('comma lists and repeated keys both make arrays', async () => {
    const a = await srv().post('/tags', { as: 'administrator', json: { name: 'alpha' } });
    const b = await srv().post('/tags', { as: 'administrator', json: { name: 'beta' } });
    const comma = await srv().get('/tags', { query: { include: `${a.body.id},${b.body.id}`, hide_empty: '0' } });
    const repeated = await srv().get('/tags', { query: { include: [a.body.id, b.body.id], hide_empty: '0' } });
    assert.equal(comma.body.total, 2);
    assert.deepEqual(
      repeated.body.tags.map((t: { id: number }) => t.id),
      comma.body.tags.map((t: { id: number }) => t.id),
    );
  });
});
