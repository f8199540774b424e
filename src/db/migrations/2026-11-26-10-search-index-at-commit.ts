import { PostgresAdapter, sql, type Kysely } from 'kysely';
import * as searchIndex from './2026-11-22-05-search-index.js';
import * as searchMergeFanIn from './2026-11-26-09-search-merge-fan-in.js';

// The SQLite full-text index of migration 05 writes what it was given as a segment of its own at
// each savepoint, and every statement that fires a trigger opens one: an event create wrote a
// segment (and its share of merges) after the `posts` insert, ~0.3 ms of a create's ~1.6 ms of
// SQL. New records are now queued instead, and the connection indexes the queue just before each
// commit (db/connect.ts): one segment per transaction, however many records it writes. A record
// still queued is indexed with its final text, so changing or deleting it leaves the index alone;
// a record already indexed is changed in the index at once, as before. Searches read the queue
// too (db/search-queue.ts), so they never miss a committed record. PostgreSQL searches the columns
// directly.

const TRIGGERS = [
  sql`create trigger posts_search_insert after insert on posts begin
    insert into post_search_queue (id) values (new.id);
  end`,
  sql`create trigger posts_search_delete after delete on posts begin
    insert into post_search (post_search, rowid, title, excerpt, description)
      select 'delete', old.id, old.title, old.excerpt, old.description where not exists (select 1 from post_search_queue where id = old.id);
    delete from post_search_queue where id = old.id;
  end`,
  sql`create trigger posts_search_update after update of title, excerpt, description on posts
    when not exists (select 1 from post_search_queue where id = new.id) begin
    insert into post_search (post_search, rowid, title, excerpt, description) values ('delete', old.id, old.title, old.excerpt, old.description);
    insert into post_search (rowid, title, excerpt, description) values (new.id, new.title, new.excerpt, new.description);
  end`,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.createTable('post_search_queue').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
  for (const trigger of ['posts_search_update', 'posts_search_delete', 'posts_search_insert']) await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  for (const trigger of TRIGGERS) await trigger.execute(db);
}

/** The index as migrations 05 and 09 left it: rebuilt from the table, with their triggers and setting. */
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await searchIndex.down(db);
  await db.schema.dropTable('post_search_queue').execute();
  await searchIndex.up(db);
  await searchMergeFanIn.up(db);
}
