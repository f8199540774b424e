import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { purgeTrash } from '../../src/resources/post-like/trash.js';
import { dataVersion, insertEvent, makeTerm, termRows } from './fixtures.js';

forEachBackend('GET, update and DELETE /categories/{id} and /tags/{id}', (srv) => {
  async function expectNothingWritten(attempt: () => Promise<TestResponse>): Promise<TestResponse> {
    const before = await termRows(srv());
    const links = await srv().db.selectFrom('event_terms').selectAll().orderBy('event_id').orderBy('term_id').execute();
    const version = await dataVersion(srv());
    const res = await attempt();
    assert.deepEqual(await termRows(srv()), before);
    assert.deepEqual(
      await srv().db.selectFrom('event_terms').selectAll().orderBy('event_id').orderBy('term_id').execute(),
      links,
    );
    assert.equal(await dataVersion(srv()), version);
    return res;
  }

  const update = (
    method: string,
    path: string,
    json: unknown,
    as: 'editor' | 'author' | 'subscriber' | 'contributor' | 'administrator' = 'editor',
  ) => srv().request(method, path, { as, json });

  it('GET single returns the term with _links and the published count', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'Readable', description: 'Some text' });
    await insertEvent(srv(), { termIds: [tag.id] });
    await insertEvent(srv(), { termIds: [tag.id] });
    await insertEvent(srv(), { status: 'draft', termIds: [tag.id] });
    await insertEvent(srv(), { status: 'trash', termIds: [tag.id] });
    const res = await srv().get(`/tags/${tag.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ...tag, count: 2 });
    assert.equal(res.headers.get('allow'), 'GET');
    const editor = await srv().get(`/tags/${tag.id}/`, { as: 'editor' });
    assert.equal(editor.status, 200);
    assert.equal(editor.headers.get('allow'), 'GET, POST, PUT, PATCH, DELETE');
  });

  it('unknown IDs, 0 and IDs of the other taxonomy are 400 rest_invalid_param; non-digits are 404', async () => {
    const cat = await makeTerm(srv(), 'categories', { name: 'Other taxonomy' });
    for (const path of ['/tags/999999', '/tags/0', `/tags/${cat.id}`]) {
      const res = await srv().get(path);
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): id');
      assert.deepEqual(res.body.data.params, { id: 'Invalid parameter.' });
    }
    expectRestError(await srv().get('/categories/foo'), 404, 'rest_no_route');
    expectRestError(await srv().get('/categories/12abc'), 404, 'rest_no_route');
  });

  it('POST, PUT and PATCH update only the fields they name; renaming keeps the slug', async () => {
    const term = await makeTerm(srv(), 'categories', { name: 'Original', description: 'Keep me' });
    const renamed = await update('POST', `/categories/${term.id}`, { name: 'Renamed & more' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed &amp; more');
    assert.equal(renamed.body.slug, 'original');
    assert.equal(renamed.body.description, 'Keep me');
    assert.deepEqual(renamed.body._links.self, [{ href: `${srv().root}/categories/${term.id}` }]);
    const described = await update('PUT', `/categories/${term.id}`, { description: 'New <b>text</b><div>x</div>' });
    assert.equal(described.body.description, 'New <b>text</b>x');
    assert.equal(described.body.name, 'Renamed &amp; more');
    const reslugged = await update('PATCH', `/categories/${term.id}`, { slug: 'Fresh Slug' });
    assert.equal(reslugged.body.slug, 'fresh-slug');
    assert.equal(reslugged.body.url, `${srv().config.siteUrl}/events/category/fresh-slug/`);
    const stored = await srv().db.selectFrom('terms').selectAll().where('id', '=', term.id).executeTakeFirstOrThrow();
    assert.deepEqual(stored, {
      id: term.id,
      taxonomy: 'tribe_events_cat',
      name: 'Renamed &amp; more',
      slug: 'fresh-slug',
      description: 'New <b>text</b>x',
      parent: 0,
      event_count: 0,
    });
  });

  it('an update naming no field answers 200 with the term unchanged', async () => {
    const term = await makeTerm(srv(), 'tags', { name: 'Untouched' });
    const res = await update('POST', `/tags/${term.id}`, {});
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, term);
  });

  it('an empty description clears it (decisions.md O9)', async () => {
    const term = await makeTerm(srv(), 'tags', { name: 'Clearable', description: 'Text' });
    const res = await update('PATCH', `/tags/${term.id}`, { description: '' });
    assert.equal(res.body.description, '');
    const nulled = await makeTerm(srv(), 'tags', { name: 'Nullable', description: 'Text' });
    assert.equal((await update('PATCH', `/tags/${nulled.id}`, { description: null })).body.description, '');
  });

  it('parent moves a category; 0 moves it to the top level; url, urls.up and descendants follow', async () => {
    const a = await makeTerm(srv(), 'categories', { name: 'Move A' });
    const b = await makeTerm(srv(), 'categories', { name: 'Move B' });
    const child = await makeTerm(srv(), 'categories', { name: 'Move Child', parent: a.id });
    const grandchild = await makeTerm(srv(), 'categories', { name: 'Move Grandchild', parent: child.id });
    const moved = await update('POST', `/categories/${child.id}`, { parent: b.id });
    assert.equal(moved.body.parent, b.id);
    assert.equal(moved.body.urls.up, `${srv().root}/categories/${b.id}`);
    assert.equal(moved.body.url, `${srv().config.siteUrl}/events/category/move-b/move-child/`);
    assert.equal(
      (await srv().get(`/categories/${grandchild.id}`)).body.url,
      `${srv().config.siteUrl}/events/category/move-b/move-child/move-grandchild/`,
    );
    const top = await update('POST', `/categories/${child.id}`, { parent: 0 });
    assert.equal(top.body.parent, 0);
    assert.equal(top.body.urls.up, undefined);
    assert.equal(top.body._links.up, undefined);
    assert.equal(top.body.url, `${srv().config.siteUrl}/events/category/move-child/`);
  });

  it('a parent that is the category itself or a descendant is 400, as are unknown parents and tags', async () => {
    const a = await makeTerm(srv(), 'categories', { name: 'Loop A' });
    const b = await makeTerm(srv(), 'categories', { name: 'Loop B', parent: a.id });
    const c = await makeTerm(srv(), 'categories', { name: 'Loop C', parent: b.id });
    const tag = await makeTerm(srv(), 'tags', { name: 'Loop tag' });
    for (const parent of [a.id, b.id, c.id, 999999, tag.id, -1, 'x', '']) {
      const res = await expectNothingWritten(() => update('POST', `/categories/${a.id}`, { parent }));
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): parent');
    }
  });

  it('tags refuse a parent on update', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'No parent please' });
    const res = await expectNothingWritten(() => update('PATCH', `/tags/${tag.id}`, { parent: 0, name: 'Changed' }));
    expectRestError(
      res,
      400,
      'rest_taxonomy_not_hierarchical',
      'Cannot set parent term, taxonomy is not hierarchical.',
    );
  });

  it('a slug taken by another term is 400 duplicate_term_slug unless the parent changes too', async () => {
    const taken = await makeTerm(srv(), 'categories', { name: 'Taken' });
    const parent = await makeTerm(srv(), 'categories', { name: 'New home' });
    const mover = await makeTerm(srv(), 'categories', { name: 'Mover' });
    const res = await expectNothingWritten(() =>
      update('PUT', `/categories/${mover.id}`, { slug: 'Taken', name: 'Not applied' }),
    );
    expectRestError(res, 400, 'duplicate_term_slug', 'The slug &#8220;taken&#8221; is already in use by another term.');
    assert.deepEqual(res.body.data, { status: 400 });
    const same = await update('PUT', `/categories/${taken.id}`, { slug: 'taken' });
    assert.equal(same.body.slug, 'taken');
    const moved = await update('PUT', `/categories/${mover.id}`, { slug: 'taken', parent: parent.id });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.slug, 'taken-new-home');
  });

  it('a slug that sanitizes to nothing is regenerated from the name', async () => {
    const term = await makeTerm(srv(), 'tags', { name: 'Regenerate me', slug: 'something-else' });
    const res = await update('POST', `/tags/${term.id}`, { slug: '!!!', name: 'New Name' });
    assert.equal(res.body.slug, 'new-name');
  });

  it('update input is validated: empty name, slug, non-string description, long names', async () => {
    const term = await makeTerm(srv(), 'tags', { name: 'Validated' });
    for (const [field, value] of [
      ['name', ''],
      ['name', '0'],
      ['name', 3],
      ['name', 'z'.repeat(201)],
      ['slug', ''],
      ['description', 4],
    ] as const) {
      const res = await expectNothingWritten(() => update('PATCH', `/tags/${term.id}`, { [field]: value }));
      expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${field}`);
    }
    for (const name of ['   ', '<i></i>']) {
      const res = await expectNothingWritten(() => update('PATCH', `/tags/${term.id}`, { name }));
      expectRestError(res, 400, 'empty_term_name', 'A name is required for this term.');
    }
    const bad = await srv().request('PATCH', '/tags/999999', { as: 'subscriber', json: { name: 'x' } });
    expectRestError(bad, 400, 'rest_invalid_param', 'Invalid parameter(s): id');
  });

  it('renaming does not check for duplicate names', async () => {
    await makeTerm(srv(), 'tags', { name: 'Twin' });
    const other = await makeTerm(srv(), 'tags', { name: 'Not twin' });
    const res = await update('POST', `/tags/${other.id}`, { name: 'Twin' });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'Twin');
  });

  it('the path ID names the target even when the body carries an id', async () => {
    const target = await makeTerm(srv(), 'tags', { name: 'Path target' });
    const other = await makeTerm(srv(), 'tags', { name: 'Body target' });
    const res = await update('POST', `/tags/${target.id}`, { id: other.id, description: 'via path' });
    assert.equal(res.body.id, target.id);
    assert.equal((await srv().get(`/tags/${other.id}`)).body.description, '');
  });

  it('update and delete need the same capability as create', async () => {
    const cat = await makeTerm(srv(), 'categories', { name: 'Guarded category' });
    const tag = await makeTerm(srv(), 'tags', { name: 'Guarded tag' });
    for (const [role, path, status] of [
      ['subscriber', `/categories/${cat.id}`, 403],
      ['contributor', `/categories/${cat.id}`, 403],
      ['author', `/tags/${tag.id}`, 403],
      ['contributor', `/tags/${tag.id}`, 403],
    ] as const) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await expectNothingWritten(() =>
          srv().request(method, path, { as: role, json: { name: 'Hacked' } }),
        );
        expectRestError(res, status, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
      }
    }
    for (const method of ['PATCH', 'DELETE']) {
      const res = await expectNothingWritten(() =>
        srv().request(method, `/tags/${tag.id}`, { json: { name: 'Hacked' } }),
      );
      expectRestError(res, 401, 'rest_forbidden');
    }
    assert.equal((await update('PATCH', `/categories/${cat.id}`, { name: 'Author edit' }, 'author')).status, 200);
  });

  it('_method overrides the method', async () => {
    const term = await makeTerm(srv(), 'tags', { name: 'Overridden' });
    const res = await srv().request('POST', `/tags/${term.id}`, { as: 'editor', query: { _method: 'DELETE' } });
    assert.equal(res.status, 200);
    expectRestError(await srv().get(`/tags/${term.id}`), 400, 'rest_invalid_param');
  });

  it('DELETE removes the term for good and answers with the term as it was, without _links', async () => {
    const parent = await makeTerm(srv(), 'categories', { name: 'Doomed parent' });
    const doomed = await makeTerm(srv(), 'categories', { name: 'Doomed', parent: parent.id });
    const keep = await makeTerm(srv(), 'categories', { name: 'Survivor' });
    const e1 = await insertEvent(srv(), { termIds: [doomed.id, keep.id] });
    await insertEvent(srv(), { termIds: [doomed.id] });
    const version = await dataVersion(srv());
    const res = await srv().request('DELETE', `/categories/${doomed.id}`, { as: 'author', query: { force: 'false' } });
    assert.equal(res.status, 200);
    const { _links, ...withoutLinks } = doomed;
    assert.ok(_links);
    assert.deepEqual(res.body, { ...withoutLinks, count: 2 });
    assert.ok((await dataVersion(srv())) > version, 'the write moved the data version');
    assert.equal(
      await srv().db.selectFrom('terms').select('id').where('id', '=', doomed.id).executeTakeFirst(),
      undefined,
    );
    const left = await srv()
      .db.selectFrom('event_terms')
      .select(['event_id', 'term_id'])
      .where('event_id', '=', e1)
      .execute();
    assert.deepEqual(
      left.map((r) => Number(r.term_id)),
      [keep.id],
    );
    assert.equal((await srv().get(`/categories/${keep.id}`)).body.count, 1);
    const again = await srv().request('DELETE', `/categories/${doomed.id}`, { as: 'author' });
    expectRestError(again, 400, 'rest_invalid_param', 'Invalid parameter(s): id');
  });

  it('deleting a category moves its direct children to its parent; deeper descendants keep theirs', async () => {
    const top = await makeTerm(srv(), 'categories', { name: 'Tree top' });
    const mid = await makeTerm(srv(), 'categories', { name: 'Tree mid', parent: top.id });
    const low = await makeTerm(srv(), 'categories', { name: 'Tree low', parent: mid.id });
    const leaf = await makeTerm(srv(), 'categories', { name: 'Tree leaf', parent: low.id });
    await insertEvent(srv(), { termIds: [low.id] });
    assert.equal((await srv().request('DELETE', `/categories/${mid.id}`, { as: 'editor' })).status, 200);
    const lowAfter = await srv().get(`/categories/${low.id}`);
    assert.equal(lowAfter.body.parent, top.id);
    assert.equal(lowAfter.body.slug, 'tree-low');
    assert.equal(lowAfter.body.count, 1);
    assert.equal(lowAfter.body.url, `${srv().config.siteUrl}/events/category/tree-top/tree-low/`);
    const leafAfter = await srv().get(`/categories/${leaf.id}`);
    assert.equal(leafAfter.body.parent, low.id);
    assert.equal(leafAfter.body.url, `${srv().config.siteUrl}/events/category/tree-top/tree-low/tree-leaf/`);
    assert.equal((await srv().request('DELETE', `/categories/${top.id}`, { as: 'editor' })).status, 200);
    assert.equal((await srv().get(`/categories/${low.id}`)).body.parent, 0);
  });

  it('DELETE of an unknown ID is 400 before permissions; of a tag on /categories too', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'Wrong route' });
    for (const as of ['subscriber', undefined] as const) {
      const res = await srv().request('DELETE', '/categories/999999', as ? { as } : {});
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): id');
    }
    const wrong = await expectNothingWritten(() => srv().request('DELETE', `/categories/${tag.id}`, { as: 'editor' }));
    expectRestError(wrong, 400, 'rest_invalid_param');
    const tagDelete = await srv().request('DELETE', `/tags/${tag.id}`, { as: 'editor' });
    assert.equal(tagDelete.status, 200);
    assert.deepEqual(Object.keys(tagDelete.body), [
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'meta',
      'url',
      'urls',
    ]);
  });
});

