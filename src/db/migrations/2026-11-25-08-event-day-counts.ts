import { PostgresAdapter, sql, type Kysely } from 'kysely';

// A list total over a date window alone reads every event of the window, so it grows with the
// data. `event_day_counts` holds how many events there are per listing state (status, hidden,
// featured) and per pair of calendar days (the day the event starts, the day it ends), on each
// clock a list can compare: `utc` (the UTC columns, a site in UTC) and `local` (each event's own
// wall clock). A window's total is then a sum over the pairs of days that lie wholly inside it,
// plus an exact count of the few events on a bound that falls within a day (events/day-counts.ts).
// Triggers keep it exact on every write of `events`, including the status mirror of migration 04;
// a row whose status is not mirrored yet (empty) is not counted.

const KEY = 'clock, status, hide_from_listings, featured, start_day, end_day';

const keyOf = (row: 'new' | 'old') =>
  sql.raw(
    [
      `('utc', ${row}.status, ${row}.hide_from_listings, ${row}.featured, substr(${row}.utc_start_date, 1, 10), substr(${row}.utc_end_date, 1, 10))`,
      `('local', ${row}.status, ${row}.hide_from_listings, ${row}.featured, substr(${row}.start_date, 1, 10), substr(${row}.end_date, 1, 10))`,
    ].join(', '),
  );

const add = sql`insert into event_day_counts (${sql.raw(KEY)}, n)
  select k.*, 1 from (values ${keyOf('new')}) as k
  where true on conflict (${sql.raw(KEY)}) do update set n = event_day_counts.n + 1`;
const remove = sql`update event_day_counts set n = n - 1 where (${sql.raw(KEY)}) in (values ${keyOf('old')})`;
const COLUMNS = 'status, hide_from_listings, featured, start_date, end_date, utc_start_date, utc_end_date';

const SQLITE_TRIGGERS = [
  sql`create trigger event_day_counts_insert after insert on events when new.status <> '' begin ${add}; end`,
  sql`create trigger event_day_counts_delete after delete on events when old.status <> '' begin ${remove}; end`,
  sql`create trigger event_day_counts_update_old after update of ${sql.raw(COLUMNS)} on events when old.status <> '' begin ${remove}; end`,
  sql`create trigger event_day_counts_update_new after update of ${sql.raw(COLUMNS)} on events when new.status <> '' begin ${add}; end`,
];

const POSTGRES_TRIGGERS = [
  sql`create function event_day_counts() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.status <> '' then ${remove}; end if;
      if tg_op <> 'DELETE' and new.status <> '' then ${add}; end if;
      return null;
    end $$`,
  sql`create trigger event_day_counts after insert or delete or update of ${sql.raw(COLUMNS)} on events for each row execute function event_day_counts()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('event_day_counts')
    .addColumn('clock', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('hide_from_listings', 'integer', (c) => c.notNull())
    .addColumn('featured', 'integer', (c) => c.notNull())
    .addColumn('start_day', 'text', (c) => c.notNull())
    .addColumn('end_day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_day_counts_key', ['clock', 'status', 'hide_from_listings', 'featured', 'start_day', 'end_day'])
    // SQLite stores the rows in the key's order, so that a sum reads one range and nothing else.
    .$call((table) => (postgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  for (const [clock, start, end] of [
    ['utc', 'utc_start_date', 'utc_end_date'],
    ['local', 'start_date', 'end_date'],
  ] as const) {
    await sql`insert into event_day_counts (${sql.raw(KEY)}, n)
      select ${clock}, status, hide_from_listings, featured, substr(${sql.ref(start)}, 1, 10), substr(${sql.ref(end)}, 1, 10), count(*)
      from events where status <> '' group by 1, 2, 3, 4, 5, 6`.execute(db);
  }
  for (const statement of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await statement.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger event_day_counts on events`.execute(db);
    await sql`drop function event_day_counts()`.execute(db);
  } else {
    for (const trigger of ['event_day_counts_update_new', 'event_day_counts_update_old', 'event_day_counts_delete', 'event_day_counts_insert']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('event_day_counts').execute();
}
