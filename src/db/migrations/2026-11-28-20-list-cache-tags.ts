import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Event lists went stale on every write. A list filtered by categories or tags is now built from
// its terms' members (db/cache-tags.ts) rather than from every event:
// - `m:<n>`: the events carrying a term whose ID is n modulo 256. Bumped when an event gains or
//   loses the term, and on every change of the event's `posts` or `events` row, which hold all
//   that places it in such a list (status, author, dates, featured, hidden, publication date).
// - `c:<taxonomy>` now follows the terms' names, slugs, descriptions and parents only: an event
//   count moving (every event write does) bumps the term's own tag alone. What reads `c:` of a
//   taxonomy (a filter resolving names and slugs, a term's ancestors) reads no count.
// On PostgreSQL `m:` tags are sharded as `c:` tags are (migration 18): the events of one category
// are written concurrently. And a transaction bumps each tag once: readers only see a version
// change at commit, so one is all a tag needs, while every further update of the same row in one
// transaction walks the row versions the earlier ones left (a transaction writing a thousand
// events, a series or an import, bumped `c:event` thousands of times, in time growing with the
// square of the count). The tags already bumped are kept in a setting local to the transaction.

const BUCKETS = 256;
const SHARDS = 16;
const UPSERT = 'on conflict (tag, shard) do update set version = version + 1';
const member = (column: string) => `'m:' || (${column} % ${BUCKETS})`;
/** The terms' own columns besides the count. */
const TERM_TEXT = (row: 'old' | 'new') => `(${row}.taxonomy, ${row}.name, ${row}.slug, ${row}.description, ${row}.parent)`;

/** The event's terms' member tags, selected from its links. */
const membersOf = (eventId: string) => `select ${member('term_id')} as tag from event_terms where event_id = ${eventId}`;

function sqliteStatements(): string[] {
  const bumpMembers = (eventId: string) =>
    `insert into cache_tags (tag, shard, version) select tag, 0, 1 from (${membersOf(eventId)}) where true ${UPSERT};`;
  return [
    `create trigger cache_tags_members_posts_update after update on posts when new.type = 'event' begin
      ${bumpMembers('new.id')}
    end`,
    `create trigger cache_tags_members_events_update after update on events begin
      ${bumpMembers('new.post_id')}
    end`,
    ...['insert', 'delete'].map(
      (op) => `create trigger cache_tags_members_event_terms_${op} after ${op} on event_terms begin
        insert into cache_tags (tag, shard, version) values (${member(`${op === 'insert' ? 'new' : 'old'}.term_id`)}, 0, 1) ${UPSERT};
      end`,
    ),
    'drop trigger cache_tags_terms_update',
    `create trigger cache_tags_terms_update after update on terms begin
      insert into cache_tags (tag, shard, version) values ('t:' || (new.id % ${BUCKETS}), 0, 1) ${UPSERT};
      insert into cache_tags (tag, shard, version) select 'c:' || new.taxonomy, 0, 1
        where ${TERM_TEXT('old')} is not ${TERM_TEXT('new')} ${UPSERT};
    end`,
  ];
}

function postgresStatements(): string[] {
  return [
    `create or replace function cache_tags_bump(tags text[]) returns void language plpgsql as $$
      declare
        bumped text := coalesce(current_setting('calendar.bumped_tags', true), '');
        fresh text[];
      begin
        select array_agg(distinct tag) into fresh from unnest(tags) as tag
          where strpos(bumped, ',' || tag || ',') = 0;
        if fresh is null then
          return;
        end if;
        perform set_config('calendar.bumped_tags', coalesce(nullif(bumped, ''), ',') || array_to_string(fresh, ',') || ',', true);
        insert into cache_tags (tag, shard, version)
        select tag, case when tag like 'c:%' or tag like 'm:%' then (txid_current() % ${SHARDS})::integer else 0 end, 1
        from unnest(fresh) as tag
        order by 1, 2
        on conflict (tag, shard) do update set version = cache_tags.version + 1;
      end $$`,
    `create function cache_tags_members() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'event_terms' then
          perform cache_tags_bump(array[${member(`(case when tg_op = 'DELETE' then old.term_id else new.term_id end)`)}]);
        elsif tg_table_name = 'events' then
          perform cache_tags_bump(array(${membersOf('new.post_id')}));
        elsif new.type = 'event' then
          perform cache_tags_bump(array(${membersOf('new.id')}));
        end if;
        return null;
      end $$`,
    'create trigger cache_tags_members after update on posts for each row execute function cache_tags_members()',
    'create trigger cache_tags_members after update on events for each row execute function cache_tags_members()',
    'create trigger cache_tags_members after insert or delete on event_terms for each row execute function cache_tags_members()',
    `create or replace function cache_tags_terms() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform cache_tags_bump(array['t:' || (old.id % ${BUCKETS}), 'c:' || old.taxonomy]);
        elsif tg_op = 'UPDATE' and ${TERM_TEXT('old')} is not distinct from ${TERM_TEXT('new')} then
          perform cache_tags_bump(array['t:' || (new.id % ${BUCKETS})]);
        else
          perform cache_tags_bump(array['t:' || (new.id % ${BUCKETS}), 'c:' || new.taxonomy]);
        end if;
        return null;
      end $$`,
  ];
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of postgres ? postgresStatements() : sqliteStatements()) await sql.raw(statement).execute(db);
}

/** Migration 18's forms of what `up` replaced: the type tag bumped by any change of a term, `c:` tags alone sharded. */
function earlierStatements(postgres: boolean): string[] {
  if (!postgres)
    return [
      'drop trigger cache_tags_terms_update',
      `create trigger cache_tags_terms_update after update on terms begin
        insert into cache_tags (tag, shard, version) values ('t:' || (new.id % ${BUCKETS}), 0, 1), ('c:' || new.taxonomy, 0, 1) ${UPSERT};
      end`,
    ];
  return [
    `create or replace function cache_tags_bump(tags text[]) returns void language sql as $$
      insert into cache_tags (tag, shard, version)
      select distinct tag, case when tag like 'c:%' then (txid_current() % ${SHARDS})::integer else 0 end, 1
      from unnest(tags) as tag
      order by 1, 2
      on conflict (tag, shard) do update set version = cache_tags.version + 1
    $$`,
    `create or replace function cache_tags_terms() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform cache_tags_bump(array['t:' || (old.id % ${BUCKETS}), 'c:' || old.taxonomy]);
        else
          perform cache_tags_bump(array['t:' || (new.id % ${BUCKETS}), 'c:' || new.taxonomy]);
        end if;
        return null;
      end $$`,
  ];
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    for (const table of ['posts', 'events', 'event_terms'])
      await sql.raw(`drop trigger cache_tags_members on ${table}`).execute(db);
    await sql`drop function cache_tags_members()`.execute(db);
  } else {
    for (const name of ['posts_update', 'events_update', 'event_terms_insert', 'event_terms_delete'])
      await sql.raw(`drop trigger cache_tags_members_${name}`).execute(db);
  }
  for (const statement of earlierStatements(postgres)) await sql.raw(statement).execute(db);
}
