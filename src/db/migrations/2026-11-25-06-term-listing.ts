import { PostgresAdapter, sql, type Kysely } from 'kysely';

// A category or tag filter counts the events of its terms inside a date window. Each link of
// `event_terms` carries a copy of its event's listing columns (the ones `events_listing` indexes),
// so that such a count reads one range of `event_terms_listing` per term and status: the links of
// the term in the window, not every event of the window nor every event of the term. Triggers
// keep the copies equal to `events` (whose status and author mirror `posts`, migration 04); a link
// made before its event row exists is filled in when that row is inserted.

/** The copied columns and their types; nullable: a link whose event row does not exist yet matches no list condition. */
const TYPES = {
  status: 'text',
  author: 'integer',
  hide_from_listings: 'integer',
  start_date: 'text',
  end_date: 'text',
  utc_start_date: 'text',
  utc_end_date: 'text',
  featured: 'integer',
} as const;
const COLUMNS = Object.keys(TYPES) as Array<keyof typeof TYPES>;

const list = sql.raw(COLUMNS.join(', '));
const fromNew = sql.raw(COLUMNS.map((c) => `${c} = new.${c}`).join(', '));

const SQLITE_TRIGGERS = [
  sql`create trigger event_terms_listing_insert after insert on event_terms
    when exists (select 1 from events where post_id = new.event_id) begin
    update event_terms set (${list}) = (select ${list} from events where post_id = new.event_id)
    where event_id = new.event_id and term_id = new.term_id;
  end`,
  sql`create trigger events_terms_listing_insert after insert on events begin
    update event_terms set ${fromNew} where event_id = new.post_id;
  end`,
  sql`create trigger events_terms_listing_update after update of ${list} on events begin
    update event_terms set ${fromNew} where event_id = new.post_id;
  end`,
];

const POSTGRES_TRIGGERS = [
  sql`create function event_terms_listing_insert() returns trigger language plpgsql as $$
    begin
      select ${list} into ${sql.raw(COLUMNS.map((c) => `new.${c}`).join(', '))} from events where post_id = new.event_id;
      return new;
    end $$`,
  sql`create trigger event_terms_listing_insert before insert on event_terms for each row execute function event_terms_listing_insert()`,
  sql`create function events_terms_listing() returns trigger language plpgsql as $$
    begin
      update event_terms set ${fromNew} where event_id = new.post_id;
      return null;
    end $$`,
  sql`create trigger events_terms_listing_insert after insert on events for each row execute function events_terms_listing()`,
  sql`create trigger events_terms_listing_update after update of ${list} on events for each row execute function events_terms_listing()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const column of COLUMNS) await db.schema.alterTable('event_terms').addColumn(column, TYPES[column]).execute();
  await sql`update event_terms set (${list}) = (select ${list} from events where events.post_id = event_terms.event_id)`.execute(db);
  for (const statement of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await statement.execute(db);
  await db.schema
    .createIndex('event_terms_listing')
    .on('event_terms')
    .columns(['term_id', 'status', 'start_date', 'utc_start_date', 'utc_end_date', 'end_date', 'hide_from_listings', 'featured', 'author', 'event_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('event_terms_listing').execute();
  if (postgres) {
    await sql`drop trigger events_terms_listing_update on events`.execute(db);
    await sql`drop trigger events_terms_listing_insert on events`.execute(db);
    await sql`drop trigger event_terms_listing_insert on event_terms`.execute(db);
    await sql`drop function events_terms_listing()`.execute(db);
    await sql`drop function event_terms_listing_insert()`.execute(db);
  } else {
    for (const trigger of ['events_terms_listing_update', 'events_terms_listing_insert', 'event_terms_listing_insert']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
  }
  for (const column of [...COLUMNS].reverse()) await db.schema.alterTable('event_terms').dropColumn(column).execute();
}
