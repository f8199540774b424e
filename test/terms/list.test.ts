import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';
import { insertEvent, insertPost, makeTerm } from './fixtures.js';

/**
 * Categories: Music > Jazz & Blues > Bebop, Music > Rock; Film; art; Zeta.
 * Published events: Jazz ×2, Bebop ×1, art ×1, Zeta ×1 (Zeta also on a draft). Rock only on a draft.
 * Tags: alpha (2 published), Beta (none), gamma (1 published, 1 draft), 100% pure (none).
 */
interface Data {
  music: number;
  jazz: number;
  bebop: number;
  rock: number;
  film: number;
  art: number;
  zeta: number;
  alpha: number;
  beta: number;
  gamma: number;
  pure: number;
  published: number;
  draft: number;
  venue: number;
}

async function seed(srv: TestServer): Promise<Data> {
  const cat = (json: Record<string, unknown>) => makeTerm(srv, 'categories', json).then((t) => t.id as number);
  const tag = (json: Record<string, unknown>) => makeTerm(srv, 'tags', json).then((t) => t.id as number);
  const music = await cat({ name: 'Music', description: 'b-desc' });
  const jazz = await cat({ name: 'Jazz & Blues', parent: music, description: 'a-desc' });
  const bebop = await cat({ name: 'Bebop', parent: jazz });
  const rock = await cat({ name: 'Rock', parent: music });
  const film = await cat({ name: 'Film' });
  const art = await cat({ name: 'art', description: 'C-desc' });
  const zeta = await cat({ name: 'Zeta', slug: 'aaa-zeta' });
  const alpha = await tag({ name: 'alpha' });
  const beta = await tag({ name: 'Beta' });
  const gamma = await tag({ name: 'gamma' });
  const pure = await tag({ name: '100% pure' });
  const published = await insertEvent(srv, { termIds: [zeta, jazz, alpha, gamma] });
  await insertEvent(srv, { termIds: [jazz, bebop, alpha] });
  await insertEvent(srv, { termIds: [art] });
  const draft = await insertEvent(srv, { status: 'draft', termIds: [rock, zeta, gamma] });
  const venue = await insertPost(srv, 'venue');
  return { music, jazz, bebop, rock, film, art, zeta, alpha, beta, gamma, pure, published, draft, venue };
}

const names = (res: { body: any }, key = 'categories') => res.body[key].map((t: any) => t.name);

