import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.js';
import { transactor } from '../../src/db/group-commit.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { forEachBackend } from '../support/server.js';
import { daysFromNow, tableCounts } from '../events/helpers.js';

forEachBackend('Concurrent writes', (srv) => {
  it('each concurrent write is all or nothing: the failing ones leave nothing, the others are kept, readable and searchable', async () => {
    const editor = await srv().user('editor');
    const before = await tableCounts(srv());
    const good = Array.from({ length: 10 }, (_, i) =>
      srv().post('/events', {
        as: editor,
        json: {
          title: `Grpq concert ${i}`,
          start_date: daysFromNow(5 + i),
          end_date: daysFromNow(5 + i, '12:00:00'),
          venue: { venue: `Grpq Hall ${i}` },
        },
      }),
    );
    // Fails inside the write, after its category and venue were inserted (an organizer without a name).
    const bad = Array.from({ length: 3 }, (_, i) =>
      srv().post('/events', {
        as: editor,
        json: {
          title: `Grpq failed ${i}`,
          start_date: daysFromNow(5),
          end_date: daysFromNow(5),
          categories: `Grpq Category ${i}`,
          venue: { venue: `Grpq Lost ${i}` },
          organizer: { organizer: '' },
        },
      }),
    );
    const [made, refused] = await Promise.all([Promise.all(good), Promise.all(bad)]);
    assert.deepEqual(
      made.map((res) => res.status),
      Array(10).fill(201),
    );
    assert.deepEqual(
      refused.map((res) => res.status),
      Array(3).fill(400),
    );
    assert.equal(new Set(made.map((res) => res.body.id)).size, 10);

    const after = await tableCounts(srv());
    assert.deepEqual(after, {
      ...before,
      posts: before.posts + 20,
      events: before.events + 10,
      event_venues: before.event_venues + 10,
    });
    for (const res of made) {
      const read = await srv().get(`/events/${res.body.id}`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.venue.venue, res.body.venue.venue);
    }
    const search = await srv().get('/events', { query: { search: 'grpq', per_page: 50 } });
    assert.equal(search.body.total, 10);
    assert.deepEqual(
      search.body.events.map((e: { title: string }) => e.title).sort(),
      made.map((res) => res.body.title).sort(),
    );
    const venues = await srv().get('/venues', { query: { search: 'grpq', per_page: 50 } });
    assert.equal(venues.body.total, 10);
  });
});

it('on SQLite, writes that arrive together commit together: none is visible to another connection before the last is done, and a failing one is undone alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-group-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase(`sqlite:${file}`, { searchQueueLimit: 1 });
  const other = new SQLite(file, { readonly: true });
  try {
    await migrateToLatest(handle.db);
    const transact = transactor(handle.db, 'sqlite');
    const stored = (name: string) =>
      other.prepare('select count(*) as n from settings where name = ?').pluck().get(name);
    const seen: Array<[string, unknown]> = [];
    const insert = (name: string) => sql`insert into settings (name, value) values (${name}, 'x')`;

    const first = transact(async (trx) => {
      await insert('group_first').execute(trx);
      return 'first';
    });
    const failing = transact(async (trx) => {
      await insert('group_failing').execute(trx);
      seen.push(['failing: first elsewhere', stored('group_first')]);
      throw new Error('refused');
    });
    const last = transact(async (trx) => {
      const mine = await sql<{
        n: number;
      }>`select count(*) as n from settings where name in ('group_first', 'group_failing')`.execute(trx);
      seen.push(['last: first and failing here', mine.rows[0]?.n]);
      await insert('group_last').execute(trx);
      seen.push(['last: first elsewhere', stored('group_first')]);
      return 'last';
    });

    await assert.rejects(failing, /refused/);
    assert.deepEqual(await Promise.all([first, last]), ['first', 'last']);
    assert.deepEqual(seen, [
      ['failing: first elsewhere', 0],
      ['last: first and failing here', 1],
      ['last: first elsewhere', 0],
    ]);
    assert.deepEqual(['group_first', 'group_failing', 'group_last'].map(stored), [1, 0, 1]);

    // When the group's transaction itself fails (here a write breaks its savepoint), every write
    // of the group fails and nothing of it is kept, including the writes it had not reached.
    const before = transact((trx) => insert('group_before').execute(trx));
    const breaking = transact(async (trx) => {
      await sql`release request`.execute(trx);
      throw new Error('breaks its savepoint');
    });
    const after = transact((trx) => insert('group_after').execute(trx));
    for (const write of [before, breaking, after]) await assert.rejects(write, /no such savepoint/);
    assert.deepEqual(['group_before', 'group_after'].map(stored), [0, 0]);

    // Posts written by a group are indexed for search at its commit; none stays queued.
    const now = '2026-01-01 00:00:00';
    const post = (title: string) => ({
      type: 'event' as const,
      author: 0,
      status: 'publish',
      slug: '',
      title,
      description: '',
      excerpt: '',
      password: '',
      parent_id: 0,
      date: now,
      date_utc: now,
      modified: now,
      modified_utc: now,
    });
    const ids = await Promise.all(
      ['Grpz one', 'Grpz two'].map((title) =>
        transact((trx) => trx.insertInto('posts').values(post(title)).returning('id').executeTakeFirstOrThrow()),
      ),
    );
    await transact((trx) =>
      trx.updateTable('posts').set({ title: 'Grpz renamed' }).where('id', '=', ids[1]!.id).execute(),
    );
    // Changed or deleted by the write that made it, while still queued: indexed as it ends up, or not at all.
    const [kept] = await Promise.all([
      transact(async (trx) => {
        const { id } = await trx
          .insertInto('posts')
          .values(post('Grpz draft'))
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('posts').set({ title: 'Grpz final' }).where('id', '=', id).execute();
        return id;
      }),
      transact(async (trx) => {
        const { id } = await trx
          .insertInto('posts')
          .values(post('Grpz dropped'))
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('posts').where('id', '=', id).execute();
      }),
    ]);
    // A write outside any transaction commits by itself, and its record is indexed right after.
    const alone = await handle.db
      .insertInto('posts')
      .values(post('Grpz alone'))
      .returning('id')
      .executeTakeFirstOrThrow();
    const matches = (word: string) =>
      other.prepare('select rowid from post_search where post_search match ? order by rowid').pluck().all(`"${word}"`);
    assert.deepEqual(matches('grpz'), [ids[0]!.id, ids[1]!.id, kept, alone.id]);
    assert.deepEqual(matches('alone'), [alone.id]);
    assert.deepEqual(matches('renamed'), [ids[1]!.id]);
    assert.deepEqual(matches('two'), []);
    assert.deepEqual(matches('final'), [kept]);
    assert.deepEqual(matches('draft'), []);
    assert.deepEqual(matches('dropped'), []);
    // The index holds exactly what the table does (the full-text index's own check throws otherwise).
    await sql`insert into post_search (post_search) values ('integrity-check')`.execute(handle.db);
    assert.equal(other.prepare('select count(*) from post_search_queue').pluck().get(), 0);
  } finally {
    other.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
