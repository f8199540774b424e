import type { Kysely } from 'kysely';

// Records imported from elsewhere (an iCalendar UID, a TEC site's record ID) and the local record
// each became, so that importing again updates instead of duplicating. `fingerprint` digests what
// the last import wrote, so that an unchanged source record is reported (and left) unchanged.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_sources')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('local_id', 'integer', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_sources_pkey', ['source', 'kind', 'source_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_sources').execute();
}
