import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Finding a free `-n` suffix reads the slugs that start with `base-` as one index range. A range
// of prefixes holds only under code-point order: SQLite's BINARY index (posts_type_slug) already
// has it; on PostgreSQL the column's collation may not (en_US and the like skip punctuation), so
// the range runs under "C" on an index of its own.

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index posts_type_slug_code_points on posts (type, slug collate "C")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop index posts_type_slug_code_points`.execute(db);
}
