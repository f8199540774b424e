import type { Kysely } from 'kysely';

// The currency symbol and its position inferred from an event's cost input (events.md 1.4,
// "Symbol inference"): '' when none was inferred.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('cost_symbol', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('events').addColumn('cost_position', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('cost_position').execute();
  await db.schema.alterTable('events').dropColumn('cost_symbol').execute();
}
