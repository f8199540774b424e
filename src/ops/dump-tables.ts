import type { Database } from '../db/tables.js';

/** How a dump holds one table. */
export interface TablePlan {
  /** The primary key: orders the rows, and pages through them. */
  key: readonly string[];
  /** Columns triggers keep as copies or counts of other rows: left out, and rebuilt by the import's inserts. */
  derived: readonly string[];
}

type PlanOf<Row> = { key: readonly (keyof Row & string)[]; derived: readonly (keyof Row & string)[] } | 'derived';

/**
 * What a dump holds of each table of tables.ts, in the order an import inserts them: the rows
 * others reference or copy from come first, so that foreign keys hold and the triggers find what
 * they copy and count. A table `derived` as a whole is not dumped. Besides these, SQLite has the
 * full-text index of `posts` (post_search and its queue, kept by triggers on `posts`, migrations 05
 * and 10), and both backends have the migrations' bookkeeping, which the import's own migrations
 * write.
 */
const TABLE_PLANS = {
  users: { key: ['id'], derived: [] },
  // With their password hashes: application passwords keep working after a move.
  app_passwords: { key: ['id'], derived: [] },
  settings: { key: ['name'], derived: [] },
  posts: { key: ['id'], derived: [] },
  // `status` and `author` mirror the event's `posts` row (migration 04).
  events: { key: ['post_id'], derived: ['status', 'author'] },
  venues: { key: ['post_id'], derived: [] },
  organizers: { key: ['post_id'], derived: [] },
  images: { key: ['post_id'], derived: [] },
  event_venues: { key: ['event_id', 'venue_id'], derived: [] },
  event_organizers: { key: ['event_id', 'organizer_id'], derived: [] },
  // `event_count` counts the term's published events (migration 04).
  terms: { key: ['id'], derived: ['event_count'] },
  // The listing columns copy the event's (migration 06).
  event_terms: {
    key: ['event_id', 'term_id'],
    derived: [
      'status',
      'author',
      'hide_from_listings',
      'start_date',
      'end_date',
      'utc_start_date',
      'utc_end_date',
      'featured',
    ],
  },
  // Recurring series and their occurrences (migration 17).
  event_series: { key: ['post_id'], derived: [] },
  event_series_members: { key: ['event_id'], derived: [] },
  // Events per listing state and pair of days, kept by triggers on `events` (migrations 08, 13).
  event_day_counts: 'derived',
  // Tells caches of reads whether they are current: the import bumps the target's own.
  data_version: 'derived',
  // Kept by triggers on the tables a dump holds (migration 18).
  cache_tags: 'derived',
  // Local IDs are kept by a dump, so the mapping of imported records stays true after a move.
  import_sources: { key: ['source', 'kind', 'source_id'], derived: [] },
  // The changes feed starts again with the import's own inserts: a client's tokens name positions
  // in the old database, and it re-reads everything when they are refused.
  record_changes: 'derived',
  record_changes_purged: 'derived',
  // Subscriptions move with the site; their deliveries and outbox position belong to the old
  // database's changes feed.
  webhooks: { key: ['id'], derived: [] },
  webhook_deliveries: 'derived',
  webhook_outbox: 'derived',
} as const satisfies { [T in keyof Database]: PlanOf<Database[T]> };

type Plans = typeof TABLE_PLANS;
export type DumpedTable = { [T in keyof Plans]: Plans[T] extends 'derived' ? never : T }[keyof Plans];

/** The tables a dump holds, in the order an import inserts them. */
export const DUMPED_TABLES = (Object.keys(TABLE_PLANS) as (keyof Plans)[]).filter(
  (table): table is DumpedTable => TABLE_PLANS[table] !== 'derived',
);

export const planOf = (table: DumpedTable): TablePlan => TABLE_PLANS[table];

/** The tables whose IDs a sequence hands out (PostgreSQL `serial`, SQLite `autoincrement`): those keyed by `id`. */
export const SEQUENCE_TABLES = DUMPED_TABLES.filter((table) => planOf(table).key.join() === 'id');
