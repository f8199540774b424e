import { Kysely, PostgresAdapter, sql, type CreateTableBuilder } from 'kysely';

// Frozen migration: the whole first schema. Dates are stored as 'YYYY-MM-DD HH:MM:SS' text on both
// backends (sortable, no driver conversion); booleans as 0/1 integers.

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id =
    (name: string) =>
    <T extends string>(t: CreateTableBuilder<T, never>): CreateTableBuilder<T, any> =>
      pg ? t.addColumn(name, 'serial', (c) => c.primaryKey()) : t.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement());

  await id('id')(db.schema.createTable('users'))
    .addColumn('login', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email').on('users').column('email').execute();

  await id('id')(db.schema.createTable('app_passwords'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('last_used', 'bigint')
    .addColumn('last_ip', 'text')
    .execute();
  await db.schema.createIndex('app_passwords_user').on('app_passwords').column('user_id').execute();

  await db.schema.createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  // One row per post-like record (events, venues, organizers, images): one shared ID sequence.
  await id('id')(db.schema.createTable('posts'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('date_utc', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('modified_utc', 'text', (c) => c.notNull())
    .addColumn('image_id', 'integer')
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trashed_slug', 'text')
    .addColumn('trashed_status', 'text')
    .addColumn('trashed_at', 'text')
    .execute();
  await db.schema.createIndex('posts_type_status').on('posts').columns(['type', 'status']).execute();
  await db.schema.createIndex('posts_type_slug').on('posts').columns(['type', 'slug']).execute();
  await db.schema.createIndex('posts_type_author').on('posts').columns(['type', 'author']).execute();
  await db.schema.createIndex('posts_parent').on('posts').column('parent_id').execute();
  await db.schema.createIndex('posts_status_trashed_at').on('posts').columns(['status', 'trashed_at']).execute();

  await db.schema.createTable('events')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('utc_start_date', 'text', (c) => c.notNull())
    .addColumn('utc_end_date', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cost', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text')
    .addColumn('show_map', 'integer')
    .addColumn('show_map_link', 'integer')
    .addColumn('hide_from_listings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sticky', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('events_utc_start').on('events').columns(['utc_start_date', 'post_id']).execute();
  await db.schema.createIndex('events_utc_end').on('events').column('utc_end_date').execute();
  await db.schema.createIndex('events_start').on('events').columns(['start_date', 'post_id']).execute();
  await db.schema.createIndex('events_end').on('events').column('end_date').execute();
  await db.schema.createIndex('events_featured').on('events').columns(['featured', 'start_date']).execute();

  await db.schema.createTable('venues')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('province', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('zip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('stateprovince', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('show_map', 'text')
    .addColumn('show_map_link', 'text')
    .addColumn('geo_lat', 'double precision')
    .addColumn('geo_lng', 'double precision')
    .execute();
  await db.schema.createIndex('venues_geo').on('venues').columns(['geo_lat', 'geo_lng']).execute();

  await db.schema.createTable('organizers')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema.createTable('images')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('extension', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .execute();
  await db.schema.createIndex('images_url').on('images').column('url').execute();

  for (const [table, column] of [['event_venues', 'venue_id'], ['event_organizers', 'organizer_id']] as const) {
    await db.schema.createTable(table)
      .addColumn('event_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn(column, 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(`${table}_pk`, ['event_id', column])
      .execute();
    await db.schema.createIndex(`${table}_${column}`).on(table).columns([column, 'event_id']).execute();
  }

  // Terms have their own ID sequence, shared by categories and tags.
  await id('id')(db.schema.createTable('terms'))
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('terms_taxonomy_slug', ['taxonomy', 'slug'])
    .execute();
  await db.schema.createIndex('terms_taxonomy_parent').on('terms').columns(['taxonomy', 'parent']).execute();
  await db.schema.createIndex('terms_taxonomy_name').on('terms').columns(['taxonomy', 'name']).execute();

  await db.schema.createTable('event_terms')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('event_terms_pk', ['event_id', 'term_id'])
    .execute();
  await db.schema.createIndex('event_terms_term').on('event_terms').columns(['term_id', 'event_id']).execute();

  // Bumped by every write so that caches of serialized reads can tell they are stale.
  await db.schema.createTable('data_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into data_version (id, version) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['data_version', 'event_terms', 'terms', 'event_organizers', 'event_venues', 'images', 'organizers', 'venues', 'events', 'posts', 'settings', 'app_passwords', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
