import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Searching events (events.md 2.5) matches words anywhere in titles, excerpts and descriptions.
// On SQLite a trigram full-text index over those columns finds such substrings without reading
// every row; triggers keep it in step with `posts`. Its vocabulary tells how many records hold
// each trigram, so a query can tell a rare word from a common one. PostgreSQL searches the
// columns directly.

const TRIGGERS = [
  sql`create trigger posts_search_insert after insert on posts begin
    insert into post_search (rowid, title, excerpt, description) values (new.id, new.title, new.excerpt, new.description);
  end`,
  sql`create trigger posts_search_delete after delete on posts begin
    insert into post_search (post_search, rowid, title, excerpt, description) values ('delete', old.id, old.title, old.excerpt, old.description);
  end`,
  sql`create trigger posts_search_update after update of title, excerpt, description on posts begin
    insert into post_search (post_search, rowid, title, excerpt, description) values ('delete', old.id, old.title, old.excerpt, old.description);
    insert into post_search (rowid, title, excerpt, description) values (new.id, new.title, new.excerpt, new.description);
  end`,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create virtual table post_search using fts5 (title, excerpt, description, content = 'posts', content_rowid = 'id', tokenize = 'trigram')`.execute(db);
  await sql`insert into post_search (post_search) values ('rebuild')`.execute(db);
  // How many records hold each trigram: a bound on a search's matches (events/filters.ts).
  await sql`create virtual table post_search_trigrams using fts5vocab (post_search, 'row')`.execute(db);
  for (const trigger of TRIGGERS) await trigger.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['posts_search_update', 'posts_search_delete', 'posts_search_insert']) await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  await sql`drop table post_search_trigrams`.execute(db);
  await sql`drop table post_search`.execute(db);
}
