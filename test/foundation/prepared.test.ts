import { it } from 'node:test';
import assert from 'node:assert/strict';
import { preparedQuery, slotItems } from '../../src/db/prepared.js';
import { forEachBackend } from '../support/server.js';

forEachBackend('Prepared queries', (srv) => {
  it('are built once per shape and dialect, and each run uses its own values, in a transaction too', async () => {
    const db = srv().built.database.db;
    const builds: string[] = [];
    const bySlug = preparedQuery((q, v: { slug: string; taxonomy: string }, shape: 'slug' | 'slug+taxonomy') => {
      builds.push(shape);
      let query = q.selectFrom('terms').select(['slug', 'taxonomy']).where('slug', '=', v.slug);
      if (shape === 'slug+taxonomy') query = query.where('taxonomy', '=', v.taxonomy);
      return query.orderBy('taxonomy');
    });
    await db.transaction().execute(async (trx) => {
      for (const [slug, taxonomy] of [
        ['prep-one', 'event_category'],
        ['prep-one', 'event_tag'],
        ['prep-two', 'event_tag'],
      ]) {
        await trx.insertInto('terms').values({ taxonomy, name: slug, slug, description: '', parent: 0 }).execute();
      }
    });

    assert.deepEqual(await bySlug(db, { slug: 'prep-one', taxonomy: '' }, 'slug'), [
      { slug: 'prep-one', taxonomy: 'event_category' },
      { slug: 'prep-one', taxonomy: 'event_tag' },
    ]);
    assert.deepEqual(await bySlug(db, { slug: 'prep-two', taxonomy: '' }, 'slug'), [
      { slug: 'prep-two', taxonomy: 'event_tag' },
    ]);
    assert.deepEqual(await bySlug(db, { slug: 'prep-one', taxonomy: 'event_tag' }, 'slug+taxonomy'), [
      { slug: 'prep-one', taxonomy: 'event_tag' },
    ]);
    assert.deepEqual(await bySlug(db, { slug: 'prep-two', taxonomy: 'event_category' }, 'slug+taxonomy'), []);
    // A transaction of the same connection reuses the compiled text and sees its own writes.
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('terms')
        .values({ taxonomy: 'event_category', name: 'prep-two', slug: 'prep-two', description: '', parent: 0 })
        .execute();
      assert.deepEqual(await bySlug(trx, { slug: 'prep-two', taxonomy: 'event_category' }, 'slug+taxonomy'), [
        { slug: 'prep-two', taxonomy: 'event_category' },
      ]);
    });
    assert.deepEqual(builds, ['slug', 'slug+taxonomy']);
  });

  it('keep a bounded number of shapes: past 256, the ones kept are forgotten and built again when asked', async () => {
    const db = srv().built.database.db;
    let builds = 0;
    const byIds = preparedQuery((q, v: { ids: number[] }, shape: string) => {
      builds++;
      return q
        .selectFrom('terms')
        .select('id')
        .where('id', 'in', slotItems(v.ids, Number(shape)))
        .orderBy('id');
    });
    for (let n = 1; n <= 256; n++) await byIds(db, { ids: Array.from({ length: n }, (_, i) => -i) }, String(n));
    assert.equal(builds, 256);
    await byIds(db, { ids: [-1] }, '1');
    assert.equal(builds, 256, 'a kept shape is not built again');
    await byIds(db, { ids: Array.from({ length: 257 }, (_, i) => -i) }, '257');
    await byIds(db, { ids: [-1] }, '1');
    assert.equal(builds, 258, 'the 257th shape made room by forgetting the others');
  });
});
