import { it } from 'node:test';
import assert from 'node:assert/strict';
import { preparedQuery } from '../../src/db/prepared.js';
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
      for (const [slug, taxonomy] of [['prep-one', 'event_category'], ['prep-one', 'event_tag'], ['prep-two', 'event_tag']]) {
        await trx.insertInto('terms').values({ taxonomy, name: slug, slug, description: '', parent: 0 }).execute();
      }
    });

    assert.deepEqual(await bySlug(db, { slug: 'prep-one', taxonomy: '' }, 'slug'), [
      { slug: 'prep-one', taxonomy: 'event_category' },
      { slug: 'prep-one', taxonomy: 'event_tag' },
    ]);
    assert.deepEqual(await bySlug(db, { slug: 'prep-two', taxonomy: '' }, 'slug'), [{ slug: 'prep-two', taxonomy: 'event_tag' }]);
    assert.deepEqual(await bySlug(db, { slug: 'prep-one', taxonomy: 'event_tag' }, 'slug+taxonomy'), [{ slug: 'prep-one', taxonomy: 'event_tag' }]);
    assert.deepEqual(await bySlug(db, { slug: 'prep-two', taxonomy: 'event_category' }, 'slug+taxonomy'), []);
    // A transaction of the same connection reuses the compiled text and sees its own writes.
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('terms').values({ taxonomy: 'event_category', name: 'prep-two', slug: 'prep-two', description: '', parent: 0 }).execute();
      assert.deepEqual(await bySlug(trx, { slug: 'prep-two', taxonomy: 'event_category' }, 'slug+taxonomy'), [{ slug: 'prep-two', taxonomy: 'event_category' }]);
    });
    assert.deepEqual(builds, ['slug', 'slug+taxonomy']);
  });
});
