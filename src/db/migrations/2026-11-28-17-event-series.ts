import type { Kysely } from 'kysely';

// Recurring events (issue 34). A series is its first event (the parent) plus occurrence events
// whose `posts.parent_id` names it. `event_series` holds the parent's rule and how far ahead its
// occurrences exist; `event_series_members` ties each occurrence to its series with the start the
// rule gave it (matched again when the rule changes) and whether it was edited alone.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_series')
    .addColumn('post_id', 'integer', (c) => c.primaryKey())
    .addColumn('rrule', 'text', (c) => c.notNull())
    .addColumn('rdates', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('exdates', 'text', (c) => c.notNull().defaultTo('[]'))
    // UTC wall time up to which occurrences exist; '' once the rule ends before the horizon.
    .addColumn('materialized_until', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('event_series_members')
    .addColumn('event_id', 'integer', (c) => c.primaryKey())
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('original_start', 'text', (c) => c.notNull())
    .addColumn('detached', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('event_series_members_series')
    .on('event_series_members')
    .columns(['series_id', 'original_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_series_members').execute();
  await db.schema.dropTable('event_series').execute();
}
