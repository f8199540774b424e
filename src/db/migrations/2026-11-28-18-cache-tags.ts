import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Every write bumped one `data_version`, and the response cache dropped every answer with it. Each
// write now also bumps the tags of what it changed, so that a cached read goes stale only when
// something it was built from did. Triggers bump them, so that no write path (the service, an
// import, the trash purge, the scheduled publication, a future one) can forget a tag:
// - `r:<n>`: the post-like records (events, venues, organizers, images) whose ID is n modulo 256:
//   their rows and, for an event, its links to venues, organizers and terms;
// - `t:<n>`: the terms whose ID is n modulo 256, their event counts included;
// - `c:<type>`: any record of a post type or taxonomy.
// The status and author of a venue or organizer decide who sees it embedded in an event: a change
// of either also bumps the tags of the events linking it, which a read that left it out (and so
// never named its tag) was built from.
// The modulo bounds the rows a reader reads; two records of one residue share a tag, which only
// makes an answer stale sooner. A reader sums each tag's rows. On PostgreSQL a type tag is
// sharded as `data_version` is (migration 13), so that concurrent writes of one type take
// different rows; a record's tag is one row, which only writes of that record (or of its residue)
// share.

const BUCKETS = 256;
const SHARDS = 16;

interface Source {
  table: string;
  /** The tags of a row (`old` or `new`), as SQL expressions. */
  tags: (row: 'old' | 'new') => string[];
  /**
   * A record's detail row (`events`, `venues`, …) is inserted and deleted only with its `posts`
   * row, whose triggers bump the same tags; `event_terms` rows are updated only by the mirror of
   * their event's listing columns, which an update of `events` has bumped.
   */
  ops: string;
}

const record = (column: string) => (row: 'old' | 'new') => `'r:' || (${row}.${column} % ${BUCKETS})`;
const SOURCES: Source[] = [
  { table: 'posts', tags: (row) => [record('id')(row), `'c:' || ${row}.type`], ops: 'insert or update or delete' },
  ...(['event', 'venue', 'organizer', 'image'] as const).map((type) => ({
    table: `${type}s`,
    tags: (row: 'old' | 'new') => [record('post_id')(row), `'c:${type}'`],
    ops: 'update',
  })),
  ...['event_venues', 'event_organizers'].map((table) => ({
    table,
    tags: (row: 'old' | 'new') => [record('event_id')(row), `'c:event'`],
    ops: 'insert or update or delete',
  })),
  { table: 'event_terms', tags: (row) => [record('event_id')(row), `'c:event'`], ops: 'insert or delete' },
  {
    table: 'terms',
    tags: (row) => [`'t:' || (${row}.id % ${BUCKETS})`, `'c:' || ${row}.taxonomy`],
    ops: 'insert or update or delete',
  },
];

const ACCESS_CHANGED = `(old.status, old.author)`;
/** The tags of the events linking the updated venue or organizer, as one query. */
const LINKING_EVENTS = ['venue', 'organizer']
  .map(
    (type) =>
      `select 'r:' || (event_id % ${BUCKETS}) as tag from event_${type}s where ${type}_id = new.id and new.type = '${type}'`,
  )
  .join(' union ');

const UPSERT = 'on conflict (tag, shard) do update set version = version + 1;';
/** A row's own tags: plain values, which SQLite runs faster than a select (a key given twice is bumped twice). */
const sqliteBump = (tags: string[]) =>
  `insert into cache_tags (tag, shard, version) values ${tags.map((tag) => `(${tag}, 0, 1)`).join(', ')} ${UPSERT}`;
const sqliteBumpSelected = (tags: string, when: string) =>
  `insert into cache_tags (tag, shard, version) select tag, 0, 1 from (${tags}) where ${when} ${UPSERT}`;

function sqliteTriggers(): string[] {
  return SOURCES.flatMap(({ table, tags, ops }) =>
    ops.split(' or ').map((op) => {
      const row = op === 'delete' ? 'old' : 'new';
      const access =
        table === 'posts' && op === 'update'
          ? sqliteBumpSelected(LINKING_EVENTS, `${ACCESS_CHANGED} is not (new.status, new.author)`)
          : '';
      return `create trigger cache_tags_${table}_${op} after ${op} on ${table} begin
        ${sqliteBump(tags(row))}
        ${access}
      end`;
    }),
  );
}

function postgresStatements(): string[] {
  return [
    // Distinct: one statement may not update a row twice. Ordered: two writes that bump the same
    // rows (a venue's status change reaches every linking event) take their locks in one order.
    `create function cache_tags_bump(tags text[]) returns void language sql as $$
      insert into cache_tags (tag, shard, version)
      select distinct tag, case when tag like 'c:%' then (txid_current() % ${SHARDS})::integer else 0 end, 1
      from unnest(tags) as tag
      order by 1, 2
      on conflict (tag, shard) do update set version = cache_tags.version + 1
    $$`,
    ...SOURCES.flatMap(({ table, tags, ops }) => [
      `create function cache_tags_${table}() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then
            perform cache_tags_bump(array[${tags('old').join(', ')}]);
          else
            perform cache_tags_bump(array[${tags('new').join(', ')}]);
          end if;
          ${
            table === 'posts'
              ? `if tg_op = 'UPDATE' and new.type in ('venue', 'organizer')
              and ${ACCESS_CHANGED} is distinct from (new.status, new.author) then
            perform cache_tags_bump(array(${LINKING_EVENTS}));
          end if;`
              : ''
          }
          return null;
        end $$`,
      `create trigger cache_tags after ${ops} on ${table} for each row execute function cache_tags_${table}()`,
    ]),
  ];
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`create table cache_tags (
    tag text not null, shard integer not null, version bigint not null,
    constraint cache_tags_key primary key (tag, shard)) ${sql.raw(postgres ? '' : 'without rowid')}`.execute(db);
  for (const statement of postgres ? postgresStatements() : sqliteTriggers()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const { table, ops } of SOURCES) {
    if (postgres) {
      await sql.raw(`drop trigger cache_tags on ${table}`).execute(db);
      await sql.raw(`drop function cache_tags_${table}()`).execute(db);
    } else {
      for (const op of ops.split(' or ')) await sql.raw(`drop trigger cache_tags_${table}_${op}`).execute(db);
    }
  }
  if (postgres) await sql`drop function cache_tags_bump(text[])`.execute(db);
  await db.schema.dropTable('cache_tags').execute();
}
