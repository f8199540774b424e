import { it } from 'node:test';
import assert from 'node:assert/strict';
import { Valid, type RequestContext } from '../../src/http/route.js';
import {
  categoryTaxonomy,
  loadTermsForEvents,
  resolveTermFilter,
  resolveTermInput,
  setEventTerms,
  tagTaxonomy,
  type Taxonomy,
} from '../../src/resources/terms/index.js';
import { forEachBackend, type TestServer } from '../support/server.js';
import { insertEvent, makeTerm } from './fixtures.js';

/** The parts of a request the term contract reads: database, caller, settings and link bases. */
async function contextFor(srv: TestServer, role: 'contributor' | 'editor' = 'contributor'): Promise<RequestContext> {
  const creds = await srv.user(role);
  return {
    app: srv.built.app,
    user: { id: creds.id, login: creds.login, role },
    settings: await srv.built.app.settings.get(),
    lang: '',
    urls: { site: srv.config.siteUrl, base: srv.base, root: srv.root },
  } as RequestContext;
}

const eventTerms = (srv: TestServer, eventId: number) =>
  srv.db
    .selectFrom('event_terms')
    .select(['term_id', 'position'])
    .where('event_id', '=', eventId)
    .orderBy('position')
    .execute();

forEachBackend('categories and tags inside events (terms contract)', (srv) => {
  it('resolveTermFilter accepts IDs, slugs and names of the taxonomy and rejects anything unknown or empty', async () => {
    const ctx = await contextFor(srv());
    const music = await makeTerm(srv(), 'categories', { name: 'Filter Music' });
    const tag = await makeTerm(srv(), 'tags', { name: 'Filter Tag' });
    for (const value of [
      String(music.id),
      music.id,
      'filter-music',
      'Filter Music',
      [music.id, 'filter-music'],
      `${music.id}, filter-music`,
    ]) {
      assert.ok((await resolveTermFilter(categoryTaxonomy, value, ctx)) instanceof Valid, JSON.stringify(value));
    }
    for (const value of ['', [], '999999', 'nope', `${music.id},nope`, String(tag.id), 0, { a: 1 }, true]) {
      assert.equal(await resolveTermFilter(categoryTaxonomy, value, ctx), false, JSON.stringify(value));
    }
    assert.ok((await resolveTermFilter(tagTaxonomy, String(tag.id), ctx)) instanceof Valid);
  });

  it('resolveTermFilter hands on the IDs: slug, then ID, then name; categories bring their descendants', async () => {
    const ctx = await contextFor(srv());
    const resolveTermFilterIds = async (tax: Taxonomy, value: unknown) => {
      const outcome = await resolveTermFilter(tax, value, ctx);
      assert.ok(outcome instanceof Valid, JSON.stringify(value));
      return outcome.value;
    };
    const top = await makeTerm(srv(), 'categories', { name: 'Resolve Top' });
    const child = await makeTerm(srv(), 'categories', { name: 'Resolve Child', parent: top.id });
    const grandchild = await makeTerm(srv(), 'categories', { name: 'Resolve Grandchild', parent: child.id });
    const other = await makeTerm(srv(), 'categories', { name: 'Resolve Other' });
    const byId = await resolveTermFilterIds(categoryTaxonomy, String(top.id));
    assert.deepEqual(
      [...byId].sort((a, b) => a - b),
      [top.id, child.id, grandchild.id],
    );
    assert.deepEqual(await resolveTermFilterIds(categoryTaxonomy, ['resolve-grandchild']), [grandchild.id]);
    assert.deepEqual(await resolveTermFilterIds(categoryTaxonomy, 'Resolve Other'), [other.id]);
    // A term whose slug is another term's ID wins over that ID (terms.md 8.3).
    const numeric = await makeTerm(srv(), 'categories', { name: 'Numeric slug', slug: String(other.id) });
    assert.deepEqual(await resolveTermFilterIds(categoryTaxonomy, String(other.id)), [numeric.id]);
    const tagA = await makeTerm(srv(), 'tags', { name: 'Resolve tag A' });
    const tagB = await makeTerm(srv(), 'tags', { name: 'Resolve tag B' });
    const tags = await resolveTermFilterIds(tagTaxonomy, `resolve-tag-a,${tagB.id}`);
    assert.deepEqual(
      [...tags].sort((a, b) => a - b),
      [tagA.id, tagB.id],
    );
  });

  it('resolveTermInput: IDs of the taxonomy, slugs, names ignoring case; unknown IDs skipped; unknown names created', async () => {
    const ctx = await contextFor(srv());
    const existing = await makeTerm(srv(), 'tags', { name: 'Input Existing', slug: 'input-slug' });
    const cat = await makeTerm(srv(), 'categories', { name: 'Input Category' });
    const before = await srv().db.selectFrom('terms').select('id').execute();
    const ids = await srv()
      .db.transaction()
      .execute((trx) =>
        resolveTermInput(
          trx,
          tagTaxonomy,
          [
            existing.id,
            'input-slug',
            'INPUT EXISTING',
            999999,
            cat.id,
            'Brand New',
            'brand new',
            `-${existing.id}`,
            '',
            '  ',
          ],
          ctx,
        ),
      );
    const created = await srv()
      .db.selectFrom('terms')
      .selectAll()
      .where(
        'id',
        'not in',
        before.map((r) => r.id),
      )
      .execute();
    assert.equal(created.length, 1);
    assert.deepEqual(
      { ...created[0], id: Number(created[0]!.id) },
      {
        id: ids[1],
        taxonomy: 'post_tag',
        name: 'Brand New',
        slug: 'brand-new',
        description: '',
        parent: 0,
        event_count: 0,
      },
    );
    assert.deepEqual(ids, [existing.id, Number(created[0]!.id)]);
  });

  it('resolveTermInput reads a comma-separated string and creates top-level categories', async () => {
    const ctx = await contextFor(srv());
    const parent = await makeTerm(srv(), 'categories', { name: 'Comma Parent' });
    await makeTerm(srv(), 'categories', { name: 'Comma Child', parent: parent.id });
    const ids = await srv()
      .db.transaction()
      .execute((trx) => resolveTermInput(trx, categoryTaxonomy, ' Comma Child , Comma Fresh & New ,', ctx));
    assert.equal(ids.length, 2);
    const fresh = await srv().db.selectFrom('terms').selectAll().where('id', '=', ids[1]!).executeTakeFirstOrThrow();
    assert.equal(fresh.name, 'Comma Fresh &amp; New');
    assert.equal(fresh.parent, 0);
    assert.equal(fresh.taxonomy, 'tribe_events_cat');
    assert.deepEqual(
      await srv()
        .db.transaction()
        .execute((trx) => resolveTermInput(trx, categoryTaxonomy, '', ctx)),
      [],
    );
    assert.deepEqual(
      await srv()
        .db.transaction()
        .execute((trx) => resolveTermInput(trx, categoryTaxonomy, [], ctx)),
      [],
    );
  });

  it('resolveTermInput skips names that cannot be stored, and its creations roll back with the transaction', async () => {
    const ctx = await contextFor(srv());
    const count = async () =>
      Number(
        (
          await srv()
            .db.selectFrom('terms')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    assert.deepEqual(
      await srv()
        .db.transaction()
        .execute((trx) => resolveTermInput(trx, tagTaxonomy, ['<b></b>', 'x'.repeat(201), { id: 1 }], ctx)),
      [],
    );
    assert.equal(await count(), before);
    await assert.rejects(
      srv()
        .db.transaction()
        .execute(async (trx) => {
          await resolveTermInput(trx, tagTaxonomy, 'Rolled back tag', ctx);
          throw new Error('event write failed');
        }),
      /event write failed/,
    );
    assert.equal(await count(), before);
  });

  it('setEventTerms replaces one taxonomy of the event and keeps the order; counts follow', async () => {
    const c1 = await makeTerm(srv(), 'categories', { name: 'Set One' });
    const c2 = await makeTerm(srv(), 'categories', { name: 'Set Two' });
    const t1 = await makeTerm(srv(), 'tags', { name: 'Set Tag' });
    const event = await insertEvent(srv(), { termIds: [c1.id, t1.id] });
    await srv()
      .db.transaction()
      .execute(async (trx) => {
        await setEventTerms(trx, categoryTaxonomy, event, [c2.id, c1.id, c2.id]);
      });
    assert.deepEqual(
      (await eventTerms(srv(), event)).map((r) => Number(r.term_id)).sort((a, b) => a - b),
      [c1.id, c2.id, t1.id].sort((a, b) => a - b),
    );
    const cats = await srv().get('/categories', { query: { event: event, orderby: 'term_order' } });
    assert.deepEqual(
      cats.body.categories.map((t: any) => t.id),
      [c2.id, c1.id],
    );
    assert.equal((await srv().get(`/categories/${c2.id}`)).body.count, 1);
    await srv()
      .db.transaction()
      .execute(async (trx) => {
        await setEventTerms(trx, categoryTaxonomy, event, []);
      });
    assert.deepEqual(
      (await eventTerms(srv(), event)).map((r) => Number(r.term_id)),
      [t1.id],
    );
    assert.equal((await srv().get(`/categories/${c2.id}`)).body.count, 0);
  });

  it('loadTermsForEvents gives the embedded shape of each taxonomy, sorted by name ignoring case, one entry per event', async () => {
    const parent = await makeTerm(srv(), 'categories', { name: 'Embed parent' });
    const zed = await makeTerm(srv(), 'categories', {
      name: 'zed embedded',
      description: 'Z <em>d</em>',
      parent: parent.id,
    });
    const alpha = await makeTerm(srv(), 'categories', { name: 'Alpha embedded' });
    const tag = await makeTerm(srv(), 'tags', { name: 'Embedded tag' });
    const e1 = await insertEvent(srv(), { termIds: [zed.id, alpha.id, tag.id] });
    const e2 = await insertEvent(srv(), { status: 'draft', termIds: [zed.id] });
    const e3 = await insertEvent(srv());
    const ctx = await contextFor(srv());
    const [cats, tags] = await loadTermsForEvents(srv().db, [categoryTaxonomy, tagTaxonomy], [e1, e2, e3], ctx);
    assert.ok(cats && tags);
    assert.deepEqual([...cats.keys()], [e1, e2, e3]);
    assert.deepEqual(cats.get(e3), []);
    assert.deepEqual(cats.get(e1), [
      {
        name: 'Alpha embedded',
        slug: 'alpha-embedded',
        term_group: 0,
        term_taxonomy_id: alpha.id,
        taxonomy: 'tribe_events_cat',
        description: '',
        parent: 0,
        count: 1,
        filter: 'raw',
        id: alpha.id,
        urls: { self: `${srv().root}/categories/${alpha.id}`, collection: `${srv().root}/categories` },
      },
      {
        name: 'zed embedded',
        slug: 'zed-embedded',
        term_group: 0,
        term_taxonomy_id: zed.id,
        taxonomy: 'tribe_events_cat',
        description: 'Z <em>d</em>',
        parent: parent.id,
        count: 1,
        filter: 'raw',
        id: zed.id,
        urls: {
          self: `${srv().root}/categories/${zed.id}`,
          collection: `${srv().root}/categories`,
          up: `${srv().root}/categories/${parent.id}`,
        },
      },
    ]);
    assert.deepEqual(Object.keys(cats.get(e1)![0]!), [
      'name',
      'slug',
      'term_group',
      'term_taxonomy_id',
      'taxonomy',
      'description',
      'parent',
      'count',
      'filter',
      'id',
      'urls',
    ]);
    assert.deepEqual(
      (cats.get(e2) as any[]).map((t) => t.id),
      [zed.id],
    );
    assert.deepEqual(
      (tags.get(e1) as any[]).map((t) => [t.id, t.taxonomy, t.parent, t.urls.up]),
      [[tag.id, 'post_tag', 0, undefined]],
    );
    assert.deepEqual([...tags.keys()], [e1, e2, e3]);
    assert.deepEqual(tags.get(e2), []);
    const [onlyTags] = await loadTermsForEvents(srv().db, [tagTaxonomy], [e1], ctx);
    assert.deepEqual(
      (onlyTags!.get(e1) as any[]).map((t) => t.id),
      [tag.id],
      'a taxonomy not asked for is left out',
    );
    assert.deepEqual([...(await loadTermsForEvents(srv().db, [tagTaxonomy], [], ctx))[0]!.keys()], []);
  });

  it('deleting a term takes it out of every event', async () => {
    const ctx = await contextFor(srv());
    const tag = await makeTerm(srv(), 'tags', { name: 'Soon gone' });
    const event = await insertEvent(srv(), { termIds: [tag.id] });
    assert.equal((await srv().request('DELETE', `/tags/${tag.id}`, { as: 'editor' })).status, 200);
    assert.deepEqual((await loadTermsForEvents(srv().db, [tagTaxonomy], [event], ctx))[0]!.get(event), []);
  });
});