forEachBackend('GET /categories and /tags', (srv) => {
  let d: Data;
  before(async () => {
    d = await seed(srv());
  });

  it('the default list hides empty categories but keeps empty ancestors of non-empty ones, sorted by name ignoring case', async () => {
    const res = await srv().get('/categories');
    assert.equal(res.status, 200);
    assert.deepEqual(names(res), ['art', 'Bebop', 'Jazz &amp; Blues', 'Music', 'Zeta']);
    // decisions.md O7: total counts exactly what a full listing shows.
    assert.equal(res.body.total, 5);
    assert.equal(res.body.total_pages, 1);
    assert.deepEqual(Object.keys(res.body), ['rest_url', 'total', 'total_pages', 'categories']);
    assert.equal(res.body.rest_url, `${srv().root}/categories/`);
    assert.equal(res.headers.get('x-tec-total'), '5');
    assert.equal(res.headers.get('x-tec-totalpages'), '1');
    assert.equal(res.headers.get('link'), `<${srv().base}/>; rel="https://api.w.org/"`);
  });

  it('list items carry every field in the reference key order, without _links', async () => {
    const res = await srv().get('/categories', { query: { include: String(d.bebop) } });
    assert.deepEqual(res.body.categories, [
      {
        id: d.bebop,
        count: 1,
        description: '',
        name: 'Bebop',
        slug: 'bebop',
        taxonomy: 'tribe_events_cat',
        parent: d.jazz,
        meta: [],
        url: `${srv().config.siteUrl}/events/category/music/jazz-blues/bebop/`,
        urls: {
          self: `${srv().root}/categories/${d.bebop}`,
          collection: `${srv().root}/categories`,
          up: `${srv().root}/categories/${d.jazz}`,
        },
      },
    ]);
    assert.deepEqual(Object.keys(res.body.categories[0]), [
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
    ]);
  });

  it('count is the number of published events only', async () => {
    const res = await srv().get('/categories', { query: { hide_empty: 'false', per_page: 50, orderby: 'id' } });
    const counts = Object.fromEntries(res.body.categories.map((t: any) => [t.id, t.count]));
    assert.deepEqual(counts, {
      [d.music]: 0,
      [d.jazz]: 2,
      [d.bebop]: 1,
      [d.rock]: 0,
      [d.film]: 0,
      [d.art]: 1,
      [d.zeta]: 1,
    });
  });

  it('hide_empty=false lists every term; tags hide terms without published events by default', async () => {
    const all = await srv().get('/categories', { query: { hide_empty: 'false' } });
    assert.equal(all.body.total, 7);
    assert.equal(all.body.categories.length, 7);
    const tags = await srv().get('/tags');
    assert.deepEqual(names(tags, 'tags'), ['alpha', 'gamma']);
    assert.equal(tags.body.total, 2);
    const tagItem = tags.body.tags[0];
    assert.deepEqual(Object.keys(tagItem), [
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
    assert.equal(tagItem.taxonomy, 'post_tag');
    assert.equal(tagItem.url, `${srv().config.siteUrl}/tag/alpha/`);
    assert.deepEqual(tagItem.urls, { self: `${srv().root}/tags/${d.alpha}`, collection: `${srv().root}/tags` });
    assert.equal(tagItem.count, 2);
    for (const value of ['0', 'FALSE', 0, 'False']) {
      const r = await srv().get('/tags', { query: { hide_empty: value as string } });
      assert.equal(r.body.total, 4, `hide_empty=${value}`);
    }
    for (const value of ['1', 'TRUE', 'true']) {
      const r = await srv().get('/tags', { query: { hide_empty: value } });
      assert.equal(r.body.total, 2, `hide_empty=${value}`);
    }
  });

  it('hide_empty that is not a boolean is 400 with the type message', async () => {
    for (const value of ['yes', '', '2']) {
      const res = await srv().get('/categories', { query: { hide_empty: value } });
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): hide_empty');
      assert.deepEqual(res.body.data.params, { hide_empty: 'hide_empty is not of type boolean.' });
      assert.deepEqual(res.body.data.details.hide_empty, {
        code: 'rest_invalid_type',
        message: 'hide_empty is not of type boolean.',
        data: { param: 'hide_empty' },
      });
    }
  });

  it('pages: per_page and page slice the list, links keep the filters, Link header has next and prev', async () => {
    const res = await srv().get('/categories', { query: { hide_empty: '0', per_page: 2, page: 2 } });
    assert.equal(res.status, 200);
    assert.deepEqual(names(res), ['Film', 'Jazz &amp; Blues']);
    assert.equal(res.body.total, 7);
    assert.equal(res.body.total_pages, 4);
    const base = `${srv().root}/categories/`;
    assert.equal(res.body.rest_url, `${base}?per_page=2&hide_empty=0`);
    assert.equal(res.body.next_rest_url, `${base}?per_page=2&hide_empty=0&page=3`);
    assert.equal(res.body.previous_rest_url, `${base}?per_page=2&hide_empty=0`);
    assert.deepEqual(Object.keys(res.body), [
      'rest_url',
      'total',
      'total_pages',
      'categories',
      'next_rest_url',
      'previous_rest_url',
    ]);
    assert.equal(res.headers.get('x-tec-totalpages'), '4');
    const page3 = await srv().get('/categories', { query: { hide_empty: '0', per_page: 2, page: 3 } });
    assert.equal(page3.body.previous_rest_url, `${base}?per_page=2&hide_empty=0&page=2`);
    assert.match(page3.headers.get('link') ?? '', /page=4>; rel="next", <.*page=2>; rel="prev"/);
  });

  it('a page past the end is 200 with an empty array, the real totals and a previous link', async () => {
    const res = await srv().get('/categories', { query: { hide_empty: 'false', per_page: 5, page: 9 } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.categories, []);
    assert.equal(res.body.total, 7);
    assert.equal(res.body.total_pages, 2);
    assert.equal(res.body.next_rest_url, undefined);
    assert.equal(res.body.previous_rest_url, `${srv().root}/categories/?per_page=5&hide_empty=false&page=8`);
  });

  it('an empty result is total 0, total_pages 0 and no links', async () => {
    const res = await srv().get('/tags', { query: { search: 'nothing-like-this' } });
    assert.deepEqual(res.body, {
      rest_url: `${srv().root}/tags/?search=nothing-like-this`,
      total: 0,
      total_pages: 0,
      tags: [],
    });
    assert.equal(res.headers.get('x-tec-total'), '0');
    assert.equal(res.headers.get('x-tec-totalpages'), '0');
  });

  it('per_page above 50 is clamped to 50; page and per_page must be positive integers', async () => {
    const res = await srv().get('/categories', { query: { hide_empty: 'false', per_page: 100 } });
    assert.equal(res.status, 200);
    assert.equal(res.body.total_pages, 1);
    assert.equal(
      (await srv().get('/categories', { query: { page: '2.0', per_page: '2', hide_empty: '0' } })).body.categories
        .length,
      2,
    );
    for (const [name, value] of [
      ['page', '0'],
      ['page', '-1'],
      ['page', 'abc'],
      ['page', '1.5'],
      ['per_page', '0'],
      ['per_page', 'x'],
    ]) {
      const bad = await srv().get('/categories', { query: { [name!]: value! } });
      expectRestError(bad, 400, 'rest_invalid_param', `Invalid parameter(s): ${name}`);
      assert.deepEqual(bad.body.data.params, { [name!]: 'Invalid parameter.' });
    }
  });

  it('the posts_per_page setting is the default page size', async () => {
    await srv().setSetting('posts_per_page', '3');
    try {
      const res = await srv().get('/categories', { query: { hide_empty: 'false' } });
      assert.equal(res.body.categories.length, 3);
      assert.equal(res.body.total_pages, 3);
    } finally {
      await srv().setSetting('posts_per_page', '10');
    }
  });

  it('search matches name or slug, ignoring case, with % and _ literal', async () => {
    assert.deepEqual(names(await srv().get('/categories', { query: { search: 'JAZZ', hide_empty: '0' } })), [
      'Jazz &amp; Blues',
    ]);
    assert.deepEqual(names(await srv().get('/categories', { query: { search: 'aaa-z', hide_empty: '0' } })), ['Zeta']);
    assert.deepEqual(names(await srv().get('/tags', { query: { search: '0%', hide_empty: '0' } }), 'tags'), [
      '100% pure',
    ]);
    assert.deepEqual(names(await srv().get('/tags', { query: { search: 'a_p', hide_empty: '0' } }), 'tags'), []);
    // Stored names are escaped; searching their characters needs the escaped form (terms.md O16).
    assert.deepEqual(names(await srv().get('/categories', { query: { search: '&amp;', hide_empty: '0' } })), [
      'Jazz &amp; Blues',
    ]);
  });

  it('an empty search is treated as absent, a non-string search is 400', async () => {
    const res = await srv().get('/categories', { query: { search: '' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 5);
    assert.equal(res.body.rest_url, `${srv().root}/categories/`);
    expectRestError(
      await srv().get('/categories', { query: { 'search[]': 'x' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): search',
    );
  });

  it('exclude removes listed IDs; slugs and names pass validation but exclude nothing', async () => {
    const res = await srv().get('/categories', { query: { exclude: `${d.art},${d.zeta}` } });
    assert.deepEqual(names(res), ['Bebop', 'Jazz &amp; Blues', 'Music']);
    assert.equal(res.body.total, 3);
    assert.equal(res.body.rest_url, `${srv().root}/categories/?exclude=${d.art}%2C${d.zeta}`);
    const arr = await srv().get('/categories', { query: { 'exclude[]': [d.art, d.zeta] } });
    assert.deepEqual(names(arr), ['Bebop', 'Jazz &amp; Blues', 'Music']);
    const slugs = await srv().get('/categories', { query: { exclude: 'art,Music' } });
    assert.equal(slugs.body.total, 5);
  });

  it('exclude and include reject unknown terms, terms of the other taxonomy, 0 and empty values', async () => {
    for (const name of ['exclude', 'include']) {
      for (const value of ['999999', `${d.art},999999`, String(d.alpha), '0', '', 'no-such-slug', 'foo bar']) {
        const res = await srv().get('/categories', { query: { [name]: value } });
        expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${name}`);
      }
    }
  });

  it('include lists only the given IDs, ignores exclude, keeps hide_empty, and yields nothing for slugs only', async () => {
    const res = await srv().get('/categories', {
      query: { include: `${d.zeta},${d.art},${d.film}`, exclude: String(d.art) },
    });
    assert.deepEqual(names(res), ['art', 'Zeta']);
    const withEmpty = await srv().get('/categories', {
      query: { include: `${d.zeta},${d.film}`, hide_empty: 'false' },
    });
    assert.deepEqual(names(withEmpty), ['Film', 'Zeta']);
    const slugsOnly = await srv().get('/categories', { query: { include: 'art,aaa-zeta' } });
    assert.equal(slugsOnly.status, 200);
    assert.deepEqual(slugsOnly.body.categories, []);
    assert.equal(slugsOnly.body.total, 0);
  });

  it('order: asc in any case ascends, every other non-empty value descends; empty is 400', async () => {
    assert.deepEqual(names(await srv().get('/categories', { query: { order: 'DESC' } })), [
      'Zeta',
      'Music',
      'Jazz &amp; Blues',
      'Bebop',
      'art',
    ]);
    assert.deepEqual(names(await srv().get('/categories', { query: { order: 'ascending' } })), [
      'Zeta',
      'Music',
      'Jazz &amp; Blues',
      'Bebop',
      'art',
    ]);
    assert.deepEqual(names(await srv().get('/categories', { query: { order: 'AsC' } })), [
      'art',
      'Bebop',
      'Jazz &amp; Blues',
      'Music',
      'Zeta',
    ]);
    for (const value of ['', '0']) {
      expectRestError(
        await srv().get('/categories', { query: { order: value } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): order',
      );
    }
  });

  it('orderby sorts by every attribute the reference allows, unknown values by name; empty is 400', async () => {
    const ids = async (orderby: string, extra: Record<string, string> = {}) =>
      (await srv().get('/categories', { query: { orderby, hide_empty: '0', ...extra } })).body.categories.map(
        (t: any) => t.id,
      );
    const byId = [d.music, d.jazz, d.bebop, d.rock, d.film, d.art, d.zeta];
    const byName = [d.art, d.bebop, d.film, d.jazz, d.music, d.rock, d.zeta];
    assert.deepEqual(await ids('name'), byName);
    assert.deepEqual(await ids('NAME'), byName);
    assert.deepEqual(await ids('slug'), [d.zeta, d.art, d.bebop, d.film, d.jazz, d.music, d.rock]);
    for (const key of ['id', 'term_id', 'term_taxonomy_id', 'none', 'term_order', 'term_group', 'taxonomy']) {
      assert.deepEqual(await ids(key), byId, key);
    }
    assert.deepEqual(await ids('id', { order: 'desc' }), [...byId].reverse());
    // Ties keep ID order (terms.md O10).
    assert.deepEqual(await ids('count', { order: 'desc' }), [d.jazz, d.bebop, d.art, d.zeta, d.music, d.rock, d.film]);
    assert.deepEqual(await ids('description'), [d.bebop, d.rock, d.film, d.zeta, d.jazz, d.music, d.art]);
    assert.deepEqual(await ids('parent'), [d.music, d.film, d.art, d.zeta, d.jazz, d.rock, d.bebop]);
    assert.deepEqual(await ids('include', { include: `${d.rock},${d.art},${d.music}` }), [d.rock, d.art, d.music]);
    assert.deepEqual(await ids('include', { include: `${d.rock},${d.art},${d.music}`, order: 'desc' }), [
      d.music,
      d.art,
      d.rock,
    ]);
    assert.deepEqual(await ids('include'), byName);
    assert.deepEqual(await ids('foo'), byName);
    assert.deepEqual(await ids('slug__in'), byName);
    assert.deepEqual(await ids('term_order', { event: String(d.published) }), [d.zeta, d.jazz]);
    assert.deepEqual(await ids('term_order', { event: String(d.published), order: 'desc' }), [d.jazz, d.zeta]);
    for (const value of ['', '0']) {
      expectRestError(
        await srv().get('/categories', { query: { orderby: value } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): orderby',
      );
    }
  });

  it('parent lists only direct children of an existing category', async () => {
    assert.deepEqual(names(await srv().get('/categories', { query: { parent: String(d.music), hide_empty: '0' } })), [
      'Jazz &amp; Blues',
      'Rock',
    ]);
    assert.deepEqual(names(await srv().get('/categories', { query: { parent: String(d.music) } })), [
      'Jazz &amp; Blues',
    ]);
    assert.deepEqual(names(await srv().get('/categories', { query: { parent: String(d.jazz) } })), ['Bebop']);
    for (const value of ['0', '999999', String(d.alpha), '', 'abc', '1.5']) {
      expectRestError(
        await srv().get('/categories', { query: { parent: value } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): parent',
      );
    }
  });

  it('parent is not a parameter of /tags and is ignored there', async () => {
    const res = await srv().get('/tags', { query: { parent: 'whatever' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 2);
    assert.equal(res.body.rest_url, `${srv().root}/tags/`);
  });

  it('post and event list the terms of one event whatever their count', async () => {
    for (const name of ['post', 'event']) {
      const res = await srv().get('/categories', { query: { [name]: String(d.published) } });
      assert.deepEqual(names(res), ['Jazz &amp; Blues', 'Zeta']);
      const draftTerms = await srv().get('/categories', {
        as: 'editor',
        query: { [name]: String(d.draft), hide_empty: '1' },
      });
      assert.deepEqual(names(draftTerms), ['Rock', 'Zeta']);
      assert.equal(draftTerms.body.total, 2);
      assert.equal(draftTerms.body.rest_url, `${srv().root}/categories/?hide_empty=1&${name}=${d.draft}`);
    }
    assert.deepEqual(names(await srv().get('/tags', { query: { post: String(d.draft) }, as: 'editor' }), 'tags'), [
      'gamma',
    ]);
  });

  it('event wins over post when both are given, and both are validated', async () => {
    const res = await srv().get('/categories', {
      as: 'editor',
      query: { post: String(d.published), event: String(d.draft) },
    });
    assert.deepEqual(names(res), ['Rock', 'Zeta']);
    expectRestError(
      await srv().get('/categories', { query: { post: 'abc', event: String(d.published) } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): post',
    );
  });

  it('post/event must be an event the caller may read', async () => {
    for (const name of ['post', 'event']) {
      for (const value of ['0', '', 'abc', '999999', String(d.venue)]) {
        expectRestError(
          await srv().get('/categories', { query: { [name]: value } }),
          400,
          'rest_invalid_param',
          `Invalid parameter(s): ${name}`,
        );
      }
      // decisions.md O13: a draft is not readable anonymously or by a subscriber.
      expectRestError(
        await srv().get('/tags', { query: { [name]: String(d.draft) } }),
        400,
        'rest_invalid_param',
        `Invalid parameter(s): ${name}`,
      );
      expectRestError(
        await srv().get('/tags', { as: 'subscriber', query: { [name]: String(d.draft) } }),
        400,
        'rest_invalid_param',
      );
    }
  });

  it('slug matches one slug exactly after the slug rules', async () => {
    assert.deepEqual(names(await srv().get('/categories', { query: { slug: 'JAZZ BLUES' } })), ['Jazz &amp; Blues']);
    assert.deepEqual(names(await srv().get('/categories', { query: { slug: 'jazz' } })), []);
    assert.deepEqual(names(await srv().get('/categories', { query: { slug: 'ar,t' } })), ['art']);
    assert.deepEqual(names(await srv().get('/tags', { query: { slug: 'beta', hide_empty: '0' } }), 'tags'), ['Beta']);
    for (const query of [{ slug: '' }, { slug: '0' }, { 'slug[]': 'art' }] as Array<Record<string, string>>) {
      expectRestError(
        await srv().get('/categories', { query }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): slug',
      );
    }
  });

  it('several invalid parameters are reported together in declaration order', async () => {
    const res = await srv().get('/categories', { query: { slug: '', page: '0', order: '', include: '0' } });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): page, include, order, slug');
  });

  it('links carry every filter the client sent, in the reference order', async () => {
    const res = await srv().get('/categories', {
      query: {
        slug: 'art',
        orderby: 'name',
        order: 'asc',
        search: 'a',
        hide_empty: 'true',
        per_page: '1',
        include: String(d.art),
      },
    });
    assert.equal(
      res.body.rest_url,
      `${srv().root}/categories/?per_page=1&search=a&include=${d.art}&order=asc&orderby=name&hide_empty=true&slug=art`,
    );
  });

  it('HEAD answers like GET without a body; the term routes appear in discovery in the reference order', async () => {
    const head = await srv().request('HEAD', '/tags');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('x-tec-total'), '2');
    const index = await srv().get('/');
    const keys = Object.keys(index.body.routes).filter((k) => /^\/calendar\/events\/v1\/(categories|tags)/.test(k));
    assert.deepEqual(keys, [
      '/calendar/events/v1/categories',
      '/calendar/events/v1/categories/(?P<id>\\d+)',
      '/calendar/events/v1/tags',
      '/calendar/events/v1/tags/(?P<id>\\d+)',
    ]);
    const single = index.body.routes['/calendar/events/v1/categories/(?P<id>\\d+)'];
    assert.deepEqual(single.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.deepEqual(Object.keys(single.endpoints[1].args), ['id', 'name', 'description', 'slug', 'parent']);
    const list = index.body.routes['/calendar/events/v1/categories'].endpoints[0].args;
    assert.deepEqual(Object.keys(list), [
      'page',
      'per_page',
      'search',
      'exclude',
      'include',
      'order',
      'orderby',
      'hide_empty',
      'parent',
      'post',
      'event',
      'slug',
    ]);
    assert.equal(list.hide_empty.default, '1');
    assert.equal(list.per_page.default, 10);
    const tagList = index.body.routes['/calendar/events/v1/tags'].endpoints[0].args;
    assert.equal(tagList.parent, undefined);
    assert.deepEqual(Object.keys(index.body.routes['/calendar/events/v1/tags/(?P<id>\\d+)'].endpoints[1].args), [
      'id',
      'name',
      'description',
      'slug',
    ]);
  });
});
