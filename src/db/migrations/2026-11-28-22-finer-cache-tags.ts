import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Three kinds of writes made cached answers stale that they could not have changed:
// - A list unfiltered by terms went stale with every event written anywhere in the calendar: its
//   total may change, and so may its page. The page, though, only changes when the written event
//   sorts before its last record or on it, and a list is sorted by start. `s:<MM-DD>` tags the
//   events that start (on their own wall clock) on a day of that month and day, of any year: bumped
//   when such an event's `events` row is inserted, updated or deleted (old and new start), when its
//   `posts` row is updated (status, author, publication date, …) and when it gains or loses a term.
//   A list's page then depends on the tags of the days from its window's first day to its last
//   record's (events/list.ts, `pageReads`).
// - Every answer showing a term, an event's embedded categories and tags included, went stale with
//   each event published in that term, through the term's event count. `n:<n>` now follows the
//   count of the terms whose ID is n modulo 256, and `t:<n>` the rest of their row: an answer stale
//   by counts alone has them rewritten rather than built again (http/cache.ts).
// - Creating a record bumped its own tag, `r:<id % 256>`. No answer can have been built from a
//   record that did not exist, but the tag is shared by the records of its residue, and consecutive
//   new IDs go through every residue: every few creates, the reads of the records sharing it went
//   stale (a list names thirty or more). Now inserting a `posts` row bumps its type's tag alone, and
//   inserting a link of an event bumps the event's tag only once its `events` row exists: a new
//   event's links are written before that row (events/write.ts), so an event without one was
//   created in the same transaction. On SQLite, filling a new `events` row's status from its `posts`
//   row (migration 04, an update right after the insert) bumps nothing either.
// On PostgreSQL start-day tags are sharded, like the type and member tags (migrations 18 and 20):
// the writers of one day would otherwise queue on one row; `cache_tags_bump` keeps one row for a
// record's, a term's and a count's tags only. Each trigger function bumps all its tags in one call.
// `up` and `down` build each statement in its new or former form (migrations 18, 20 and 21).

const BUCKETS = 256;
const SHARDS = 16;
const UPSERT = 'on conflict (tag, shard) do update set version = version + 1';
const LINKS = ['event_venues', 'event_organizers', 'event_terms'] as const;
const record = (column: string) => `'r:' || (${column} % ${BUCKETS})`;
const startTag = (column: string) => `'s:' || substr(${column}, 6, 5)`;
const termTag = (prefix: 't' | 'n', row: 'old' | 'new' = 'new') => `'${prefix}:' || (${row}.id % ${BUCKETS})`;
/** The terms' own columns besides the count. */
const TERM_TEXT = (row: 'old' | 'new') => `(${row}.taxonomy, ${row}.name, ${row}.slug, ${row}.description, ${row}.parent)`;
/** Migration 18: a venue's or organizer's status or author decides who sees it embedded in the events linking it. */
const ACCESS_CHANGED = `(old.status, old.author)`;
const LINKING_EVENTS = ['venue', 'organizer']
  .map(
    (type) =>
      `select 'r:' || (event_id % ${BUCKETS}) as tag from event_${type}s where ${type}_id = new.id and new.type = '${type}'`,
  )
  .join(' union ');
/** An event's record tag, selected from its `events` row: none for an event created in this transaction. */
const recordOf = (eventId: string) => `select ${record('post_id')} as tag from events where post_id = ${eventId}`;
/** An event's start-day tag, selected from its `events` row. */
const startOf = (eventId: string) => `select ${startTag('start_date')} as tag from events where post_id = ${eventId}`;

function sqliteStatements(finer: boolean): string[] {
  const bump = (tags: string[]) =>
    `insert into cache_tags (tag, shard, version) values ${tags.map((tag) => `(${tag}, 0, 1)`).join(', ')} ${UPSERT};`;
  const bumpSelected = (select: string) =>
    `insert into cache_tags (tag, shard, version) select tag, 0, 1 from (${select}) where true ${UPSERT};`;
  const bumpWhen = (tag: string, when: string) =>
    `insert into cache_tags (tag, shard, version) select ${tag}, 0, 1 where ${when} ${UPSERT};`;
  const trigger = (name: string, on: string, body: string) =>
    [`drop trigger if exists ${name}`, `create trigger ${name} ${on} begin ${body} end`];
  const textChanged = `${TERM_TEXT('old')} is not ${TERM_TEXT('new')}`;
  const statements = [
    ...trigger(
      'cache_tags_posts_insert',
      'after insert on posts',
      bump(finer ? [`'c:' || new.type`] : [record('new.id'), `'c:' || new.type`]),
    ),
    ...trigger(
      'cache_tags_events_update',
      `after update on events ${finer ? `when old.status <> ''` : ''}`,
      bump([record('new.post_id'), `'c:event'`, ...(finer ? [startTag('old.start_date'), startTag('new.start_date')] : [])]),
    ),
    ...LINKS.flatMap((table) => [
      ...trigger(
        `cache_tags_${table}_insert`,
        `after insert on ${table}`,
        finer
          ? `${bump([`'c:event'`])}
            ${bumpSelected(table === 'event_terms' ? `${recordOf('new.event_id')} union all ${startOf('new.event_id')}` : recordOf('new.event_id'))}`
          : bump([record('new.event_id'), `'c:event'`]),
      ),
      ...(table === 'event_terms'
        ? trigger(
            'cache_tags_event_terms_delete',
            'after delete on event_terms',
            `${bump([record('old.event_id'), `'c:event'`])} ${finer ? bumpSelected(startOf('old.event_id')) : ''}`,
          )
        : []),
    ]),
    ...trigger(
      'cache_tags_terms_update',
      'after update on terms',
      finer
        ? `${bumpWhen(termTag('t'), textChanged)} ${bumpWhen(`'c:' || new.taxonomy`, textChanged)}
          ${bumpWhen(termTag('n'), 'old.event_count is not new.event_count')}`
        : `${bump([termTag('t')])} ${bumpWhen(`'c:' || new.taxonomy`, textChanged)}`,
    ),
  ];
  const starts = [
    ['cache_tags_events_insert', 'after insert on events', bump([startTag('new.start_date')])],
    ['cache_tags_events_delete', 'after delete on events', bump([startTag('old.start_date')])],
    ['cache_tags_posts_update_start', `after update on posts when new.type = 'event'`, bumpSelected(startOf('new.id'))],
  ] as const;
  return [
    ...statements,
    ...starts.flatMap(([name, on, body]) => (finer ? trigger(name, on, body) : [`drop trigger ${name}`])),
  ];
}

