import { PostgresAdapter, sql, type Kysely } from 'kysely';

// `data_version` (migration 13) moved by an explicit statement at the end of every write, a round
// trip of its own, and a write forgetting it left cached answers stale. It now moves with the
// cache tags, which triggers bump for every change of the data (migrations 18 and 20): whatever
// makes a tag move makes the version move in the same transaction.
// - PostgreSQL: `cache_tags_bump` also bumps the transaction's `data_version` row (chosen by its
//   transaction ID as before) the first time it bumps a tag in a transaction, once.
// - SQLite: triggers on `cache_tags` bump row 1 with every tag version written (one writer at a
//   time; a row update in the same file).

const SHARDS = 16;

/** `cache_tags_bump` of migration 20, with or without the version bump. */
function bumpFunction(withVersion: boolean): string {
  const version = withVersion
    ? `if bumped = '' then
          update data_version set version = version + 1 where id = 1 + txid_current() % (select count(*) from data_version);
        end if;`
    : '';
  return `create or replace function cache_tags_bump(tags text[]) returns void language plpgsql as $$
      declare
        bumped text := coalesce(current_setting('calendar.bumped_tags', true), '');
        fresh text[];
      begin
        select array_agg(distinct tag) into fresh from unnest(tags) as tag
          where strpos(bumped, ',' || tag || ',') = 0;
        if fresh is null then
          return;
        end if;
        ${version}
        perform set_config('calendar.bumped_tags', coalesce(nullif(bumped, ''), ',') || array_to_string(fresh, ',') || ',', true);
        insert into cache_tags (tag, shard, version)
        select tag, case when tag like 'c:%' or tag like 'm:%' then (txid_current() % ${SHARDS})::integer else 0 end, 1
        from unnest(fresh) as tag
        order by 1, 2
        on conflict (tag, shard) do update set version = cache_tags.version + 1;
      end $$`;
}

const SQLITE_OPS = ['insert', 'update'];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(bumpFunction(true)).execute(db);
    return;
  }
  for (const op of SQLITE_OPS)
    await sql
      .raw(
        `create trigger data_version_cache_tags_${op} after ${op} on cache_tags begin
          update data_version set version = version + 1 where id = 1;
        end`,
      )
      .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(bumpFunction(false)).execute(db);
    return;
  }
  for (const op of SQLITE_OPS) await sql.raw(`drop trigger data_version_cache_tags_${op}`).execute(db);
}
