import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Searching events (events.md 2.5) on PostgreSQL: trigram indexes (the pg_trgm extension) over the
// lower-cased title, excerpt and description answer `lower(column) like '%word%'` for words of
// three characters or more without reading every record, as the full-text index of migration 05
// does on SQLite. pg_trgm ships with PostgreSQL and may be created by any user allowed to create
// in the database; where it cannot be, search stays correct and reads the records (the attempt
// runs under a savepoint so that the other migrations go on).

const COLUMNS = ['title', 'excerpt', 'description'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`savepoint search_trigrams`.execute(db);
  try {
    // In `public` unless the database has it already, whatever schema this database's tables live
    // in, so that every schema shares one.
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    const opclass = sql`${sql.id(rows[0]!.schema)}.gin_trgm_ops`;
    for (const column of COLUMNS) {
      await sql`create index ${sql.id(`posts_${column}_trigrams`)} on posts using gin (lower(${sql.ref(column)}) ${opclass})`.execute(db);
    }
  } catch {
    await sql`rollback to savepoint search_trigrams`.execute(db);
    return;
  }
  await sql`release savepoint search_trigrams`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const column of COLUMNS) await sql`drop index if exists ${sql.id(`posts_${column}_trigrams`)}`.execute(db);
}
