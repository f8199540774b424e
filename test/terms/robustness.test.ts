import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { makeTerm, termRows } from './fixtures.js';

forEachBackend('categories and tags: hostile input never gives a 500', (srv) => {
  it('NUL characters are dropped from names and descriptions', async () => {
    const res = await srv().post('/tags', {
      as: 'editor',
      json: { name: 'a\u0000b', description: 'x\u0000y', slug: 's\u0000t' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, 'ab');
    assert.equal(res.body.description, 'xy');
    assert.equal(res.body.slug, 'st');
    const update = await srv().request('PATCH', `/tags/${res.body.id}`, { as: 'editor', json: { name: 'c\u0000d' } });
    assert.equal(update.body.name, 'cd');
  });

  it('NUL characters in list filters match nothing instead of failing', async () => {
    await makeTerm(srv(), 'tags', { name: 'Plain' });
    for (const query of [{ search: 'Pl\u0000ain', hide_empty: '0' }, { slug: 'a\u0000b' }] as Array<
      Record<string, string>
    >) {
      const res = await srv().get('/tags', { query });
      assert.equal(res.status, 200, res.text);
    }
    assert.equal((await srv().get('/tags', { query: { search: 'Pl\u0000ain', hide_empty: '0' } })).body.total, 1);
    expectRestError(
      await srv().get('/tags', { query: { include: 'a\u0000b' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): include',
    );
  });

  it('IDs beyond the integer range are unknown IDs, not errors', async () => {
    const huge = '99999999999999999999';
    expectRestError(await srv().get(`/tags/${huge}`), 400, 'rest_invalid_param', 'Invalid parameter(s): id');
    for (const name of ['include', 'exclude', 'event', 'post']) {
      expectRestError(
        await srv().get('/tags', { query: { [name]: huge } }),
        400,
        'rest_invalid_param',
        `Invalid parameter(s): ${name}`,
      );
    }
    expectRestError(
      await srv().get('/categories', { query: { parent: huge } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): parent',
    );
    const before = await termRows(srv());
    expectRestError(
      await srv().post('/categories', { as: 'editor', json: { name: 'Huge parent', parent: Number(huge) } }),
      400,
      'rest_invalid_param',
    );
    expectRestError(
      await srv().request('PATCH', `/categories/${huge}`, { as: 'editor', json: { parent: 3 } }),
      400,
      'rest_invalid_param',
    );
    assert.deepEqual(await termRows(srv()), before);
  });

  it('a page number beyond any possible total is an empty page with the real totals', async () => {
    const res = await srv().get('/tags', { query: { page: '99999999999999999999', hide_empty: '0' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.tags, []);
    // The tags created by the tests above.
    assert.equal(res.body.total, 2);
    assert.equal(res.body.next_rest_url, undefined);
  });

  it('objects and nested arrays where scalars belong are 400', async () => {
    for (const [path, json] of [
      ['/tags', { name: { a: 1 } }],
      ['/tags', { name: 'ok name', description: ['x'] }],
      ['/categories', { name: 'ok name', parent: { id: 1 } }],
      ['/categories', { name: 'ok name', slug: { s: 1 } }],
    ] as const) {
      const res = await srv().post(path, { as: 'editor', json });
      expectRestError(res, 400, 'rest_invalid_param');
    }
    for (const query of [
      { 'include[a]': '1' },
      { 'order[]': 'asc' },
      { 'orderby[x]': 'name' },
      { 'event[]': '1' },
    ] as Array<Record<string, string>>) {
      expectRestError(await srv().get('/categories', { query }), 400, 'rest_invalid_param');
    }
  });
});
