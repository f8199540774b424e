import type { Kysely } from 'kysely';

// How many times an event has been updated: the SEQUENCE of its iCalendar form, which calendar
// clients compare to tell a newer version of an event from an older one (RFC 5545 3.8.7.4).
// Existing events start at 0, as if never updated.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('sequence').execute();
}
