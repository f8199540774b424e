import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { dataVersion, makeTerm, termRows } from './fixtures.js';

forEachBackend('POST /categories and /tags', (srv) => {
  /** Asserts that a rejected write left the terms table and the data version as they were. */
  async function expectNothingWritten(attempt: () => Promise<TestResponse>): Promise<TestResponse> {
    const before = await termRows(srv());
    const version = await dataVersion(srv());
    const res = await attempt();
    assert.deepEqual(await termRows(srv()), before);
    assert.equal(await dataVersion(srv()), version);
    return res;
  }

  it('creates a category: 201, Location, the full representation with _links, count 0', async () => {
    const version = await dataVersion(srv());
    const res = await srv().post('/categories', {
      as: 'editor',
      json: { name: 'Concerts', description: 'Live <em>music</em>' },
    });
    assert.equal(res.status, 201);
    const id = res.body.id;
    assert.equal(res.headers.get('location'), `${srv().root}/categories/${id}`);
    assert.deepEqual(res.body, {
      id,
      count: 0,
      description: 'Live <em>music</em>',
      name: 'Concerts',
      slug: 'concerts',
      taxonomy: 'tribe_events_cat',
      parent: 0,
      meta: [],
      url: `${srv().config.siteUrl}/events/category/concerts/`,
      urls: { self: `${srv().root}/categories/${id}`, collection: `${srv().root}/categories` },
      _links: {
        self: [{ href: `${srv().root}/categories/${id}` }],
        collection: [{ href: `${srv().root}/categories` }],
      },
    });
    assert.deepEqual(Object.keys(res.body), [
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'parent',
      'meta',
      'url',
      'urls',
      '_links',
    ]);
    assert.ok((await dataVersion(srv())) > version, 'the write moved the data version');
    const stored = await srv().db.selectFrom('terms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(stored.taxonomy, 'tribe_events_cat');
    assert.equal(stored.parent, 0);
  });

  it('creates a tag without parent key; tag ids share the sequence with categories', async () => {
    const cat = await makeTerm(srv(), 'categories', { name: 'Sequence check' });
    const res = await srv().post('/tags', { as: 'editor', json: { name: 'Family friendly' } });
    assert.equal(res.status, 201);
    assert.ok(res.body.id > cat.id);
    assert.equal(res.headers.get('location'), `${srv().root}/tags/${res.body.id}`);
    assert.deepEqual(Object.keys(res.body), [
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'meta',
      'url',
      'urls',
      '_links',
    ]);
    assert.equal(res.body.taxonomy, 'post_tag');
    assert.equal(res.body.url, `${srv().config.siteUrl}/tag/family-friendly/`);
  });

  it('a category tree three levels deep: url carries every ancestor slug, urls.up and _links.up the parent', async () => {
    const a = await makeTerm(srv(), 'categories', { name: 'Level One' });
    const b = await makeTerm(srv(), 'categories', { name: 'Level Two', parent: a.id });
    const c = await makeTerm(srv(), 'categories', { name: 'Level Three', parent: b.id });
    assert.equal(c.parent, b.id);
    assert.equal(c.url, `${srv().config.siteUrl}/events/category/level-one/level-two/level-three/`);
    assert.equal(c.urls.up, `${srv().root}/categories/${b.id}`);
    assert.deepEqual(c._links.up, [{ embeddable: true, href: `${srv().root}/categories/${b.id}` }]);
    const read = await srv().get(`/categories/${c.id}`);
    assert.deepEqual(read.body, c);
  });

  it('names are sanitized: tags stripped, whitespace collapsed, & < > encoded once', async () => {
    const cases: Array<[string, string, string]> = [
      ['  Rock   &\tRoll  ', 'Rock &amp; Roll', 'rock-roll'],
      ['<b>Bold</b> move', 'Bold move', 'bold-move'],
      ['Caf\u00e9 Concert', 'Caf\u00e9 Concert', 'cafe-concert'],
      ['Tom &amp; Jerry', 'Tom &amp; Jerry', 'tom-jerry'],
      ['v1.0 Launch!', 'v1.0 Launch!', 'v1-0-launch'],
      ['a < b', 'a &lt; b', 'a-b'],
    ];
    for (const [input, name, slug] of cases) {
      const res = await srv().post('/tags', { as: 'editor', json: { name: input } });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.name, name);
      assert.equal(res.body.slug, slug);
    }
  });

  it('descriptions keep only the inline allow-list, not trimmed', async () => {
    const res = await srv().post('/categories', {
      as: 'editor',
      json: {
        name: 'Described',
        description: ' <p>Hi <a href="https://x.org" onclick="evil()">there</a></p><script>alert(1)</script> ',
      },
    });
    assert.equal(res.body.description, ' Hi <a href="https://x.org">there</a>alert(1) ');
  });

  it('a name whose slug is empty gets the term ID as slug', async () => {
    const res = await srv().post('/tags', { as: 'editor', json: { name: '!!!' } });
    assert.equal(res.status, 201);
    assert.equal(res.body.slug, String(res.body.id));
  });

  it('a supplied slug is sanitized; a taken one is silently made unique', async () => {
    const first = await srv().post('/tags', { as: 'editor', json: { name: 'Slug A', slug: 'My Slug' } });
    assert.equal(first.body.slug, 'my-slug');
    const second = await srv().post('/tags', { as: 'editor', json: { name: 'Slug B', slug: 'my-slug' } });
    assert.equal(second.status, 201);
    assert.equal(second.body.slug, 'my-slug-2');
    const third = await srv().post('/tags', { as: 'editor', json: { name: 'Slug C', slug: 'my-slug' } });
    assert.equal(third.body.slug, 'my-slug-3');
    // The same slug may exist once in each taxonomy.
    const cat = await srv().post('/categories', { as: 'editor', json: { name: 'Slug A', slug: 'my-slug' } });
    assert.equal(cat.body.slug, 'my-slug');
  });

  it('a duplicate tag name is 400 term_exists naming the existing tag', async () => {
    const jazz = await makeTerm(srv(), 'tags', { name: 'Jazzy' });
    for (const name of ['Jazzy', 'JAZZY']) {
      const res = await expectNothingWritten(() => srv().post('/tags', { as: 'editor', json: { name } }));
      expectRestError(res, 400, 'term_exists', 'A term with the name provided already exists in this taxonomy.');
      assert.deepEqual(res.body.data, { status: 400, term_id: jazz.id });
      assert.deepEqual(res.body.additional_data, [jazz.id, jazz.id]);
    }
    // A fresh slug allows a second tag with the same name (terms.md 5.3 step 2).
    const again = await srv().post('/tags', { as: 'editor', json: { name: 'Jazzy', slug: 'jazzy-other' } });
    assert.equal(again.status, 201);
    assert.equal(again.body.slug, 'jazzy-other');
  });

  it('a duplicate category name under the same parent is term_exists; under another parent the slug gets the parent slug', async () => {
    const music = await makeTerm(srv(), 'categories', { name: 'Sounds' });
    const rock = await makeTerm(srv(), 'categories', { name: 'Rocky' });
    const res = await expectNothingWritten(() => srv().post('/categories', { as: 'editor', json: { name: 'Rocky' } }));
    expectRestError(res, 400, 'term_exists', 'A term with the name provided already exists with this parent.');
    assert.deepEqual(res.body.data, { status: 400, term_id: rock.id });
    const lower = await expectNothingWritten(() =>
      srv().post('/categories', { as: 'editor', json: { name: 'rocky' } }),
    );
    expectRestError(lower, 400, 'term_exists');
    assert.equal(lower.body.data.term_id, rock.id);
    const child = await srv().post('/categories', { as: 'author', json: { name: 'Rocky', parent: music.id } });
    assert.equal(child.status, 201);
    assert.equal(child.body.slug, 'rocky-sounds');
    assert.equal(child.body.url, `${srv().config.siteUrl}/events/category/sounds/rocky-sounds/`);
    const grandchild = await srv().post('/categories', {
      as: 'editor',
      json: { name: 'Rocky', parent: child.body.id },
    });
    assert.equal(grandchild.body.slug, 'rocky-rocky-sounds');
  });

  it('name is required and must be a non-empty string of at most 200 characters', async () => {
    const missing = await expectNothingWritten(() =>
      srv().post('/categories', { as: 'editor', json: { description: 'x' } }),
    );
    expectRestError(missing, 400, 'rest_missing_callback_param', 'Missing parameter(s): name');
    assert.deepEqual(missing.body.data.params, ['name']);
    expectRestError(
      await srv().post('/tags', { as: 'editor', json: { name: null } }),
      400,
      'rest_missing_callback_param',
    );
    for (const name of ['', '0', 12, true, ['a'], 'x'.repeat(201)]) {
      const res = await expectNothingWritten(() => srv().post('/tags', { as: 'editor', json: { name } }));
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): name');
    }
    assert.equal((await srv().post('/tags', { as: 'editor', json: { name: 'y'.repeat(200) } })).status, 201);
  });

  it('a name empty after sanitation is 400 empty_term_name', async () => {
    for (const name of ['   ', '<b></b>', '%20']) {
      const res = await expectNothingWritten(() => srv().post('/categories', { as: 'editor', json: { name } }));
      expectRestError(res, 400, 'empty_term_name', 'A name is required for this term.');
      assert.deepEqual(res.body.data, { status: 400 });
    }
  });

  it('description and slug, when present, must be non-empty strings', async () => {
    for (const [field, value] of [
      ['description', ''],
      ['description', 5],
      ['slug', ''],
      ['slug', '0'],
      ['slug', 7],
    ] as const) {
      const res = await expectNothingWritten(() =>
        srv().post('/categories', { as: 'editor', json: { name: 'Fine name', [field]: value } }),
      );
      expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${field}`);
    }
  });

  it('a category parent must be an existing category', async () => {
    const tag = await makeTerm(srv(), 'tags', { name: 'Not a parent' });
    for (const parent of [0, '', 999999, tag.id, 'abc', 1.5]) {
      const res = await expectNothingWritten(() =>
        srv().post('/categories', { as: 'editor', json: { name: 'Orphan', parent } }),
      );
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): parent');
    }
  });

  it('a tag takes no parent at all, not even 0', async () => {
    for (const parent of [0, 5, 'x']) {
      const res = await expectNothingWritten(() =>
        srv().post('/tags', { as: 'editor', json: { name: 'Flat', parent } }),
      );
      expectRestError(
        res,
        400,
        'rest_taxonomy_not_hierarchical',
        'Cannot set parent term, taxonomy is not hierarchical.',
      );
    }
  });

  it('several invalid fields are reported together in declaration order', async () => {
    const res = await srv().post('/categories', {
      as: 'editor',
      json: { name: '', description: '', slug: '', parent: 0 },
    });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): name, description, slug, parent');
  });

  it('categories may be created by authors and above; tags by editors and above', async () => {
    const cases: Array<[string, 'categories' | 'tags', number]> = [
      ['subscriber', 'categories', 403],
      ['contributor', 'categories', 403],
      ['author', 'categories', 201],
      ['editor', 'categories', 201],
      ['administrator', 'categories', 201],
      ['subscriber', 'tags', 403],
      ['contributor', 'tags', 403],
      ['author', 'tags', 403],
      ['editor', 'tags', 201],
      ['administrator', 'tags', 201],
    ];
    for (const [role, collection, status] of cases) {
      const name = `By ${role} ${collection}`;
      const attempt = () => srv().post(`/${collection}`, { as: role as 'editor', json: { name } });
      if (status === 201) {
        assert.equal((await attempt()).status, 201, `${role} ${collection}`);
      } else {
        const res = await expectNothingWritten(attempt);
        expectRestError(res, 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
      }
    }
    const anonymous = await expectNothingWritten(() => srv().post('/tags', { json: { name: 'Anonymous' } }));
    expectRestError(anonymous, 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
  });

  it('validation is answered before authorization', async () => {
    expectRestError(await srv().post('/categories', { json: {} }), 400, 'rest_missing_callback_param');
    expectRestError(await srv().post('/tags', { as: 'subscriber', json: { name: '' } }), 400, 'rest_invalid_param');
  });

  it('form bodies and query parameters work as well as JSON', async () => {
    const form = await srv().post('/tags', { as: 'editor', form: { name: 'From a form', description: 'desc' } });
    assert.equal(form.status, 201);
    assert.equal(form.body.description, 'desc');
    const query = await srv().post('/categories', { as: 'editor', query: { name: 'From the query' } });
    assert.equal(query.status, 201);
    assert.equal(query.body.slug, 'from-the-query');
  });

  it('a malformed JSON body is 400 rest_invalid_json and writes nothing', async () => {
    const res = await expectNothingWritten(() =>
      srv().request('POST', '/categories', {
        as: 'editor',
        body: '{"name":',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expectRestError(res, 400, 'rest_invalid_json', 'Invalid JSON body passed.');
  });

  it('output-only fields sent on create are ignored', async () => {
    const res = await srv().post('/categories', {
      as: 'editor',
      json: { name: 'Ignoring', id: 5, count: 9, taxonomy: 'post_tag', meta: ['x'] },
    });
    assert.equal(res.status, 201);
    assert.notEqual(res.body.id, 5);
    assert.equal(res.body.count, 0);
    assert.equal(res.body.taxonomy, 'tribe_events_cat');
    assert.deepEqual(res.body.meta, []);
  });
});