function postgresStatements(finer: boolean): string[] {
  const sharded = finer ? `tag not like 'r:%' and tag not like 't:%' and tag not like 'n:%'` : `tag like 'c:%' or tag like 'm:%'`;
  const fn = (name: string, body: string) =>
    `create or replace function ${name}() returns trigger language plpgsql as $$
      begin
        ${body}
        return null;
      end $$`;
  const bump = (tags: string) => `perform cache_tags_bump(${tags});`;
  /** A link's tags on insert: its event's, of an event that existed before (with its start day for a term's link). */
  const linkTags = (table: string) => {
    if (!finer) return `array[${record('new.event_id')}, 'c:event']`;
    const selected = recordOf('new.event_id') + (table === 'event_terms' ? ` union all ${startOf('new.event_id')}` : '');
    return `array['c:event'] || array(${selected})`;
  };
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
        if bumped = '' then
          update data_version set version = version + 1 where id = 1 + txid_current() % (select count(*) from data_version);
        end if;
        perform set_config('calendar.bumped_tags', coalesce(nullif(bumped, ''), ',') || array_to_string(fresh, ',') || ',', true);
        insert into cache_tags (tag, shard, version)
        select tag, case when ${sharded} then (txid_current() % ${SHARDS})::integer else 0 end, 1
        from unnest(fresh) as tag
        order by 1, 2
        on conflict (tag, shard) do update set version = cache_tags.version + 1;
      end $$`,
    fn(
      'cache_tags_posts',
      `if tg_op = 'DELETE' then
          ${bump(`array[${record('old.id')}, 'c:' || old.type]`)}
        elsif tg_op = 'INSERT' then
          ${bump(finer ? `array['c:' || new.type]` : `array[${record('new.id')}, 'c:' || new.type]`)}
        elsif new.type = 'event' then
          ${bump(`array[${record('new.id')}, 'c:event']${finer ? ` || array(${startOf('new.id')})` : ''}`)}
        else
          ${bump(`array[${record('new.id')}, 'c:' || new.type]`)}
          if new.type in ('venue', 'organizer') and ${ACCESS_CHANGED} is distinct from (new.status, new.author) then
            ${bump(`array(${LINKING_EVENTS})`)}
          end if;
        end if;`,
    ),
    fn(
      'cache_tags_events',
      finer
        ? `if tg_op = 'INSERT' then
            ${bump(`array[${startTag('new.start_date')}]`)}
          elsif tg_op = 'DELETE' then
            ${bump(`array[${startTag('old.start_date')}]`)}
          else
            ${bump(`array[${record('new.post_id')}, 'c:event', ${startTag('old.start_date')}, ${startTag('new.start_date')}]`)}
          end if;`
        : bump(`array[${record('new.post_id')}, 'c:event']`),
    ),
    'drop trigger cache_tags on events',
    `create trigger cache_tags after ${finer ? 'insert or update or delete' : 'update'} on events
      for each row execute function cache_tags_events()`,
    ...LINKS.map((table) =>
      fn(
        `cache_tags_${table}`,
        `if tg_op = 'DELETE' then
          ${bump(`array[${record('old.event_id')}, 'c:event']${finer && table === 'event_terms' ? ` || array(${startOf('old.event_id')})` : ''}`)}
        else
          ${bump(linkTags(table))}
        end if;`,
      ),
    ),
    fn(
      'cache_tags_terms',
      `if tg_op = 'DELETE' then
          ${bump(`array[${termTag('t', 'old')}, 'c:' || old.taxonomy]`)}
        elsif tg_op = 'INSERT' or ${TERM_TEXT('old')} is distinct from ${TERM_TEXT('new')} then
          ${bump(`array[${termTag('t')}, 'c:' || new.taxonomy]`)}
        ${finer ? '' : `else ${bump(`array[${termTag('t')}]`)}`}
        end if;
        ${finer ? `if tg_op = 'UPDATE' and old.event_count is distinct from new.event_count then ${bump(`array[${termTag('n')}]`)} end if;` : ''}`,
    ),
  ];
}

const statements = (db: Kysely<any>, finer: boolean) =>
  db.getExecutor().adapter instanceof PostgresAdapter ? postgresStatements(finer) : sqliteStatements(finer);

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements(db, true)) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of statements(db, false)) await sql.raw(statement).execute(db);
}
