import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Lists read one table and count from one index:
// - `events.status` and `events.author` mirror the event's `posts` row, so the visibility of an
//   event list and its total are decided on `events` alone, from the covering `events_listing`
//   index (status first: a public list is one range of it, in start order);
// - `terms.event_count` is the number of published events carrying the term (the `count` field,
//   terms.md 1.2), kept current instead of counted on every read of a term.
// Triggers keep both exact on every write path, whatever code runs it; a deleted record's term
// links go (and are counted off) before the record itself, while its status is still known.

const SQLITE_TRIGGERS = [
  sql`create trigger events_listing_insert after insert on events begin
    update events set status = (select status from posts where id = new.post_id), author = (select author from posts where id = new.post_id)
    where post_id = new.post_id;
  end`,
  sql`create trigger posts_listing_update after update of status, author on posts when new.type = 'event' begin
    update events set status = new.status, author = new.author where post_id = new.id;
  end`,
  sql`create trigger event_terms_count_insert after insert on event_terms
    when (select status from posts where id = new.event_id) = 'publish' begin
    update terms set event_count = event_count + 1 where id = new.term_id;
  end`,
  sql`create trigger event_terms_count_delete after delete on event_terms
    when (select status from posts where id = old.event_id) = 'publish' begin
    update terms set event_count = event_count - 1 where id = old.term_id;
  end`,
  sql`create trigger posts_term_count_update after update of status on posts
    when (old.status = 'publish') <> (new.status = 'publish') begin
    update terms set event_count = event_count + (case when new.status = 'publish' then 1 else -1 end)
    where id in (select term_id from event_terms where event_id = new.id);
  end`,
  sql`create trigger posts_term_links_delete before delete on posts begin
    delete from event_terms where event_id = old.id;
  end`,
];

const POSTGRES_TRIGGERS = [
  sql`create function events_listing_insert() returns trigger language plpgsql as $$
    begin
      select status, author into new.status, new.author from posts where id = new.post_id;
      return new;
    end $$`,
  sql`create trigger events_listing_insert before insert on events for each row execute function events_listing_insert()`,
  sql`create function posts_listing_update() returns trigger language plpgsql as $$
    begin
      update events set status = new.status, author = new.author where post_id = new.id;
      return null;
    end $$`,
  sql`create trigger posts_listing_update after update of status, author on posts for each row
    when (new.type = 'event') execute function posts_listing_update()`,
  sql`create function event_terms_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update terms set event_count = event_count + 1 where id = new.term_id
          and exists (select 1 from posts where id = new.event_id and status = 'publish');
      else
        update terms set event_count = event_count - 1 where id = old.term_id
          and exists (select 1 from posts where id = old.event_id and status = 'publish');
      end if;
      return null;
    end $$`,
  sql`create trigger event_terms_count after insert or delete on event_terms for each row execute function event_terms_count()`,
  sql`create function posts_term_count_update() returns trigger language plpgsql as $$
    begin
      update terms set event_count = event_count + (case when new.status = 'publish' then 1 else -1 end)
        where id in (select term_id from event_terms where event_id = new.id);
      return null;
    end $$`,
  sql`create trigger posts_term_count_update after update of status on posts for each row
    when ((old.status = 'publish') is distinct from (new.status = 'publish')) execute function posts_term_count_update()`,
  sql`create function posts_term_links_delete() returns trigger language plpgsql as $$
    begin
      delete from event_terms where event_id = old.id;
      return old;
    end $$`,
  sql`create trigger posts_term_links_delete before delete on posts for each row execute function posts_term_links_delete()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('events').addColumn('status', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('events').addColumn('author', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('terms').addColumn('event_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update events set status = (select status from posts where posts.id = events.post_id),
    author = (select author from posts where posts.id = events.post_id)`.execute(db);
  await sql`update terms set event_count = (select count(*) from event_terms et join posts p on p.id = et.event_id
    where et.term_id = terms.id and p.status = 'publish')`.execute(db);
  for (const statement of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await statement.execute(db);
  await db.schema
    .createIndex('events_listing')
    .on('events')
    .columns(['status', 'start_date', 'utc_start_date', 'utc_end_date', 'end_date', 'hide_from_listings', 'featured', 'author', 'post_id'])
    .execute();
  // The probe for scheduled records that are due (post-like/schedule.ts) runs before every read.
  await db.schema.createIndex('posts_status_date_utc').on('posts').columns(['status', 'date_utc']).execute();
  // Venues and organizers created inline reuse a record of the same name (linked/repository.ts).
  await sql`create index posts_type_title on posts (type, lower(trim(title)))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('posts_type_title').execute();
  await db.schema.dropIndex('posts_status_date_utc').execute();
  await db.schema.dropIndex('events_listing').execute();
  if (postgres) {
    await sql`drop trigger posts_term_links_delete on posts`.execute(db);
    await sql`drop trigger posts_term_count_update on posts`.execute(db);
    await sql`drop trigger event_terms_count on event_terms`.execute(db);
    await sql`drop trigger posts_listing_update on posts`.execute(db);
    await sql`drop trigger events_listing_insert on events`.execute(db);
    for (const fn of ['posts_term_links_delete', 'posts_term_count_update', 'event_terms_count', 'posts_listing_update', 'events_listing_insert']) {
      await sql`drop function ${sql.raw(fn)}()`.execute(db);
    }
  } else {
    for (const trigger of ['posts_term_links_delete', 'posts_term_count_update', 'event_terms_count_delete', 'event_terms_count_insert', 'posts_listing_update', 'events_listing_insert']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.alterTable('terms').dropColumn('event_count').execute();
  await db.schema.alterTable('events').dropColumn('author').execute();
  await db.schema.alterTable('events').dropColumn('status').execute();
}
