import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Concurrent writes on PostgreSQL met on a few derived rows and held them until commit:
// - the listing mirrors (migrations 04 and 06) rewrote `events` and `event_terms` on every save
//   of a post, changed or not, and PostgreSQL fires `after update of` triggers whenever a column
//   is in the SET list; so a title-only update took the per-day counts of its event;
// - the per-day counts (migration 08) took their two rows in a different order on insert (as
//   written) and on update (as the index returned them), so two writes on one date could
//   deadlock; and every write of a date waited for the previous one's commit on the same rows;
// - every write bumped the one `data_version` row last, so all writes queued there.
// Now the mirrors and the counts run only when what they copy or count changed; the counts of
// one row change are applied in one statement, in key order; and the hot counters are sharded:
// rows that only ever add up, so a write takes a row no concurrent write needs. A sum over the
// shards is exact, and grows only when a transaction commits (unlike a sequence), so
// `data_version` still never announces a write before it is visible. SQLite has one writer: there
// every write uses shard 0 of the counts and row 1 of `data_version`, as before.

/** Rows of `data_version` (ids 1 to this); its readers sum them (db/data-version.ts). */
const VERSION_SHARDS = 16;
/** Shards of each key of `event_day_counts` besides 0, used while 0 is held by another transaction. */
const SPILL_SHARDS = 15;

const KEY = ['clock', 'status', 'hide_from_listings', 'featured', 'start_day', 'end_day'] as const;
const key = sql.raw(KEY.join(', '));
const keyIsShard = (shard: string) => sql.raw(`${KEY.map((c) => `c.${c} = d.${c}`).join(' and ')} and c.shard = ${shard}`);

/** The columns the counts read, as the values they are counted by. */
const countedOf = (row: 'old' | 'new') =>
  `(${row}.status, ${row}.hide_from_listings, ${row}.featured, ${['start_date', 'end_date', 'utc_start_date', 'utc_end_date'].map((c) => `substr(${row}.${c}, 1, 10)`).join(', ')})`;
/** The two keys a row is counted under, one per clock, each with `delta`; selects that a union joins. */
const keysOf = (row: 'old' | 'new', delta: number) =>
  (
    [
      ['utc', 'utc_start_date', 'utc_end_date'],
      ['local', 'start_date', 'end_date'],
    ] as const
  ).map(
    ([clock, start, end]) =>
      `select '${clock}' as clock, ${row}.status as status, ${row}.hide_from_listings as hide_from_listings, ${row}.featured as featured, ` +
      `substr(${row}.${start}, 1, 10) as start_day, substr(${row}.${end}, 1, 10) as end_day, ${delta} as delta`,
  );
const COUNTED_COLUMNS = 'status, hide_from_listings, featured, start_date, end_date, utc_start_date, utc_end_date';

/** The net change of each key for one row written (`old` or `new` null on insert and delete), in key order; a row whose status is not mirrored yet is not counted. */
const deltas = (rows: ReadonlyArray<readonly ['old' | 'new', number]>) =>
  sql.raw(`select ${KEY.join(', ')}, sum(delta) as delta
    from (${rows.flatMap(([row, delta]) => keysOf(row, delta)).join(' union all ')}) as k
    where status <> '' group by ${KEY.join(', ')} having sum(delta) <> 0 order by ${KEY.join(', ')}`);

const LISTED_COLUMNS = ['status', 'author', 'hide_from_listings', 'start_date', 'end_date', 'utc_start_date', 'utc_end_date', 'featured'];
const listedOf = (row: 'old' | 'new') => `(${LISTED_COLUMNS.map((c) => `${row}.${c}`).join(', ')})`;
const fromNew = sql.raw(LISTED_COLUMNS.map((c) => `${c} = new.${c}`).join(', '));

