import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The changes feed (`GET /changes`): one row per change of an event, venue, organizer, category or
// tag, written by triggers in the transaction of the write itself, whatever code runs it (requests,
// the trash purge, scheduled publication, the CLI). `token` is the feed's position:
// - SQLite has one writer at a time, so the row's own autoincrement ID is in commit order already;
// - on PostgreSQL an ID taken during a transaction can commit after a higher one, so the row gets
//   its token at commit instead: a deferred trigger takes one transaction-scoped advisory lock and
//   numbers the transaction's rows from a sequence. The lock is held until the commit has ended,
//   so the next transaction can number only after it: tokens follow commit order, and a reader
//   that sees token N sees every lower one.
// `record_changes_purged` holds the highest token the retention purge removed: a client behind it
// may have missed a change.

/** Advisory lock of token numbering; other advisory locks hash names (db/name-locks.ts). */
const TOKEN_LOCK_KEY = 7_352_019_416;

const POST_TYPES = "('event', 'venue', 'organizer')";
const SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%S', 'now')";
const POSTGRES_NOW = "to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')";

/** A post's update is a change when it says so: every write sets `modified_utc` or `status`. */
const POST_ACTION = `case when new.status = 'trash' and old.status <> 'trash' then 'trashed'
  when old.status = 'trash' and new.status <> 'trash' then 'restored' else 'updated' end`;
const termType = (row: string) => `case when ${row}.taxonomy = 'tribe_events_cat' then 'category' else 'tag' end`;
// A term created without a slug gets its ID as slug by an update in the same write (terms/repository.ts):
// that completes the creation.
const PLACEHOLDER = "old.slug not like 'pending %'";

const COLUMNS = '(type, record_id, action, status, author, modified_utc, changed_utc)';

const SQLITE = [
  sql.raw(`create trigger record_changes_token after insert on record_changes begin
    update record_changes set token = new.id where id = new.id;
  end`),
  sql.raw(`create trigger posts_change_insert after insert on posts when new.type in ${POST_TYPES} begin
    insert into record_changes ${COLUMNS}
    values (new.type, new.id, 'created', new.status, new.author, new.modified_utc, ${SQLITE_NOW});
  end`),
  sql.raw(`create trigger posts_change_update after update of status, modified_utc on posts when new.type in ${POST_TYPES} begin
    insert into record_changes ${COLUMNS}
    values (new.type, new.id, ${POST_ACTION}, new.status, new.author, new.modified_utc, ${SQLITE_NOW});
  end`),
  sql.raw(`create trigger posts_change_delete after delete on posts when old.type in ${POST_TYPES} begin
    insert into record_changes ${COLUMNS}
    values (old.type, old.id, 'deleted', old.status, old.author, ${SQLITE_NOW}, ${SQLITE_NOW});
  end`),
  sql.raw(`create trigger terms_change_insert after insert on terms begin
    insert into record_changes ${COLUMNS}
    values (${termType('new')}, new.id, 'created', 'publish', 0, ${SQLITE_NOW}, ${SQLITE_NOW});
  end`),
  sql.raw(`create trigger terms_change_update after update of name, slug, description, parent on terms when ${PLACEHOLDER} begin
    insert into record_changes ${COLUMNS}
    values (${termType('new')}, new.id, 'updated', 'publish', 0, ${SQLITE_NOW}, ${SQLITE_NOW});
  end`),
  sql.raw(`create trigger terms_change_delete after delete on terms begin
    insert into record_changes ${COLUMNS}
    values (${termType('old')}, old.id, 'deleted', 'publish', 0, ${SQLITE_NOW}, ${SQLITE_NOW});
  end`),
];

const POSTGRES = [
  sql.raw(`create sequence record_change_tokens`),
  sql.raw(`create function record_changes_token() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(${TOKEN_LOCK_KEY});
      update record_changes set token = nextval('record_change_tokens') where id = new.id;
      return null;
    end $$`),
  sql.raw(`create constraint trigger record_changes_token after insert on record_changes
    deferrable initially deferred for each row execute function record_changes_token()`),
  sql.raw(`create function posts_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into record_changes ${COLUMNS}
        values (new.type, new.id, 'created', new.status, new.author, new.modified_utc, ${POSTGRES_NOW});
      elsif tg_op = 'UPDATE' then
        insert into record_changes ${COLUMNS}
        values (new.type, new.id, ${POST_ACTION}, new.status, new.author, new.modified_utc, ${POSTGRES_NOW});
      else
        insert into record_changes ${COLUMNS}
        values (old.type, old.id, 'deleted', old.status, old.author, ${POSTGRES_NOW}, ${POSTGRES_NOW});
      end if;
      return null;
    end $$`),
  sql.raw(`create trigger posts_change_insert after insert on posts for each row
    when (new.type in ${POST_TYPES}) execute function posts_change()`),
  sql.raw(`create trigger posts_change_update after update of status, modified_utc on posts for each row
    when (new.type in ${POST_TYPES}) execute function posts_change()`),
  sql.raw(`create trigger posts_change_delete after delete on posts for each row
    when (old.type in ${POST_TYPES}) execute function posts_change()`),
  sql.raw(`create function terms_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        insert into record_changes ${COLUMNS}
        values (${termType('old')}, old.id, 'deleted', 'publish', 0, ${POSTGRES_NOW}, ${POSTGRES_NOW});
      else
        insert into record_changes ${COLUMNS}
        values (${termType('new')}, new.id, case when tg_op = 'INSERT' then 'created' else 'updated' end, 'publish', 0,
          ${POSTGRES_NOW}, ${POSTGRES_NOW});
      end if;
      return null;
    end $$`),
  sql.raw(`create trigger terms_change_insert after insert or delete on terms for each row execute function terms_change()`),
  sql.raw(`create trigger terms_change_update after update of name, slug, description, parent on terms for each row
    when (${PLACEHOLDER}) execute function terms_change()`),
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('record_changes')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('token', 'bigint')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('author', 'integer', (c) => c.notNull())
    .addColumn('modified_utc', 'text', (c) => c.notNull())
    .addColumn('changed_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('record_changes_token').on('record_changes').column('token').unique().execute();
  await db.schema.createIndex('record_changes_changed').on('record_changes').column('changed_utc').execute();
  await db.schema
    .createTable('record_changes_purged')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('token', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into record_changes_purged (id, token) values (1, 0)`.execute(db);
  for (const statement of postgres ? POSTGRES : SQLITE) await statement.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger terms_change_update on terms`.execute(db);
    await sql`drop trigger terms_change_insert on terms`.execute(db);
    for (const t of ['posts_change_delete', 'posts_change_update', 'posts_change_insert'])
      await sql`drop trigger ${sql.raw(t)} on posts`.execute(db);
    await sql`drop function terms_change()`.execute(db);
    await sql`drop function posts_change()`.execute(db);
  } else {
    for (const t of ['terms_change_delete', 'terms_change_update', 'terms_change_insert', 'posts_change_delete'])
      await sql`drop trigger ${sql.raw(t)}`.execute(db);
    for (const t of ['posts_change_update', 'posts_change_insert']) await sql`drop trigger ${sql.raw(t)}`.execute(db);
  }
  await db.schema.dropTable('record_changes_purged').execute();
  await db.schema.dropTable('record_changes').execute();
  if (postgres) {
    await sql`drop function record_changes_token()`.execute(db);
    await sql`drop sequence record_change_tokens`.execute(db);
  }
}