forEachBackend('categories and tags: counts, links and request features', (srv) => {
  it('count follows the status of the events carrying the term', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'Status follower' });
    const event = await insertEvent(srv(), { status: 'draft', termIds: [tag.id] });
    const count = async () => (await srv().get(`/tags/${tag.id}`)).body.count;
    assert.equal(await count(), 0);
    for (const [status, expected] of [
      ['publish', 1],
      ['private', 0],
      ['pending', 0],
      ['future', 0],
      ['publish', 1],
      ['trash', 0],
    ] as const) {
      // A scheduled event counts once published; its publication time lies ahead here.
      const date = status === 'future' ? { date_utc: '2099-01-01 00:00:00' } : {};
      await srv()
        .db.updateTable('posts')
        .set({ status, ...date })
        .where('id', '=', event)
        .execute();
      assert.equal(await count(), expected, status);
    }
    await srv().db.updateTable('posts').set({ status: 'publish' }).where('id', '=', event).execute();
    await srv().db.deleteFrom('posts').where('id', '=', event).execute();
    assert.equal(await count(), 0);
  });

  it('count follows every API write: term changes, status changes, trash, restore, schedule and purge', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'Write follower' });
    const cat = await makeTerm(srv(), 'categories', { name: 'Write follower cat' });
    const counts = async () => [
      (await srv().get(`/tags/${tag.id}`)).body.count,
      (await srv().get(`/categories/${cat.id}`)).body.count,
    ];
    const write = async (method: string, path: string, json: Record<string, unknown>) => {
      const res = await srv().request(method, path, { as: 'editor', json });
      assert.ok(
        res.status === 200 || res.status === 201,
        `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`,
      );
      return res.body;
    };
    const dates = { start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' };
    const a = await write('POST', '/events', { title: 'A', ...dates, tags: [tag.id], categories: [cat.id] });
    const b = await write('POST', '/events', { title: 'B', ...dates, status: 'draft', tags: [tag.id] });
    assert.deepEqual(await counts(), [1, 1]);
    await write('PATCH', `/events/${b.id}`, { status: 'publish' });
    assert.deepEqual(await counts(), [2, 1]);
    await write('PATCH', `/events/${a.id}`, { tags: [], categories: [] });
    assert.deepEqual(await counts(), [1, 0]);
    await write('PATCH', `/events/${a.id}`, { tags: [tag.id], categories: [cat.id], status: 'private' });
    assert.deepEqual(await counts(), [1, 0]);
    await write('PATCH', `/events/${a.id}`, { status: 'publish' });
    assert.deepEqual(await counts(), [2, 1]);
    assert.equal((await srv().request('DELETE', `/events/${a.id}`, { as: 'editor' })).status, 200);
    assert.deepEqual(await counts(), [1, 0]);
    await write('PATCH', `/events/${a.id}`, { status: 'publish' });
    assert.deepEqual(await counts(), [2, 1]);
    // Scheduled: counted once its publication time has passed and a read publishes it.
    const c = await write('POST', '/events', { title: 'C', ...dates, date: '2099-01-01 00:00:00', tags: [tag.id] });
    assert.equal(c.status, 'future');
    assert.deepEqual(await counts(), [2, 1]);
    await srv().db.updateTable('posts').set({ date_utc: '2020-01-01 00:00:00' }).where('id', '=', c.id).execute();
    assert.equal((await srv().get(`/events/${c.id}`)).body.status, 'publish');
    assert.deepEqual(await counts(), [3, 1]);
    // Trashed and purged: the links go with the record, the counts stay right.
    assert.equal((await srv().request('DELETE', `/events/${b.id}`, { as: 'editor' })).status, 200);
    await srv()
      .db.transaction()
      .execute((trx) => purgeTrash(trx, 0));
    assert.deepEqual(await counts(), [2, 1]);
    assert.equal(
      (await srv().db.selectFrom('event_terms').select('term_id').where('event_id', '=', b.id).execute()).length,
      0,
    );
  });

  it('links keep the language segment the request came in on', async () => {
    const cat = await makeTerm(srv(), 'categories', { name: 'Idioma' });
    const esRoot = `${srv().config.siteUrl}/es/wp-json/calendar/events/v1`;
    const list = await srv().get(`${srv().origin}/es/wp-json/calendar/events/v1/categories`, {
      query: { hide_empty: '0', per_page: 1 },
    });
    assert.equal(list.status, 200);
    assert.equal(list.body.rest_url, `${esRoot}/categories/?per_page=1&hide_empty=0`);
    const single = await srv().get(`${srv().origin}/es/wp-json/calendar/events/v1/categories/${cat.id}`);
    assert.equal(single.body.urls.self, `${esRoot}/categories/${cat.id}`);
    assert.deepEqual(single.body._links.collection, [{ href: `${esRoot}/categories` }]);
    assert.equal(single.body.url, `${srv().config.siteUrl}/events/category/idioma/`);
  });

  it('_fields and _envelope work on term routes', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'Fielded' });
    const res = await srv().get(`/tags/${tag.id}`, { query: { _fields: 'id,name' } });
    assert.deepEqual(res.body, { id: tag.id, name: 'Fielded' });
    const list = await srv().get('/tags', {
      query: { _fields: 'total,tags.slug', search: 'fielded', hide_empty: '0' },
    });
    assert.deepEqual(list.body, { total: 1, tags: [{ slug: 'fielded' }] });
    const enveloped = await srv().get('/tags/999999', { query: { _envelope: '1' } });
    assert.equal(enveloped.status, 200);
    assert.equal(enveloped.body.status, 400);
    assert.equal(enveloped.body.body.code, 'rest_invalid_param');
  });

  it('Allow lists the methods the caller may use', async () => {
    const allow = async (path: string, as?: 'author' | 'editor') =>
      (await srv().get(path, as ? { as } : {})).headers.get('allow');
    assert.equal(await allow('/categories'), 'GET');
    assert.equal(await allow('/categories', 'author'), 'GET, POST');
    assert.equal(await allow('/tags', 'author'), 'GET');
    assert.equal(await allow('/tags', 'editor'), 'GET, POST');
  });

  it('PUT with a form body updates like JSON', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'Form target' });
    const res = await srv().request('PUT', `/tags/${tag.id}`, {
      as: 'editor',
      form: { description: 'Set by form', slug: 'form-slug' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.description, 'Set by form');
    assert.equal(res.body.slug, 'form-slug');
  });
});