const SQLITE_TRIGGERS = [
  sql`create trigger posts_listing_update after update of status, author on posts
    when new.type = 'event' and (old.status, old.author) is not (new.status, new.author) begin
    update events set status = new.status, author = new.author where post_id = new.id;
  end`,
  sql`create trigger events_terms_listing_update after update of ${sql.raw(LISTED_COLUMNS.join(', '))} on events
    when ${sql.raw(listedOf('old'))} is not ${sql.raw(listedOf('new'))} begin
    update event_terms set ${fromNew} where event_id = new.post_id;
  end`,
  ...(
    [
      ['insert', 'after insert on events', [['new', 1]]],
      ['delete', 'after delete on events', [['old', -1]]],
      ['update', `after update of ${COUNTED_COLUMNS} on events when ${countedOf('old')} is not ${countedOf('new')}`, [['old', -1], ['new', 1]]],
    ] as const
  ).map(
    ([name, when, rows]) => sql`create trigger ${sql.raw(`event_day_counts_${name}`)} ${sql.raw(when)} begin
      insert into event_day_counts (${key}, shard, n) select ${key}, 0, delta from (${deltas(rows)})
      where true on conflict (${key}, shard) do update set n = n + excluded.n;
    end`,
  ),
];

const POSTGRES_TRIGGERS = [
  sql`create trigger posts_listing_update after update of status, author on posts for each row
    when (new.type = 'event' and (old.status, old.author) is distinct from (new.status, new.author)) execute function posts_listing_update()`,
  sql`create trigger events_terms_listing_update after update of ${sql.raw(LISTED_COLUMNS.join(', '))} on events for each row
    when (${sql.raw(listedOf('old'))} is distinct from ${sql.raw(listedOf('new'))}) execute function events_terms_listing()`,
  // Shard 0 when no other transaction holds it, so that a key stays one row unless writes of it
  // overlap; another shard, picked by the transaction, while it does. `old` is null on insert.
  sql`create function event_day_counts() returns trigger language plpgsql as $$
    declare
      d record;
    begin
      for d in ${deltas([['old', -1], ['new', 1]])} loop
        perform 1 from event_day_counts c where ${keyIsShard('0')} for update skip locked;
        if found then
          update event_day_counts c set n = c.n + d.delta where ${keyIsShard('0')};
        else
          insert into event_day_counts (${key}, shard, n)
          values (d.clock, d.status, d.hide_from_listings, d.featured, d.start_day, d.end_day,
            case when exists (select 1 from event_day_counts c where ${keyIsShard('0')}) then 1 + txid_current() % ${sql.lit(SPILL_SHARDS)} else 0 end,
            d.delta)
          on conflict (${key}, shard) do update set n = event_day_counts.n + excluded.n;
        end if;
      end loop;
      return null;
    end $$`,
  sql`create trigger event_day_counts_insert_delete after insert or delete on events for each row execute function event_day_counts()`,
  sql`create trigger event_day_counts_update after update of ${sql.raw(COUNTED_COLUMNS)} on events for each row
    when (${sql.raw(countedOf('old'))} is distinct from ${sql.raw(countedOf('new'))}) execute function event_day_counts()`,
];

async function dropTriggers(db: Kysely<any>, postgres: boolean, triggers: Record<'postgres' | 'sqlite', string[]>, functions: string[]): Promise<void> {
  for (const trigger of postgres ? triggers.postgres : triggers.sqlite) {
    const [name, table] = trigger.split(' on ');
    await sql`drop trigger ${sql.raw(postgres ? `${name} on ${table}` : name!)}`.execute(db);
  }
  if (postgres) for (const fn of functions) await sql`drop function ${sql.raw(fn)}()`.execute(db);
}

