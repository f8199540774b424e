import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { tagVersionsReader } from '../../src/db/cache-tags.js';
import { forEachBackend } from '../support/server.js';

forEachBackend('Reading the cache tags’ versions', (srv) => {
  it('sums each tag’s shards, reads bumps and added rows, and never changes a map it gave', async () => {
    const db = srv().built.database.db;
    const bump = (tag: string, shard: number, by = 1) =>
      sql`insert into cache_tags (tag, shard, version) values (${tag}, ${shard}, ${by})
        on conflict (tag, shard) do update set version = cache_tags.version + ${by}`.execute(db);
    await bump('x:reader-a', 0, 3);
    await bump('x:reader-b', 0, 5);
    const read = tagVersionsReader(db);

    const first = await read();
    assert.equal(first.get('x:reader-a'), 3);
    assert.equal(first.get('x:reader-b'), 5);

    // Nothing moved: the same versions.
    const unchanged = await read();
    assert.equal(unchanged.get('x:reader-a'), 3);
    assert.equal(unchanged.get('x:reader-b'), 5);

    // A bump of an existing row.
    await bump('x:reader-b', 0, 2);
    const bumped = await read();
    assert.equal(bumped.get('x:reader-b'), 7);
    assert.equal(bumped.get('x:reader-a'), 3);
    assert.equal(first.get('x:reader-b'), 5, 'a map already given keeps its versions');

    // A new shard of a tag: a row added, summed with the other.
    await bump('x:reader-a', 3, 4);
    const sharded = await read();
    assert.equal(sharded.get('x:reader-a'), 7);
    // A bump of either shard after that.
    await bump('x:reader-a', 0, 1);
    await bump('x:reader-a', 3, 10);
    const both = await read();
    assert.equal(both.get('x:reader-a'), 18);
    assert.equal(sharded.get('x:reader-a'), 7, 'a map already given keeps its versions');

    // A new tag, sorting between the others: every later row moves one place.
    await bump('x:reader-ab', 0, 9);
    await bump('x:reader-b', 0, 1);
    const added = await read();
    assert.deepEqual(
      ['x:reader-a', 'x:reader-ab', 'x:reader-b'].map((tag) => added.get(tag)),
      [18, 9, 8],
    );

    // The same as reading every row and summing them.
    const { rows } = await sql<{ tag: string; version: number | string }>`
      select tag, version from cache_tags`.execute(db);
    const sums = new Map<string, number>();
    for (const row of rows) sums.set(row.tag, (sums.get(row.tag) ?? 0) + Number(row.version));
    assert.deepEqual(new Map([...(await read())].sort()), new Map([...sums].sort()));
  });

  it('reads concurrently, each read answered with versions at least as new as the writes before it', async () => {
    const db = srv().built.database.db;
    const read = tagVersionsReader(db);
    await read();
    for (let round = 1; round <= 20; round++) {
      await sql`insert into cache_tags (tag, shard, version) values ('x:concurrent', 0, 1)
        on conflict (tag, shard) do update set version = cache_tags.version + 1`.execute(db);
      const answers = await Promise.all([read(), read(), read()]);
      for (const answer of answers) assert.equal(answer.get('x:concurrent'), round);
    }
  });
});
