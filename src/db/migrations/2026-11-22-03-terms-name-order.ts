import { sql, type Kysely } from 'kysely';

// Term lists sort by case-folded name, then ID, within one taxonomy (terms.md 3.3, O10): an
// expression index serves that order on SQLite and PostgreSQL alike.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index terms_taxonomy_lower_name on terms (taxonomy, lower(name), id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index terms_taxonomy_lower_name`.execute(db);
}