/** Moves `event_day_counts` into a table of the given key, summing its rows into each new key. */
async function reshapeDayCounts(db: Kysely<any>, postgres: boolean, sharded: boolean): Promise<void> {
  const shard = sql.raw(sharded ? 'shard integer not null default 0,' : '');
  const primaryKey = sql.raw(sharded ? `event_day_counts_shard_key primary key (${KEY.join(', ')}, shard)` : `event_day_counts_key primary key (${KEY.join(', ')})`);
  // SQLite stores the rows in the key's order, so that a sum reads one range and nothing else.
  await sql`create table event_day_counts_next (
    clock text not null, status text not null, hide_from_listings integer not null, featured integer not null,
    start_day text not null, end_day text not null, ${shard} n integer not null,
    constraint ${primaryKey}) ${sql.raw(postgres ? '' : 'without rowid')}`.execute(db);
  await sql`insert into event_day_counts_next (${key}, ${sql.raw(sharded ? 'shard, ' : '')}n)
    select ${key}, ${sql.raw(sharded ? '0, ' : '')}sum(n) from event_day_counts group by ${key} having sum(n) <> 0`.execute(db);
  await db.schema.dropTable('event_day_counts').execute();
  await db.schema.alterTable('event_day_counts_next').renameTo('event_day_counts').execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await dropTriggers(
    db,
    postgres,
    {
      postgres: ['posts_listing_update on posts', 'events_terms_listing_update on events', 'event_day_counts on events'],
      sqlite: ['posts_listing_update', 'events_terms_listing_update', 'event_day_counts_insert', 'event_day_counts_delete', 'event_day_counts_update_old', 'event_day_counts_update_new'],
    },
    ['event_day_counts'],
  );
  await reshapeDayCounts(db, postgres, true);
  for (const statement of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await statement.execute(db);
  for (let id = 2; id <= VERSION_SHARDS; id++) await sql`insert into data_version (id, version) values (${id}, 0)`.execute(db);
}

// The triggers of migrations 04, 06 and 08, as they were.
const KEY_08 = KEY.join(', ');
const values08 = (row: 'old' | 'new') =>
  `('utc', ${row}.status, ${row}.hide_from_listings, ${row}.featured, substr(${row}.utc_start_date, 1, 10), substr(${row}.utc_end_date, 1, 10)), ` +
  `('local', ${row}.status, ${row}.hide_from_listings, ${row}.featured, substr(${row}.start_date, 1, 10), substr(${row}.end_date, 1, 10))`;
const add08 = (row: 'new') => `insert into event_day_counts (${KEY_08}, n)
  select k.*, 1 from (values ${values08(row)}) as k
  where true on conflict (${KEY_08}) do update set n = event_day_counts.n + 1`;
const remove08 = (row: 'old') => `update event_day_counts set n = n - 1 where (${KEY_08}) in (values ${values08(row)})`;

const SQLITE_TRIGGERS_BEFORE = [
  `create trigger posts_listing_update after update of status, author on posts when new.type = 'event' begin
    update events set status = new.status, author = new.author where post_id = new.id;
  end`,
  `create trigger events_terms_listing_update after update of ${LISTED_COLUMNS.join(', ')} on events begin
    update event_terms set ${LISTED_COLUMNS.map((c) => `${c} = new.${c}`).join(', ')} where event_id = new.post_id;
  end`,
  `create trigger event_day_counts_insert after insert on events when new.status <> '' begin ${add08('new')}; end`,
  `create trigger event_day_counts_delete after delete on events when old.status <> '' begin ${remove08('old')}; end`,
  `create trigger event_day_counts_update_old after update of ${COUNTED_COLUMNS} on events when old.status <> '' begin ${remove08('old')}; end`,
  `create trigger event_day_counts_update_new after update of ${COUNTED_COLUMNS} on events when new.status <> '' begin ${add08('new')}; end`,
];

const POSTGRES_TRIGGERS_BEFORE = [
  `create trigger posts_listing_update after update of status, author on posts for each row
    when (new.type = 'event') execute function posts_listing_update()`,
  `create trigger events_terms_listing_update after update of ${LISTED_COLUMNS.join(', ')} on events for each row execute function events_terms_listing()`,
  `create function event_day_counts() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.status <> '' then ${remove08('old')}; end if;
      if tg_op <> 'DELETE' and new.status <> '' then ${add08('new')}; end if;
      return null;
    end $$`,
  `create trigger event_day_counts after insert or delete or update of ${COUNTED_COLUMNS} on events for each row execute function event_day_counts()`,
];

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`update data_version set version = (select sum(version) from data_version) where id = 1`.execute(db);
  await sql`delete from data_version where id <> 1`.execute(db);
  await dropTriggers(
    db,
    postgres,
    {
      postgres: ['posts_listing_update on posts', 'events_terms_listing_update on events', 'event_day_counts_insert_delete on events', 'event_day_counts_update on events'],
      sqlite: ['posts_listing_update', 'events_terms_listing_update', 'event_day_counts_insert', 'event_day_counts_delete', 'event_day_counts_update'],
    },
    ['event_day_counts'],
  );
  await reshapeDayCounts(db, postgres, false);
  for (const statement of postgres ? POSTGRES_TRIGGERS_BEFORE : SQLITE_TRIGGERS_BEFORE) await sql.raw(statement).execute(db);
}
