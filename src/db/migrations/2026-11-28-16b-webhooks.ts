import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Webhook subscriptions and their deliveries. The outbox is `record_changes` (migration 16a),
// written in each write's transaction: deliveries are made from it after commit, one per change and
// subscription, and `webhook_outbox` holds the last change token turned into deliveries. A delivery
// row lives until it succeeds or is given up, so a restart or a killed process loses none.

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'bigserial' : 'integer';
  await db.schema
    .createTable('webhooks')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('url', 'text', (c) => c.notNull())
    /** Comma-separated event types (`event.created`, …, or `event.*`). */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('disabled_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('failing_since', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    /** The changes feed position when it was made: it receives the changes after it. */
    .addColumn('from_token', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('changed_utc', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_utc', 'text', (c) => c.notNull())
    .addColumn('last_attempt_utc', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_response', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_utc'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
  await db.schema
    .createTable('webhook_outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('token', 'bigint', (c) => c.notNull())
    .execute();
  // Deliveries start from the changes made after this migration.
  await sql`insert into webhook_outbox (id, token) values (1, coalesce((select max(token) from record_changes), 0))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_outbox').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
