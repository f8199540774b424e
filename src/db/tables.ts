import type { Generated, Kysely, Transaction } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string;
  display_name: string;
  role: string;
  status: string;
  created_at: string;
}

export interface AppPasswordsTable {
  id: Generated<number>;
  user_id: number;
  uuid: string;
  name: string;
  password_hash: string;
  created: number;
  last_used: number | null;
  last_ip: string | null;
}

export interface SettingsTable {
  name: string;
  value: string;
}

export type PostType = 'event' | 'venue' | 'organizer' | 'image';

export interface PostsTable {
  id: Generated<number>;
  type: PostType;
  author: number;
  status: string;
  slug: string;
  title: string;
  description: string;
  excerpt: string;
  password: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  image_id: number | null;
  parent_id: number;
  trashed_slug: string | null;
  trashed_status: string | null;
  trashed_at: string | null;
}

export interface EventsTable {
  post_id: number;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  all_day: number;
  /** The stored cost strings as a JSON array (events.md 1.4); '' when no cost is stored. */
  cost: string;
  /** Currency symbol and position inferred from the cost input; '' when none (migration 02). */
  cost_symbol: Generated<string>;
  cost_position: Generated<string>;
  website: string | null;
  show_map: number | null;
  show_map_link: number | null;
  hide_from_listings: number;
  sticky: number;
  featured: number;
  /** Mirror of the event's `posts.status` and `posts.author`, kept by triggers (migration 04). */
  status: Generated<string>;
  author: Generated<number>;
  /** Updates the event has had: its iCalendar SEQUENCE (migration 14). */
  sequence: Generated<number>;
}

export interface VenuesTable {
  post_id: number;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: string | null;
  show_map_link: string | null;
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizersTable {
  post_id: number;
  phone: string;
  website: string;
  email: string;
}

export interface ImagesTable {
  post_id: number;
  url: string;
  mime_type: string;
  extension: string;
  width: number | null;
  height: number | null;
}

export interface EventVenuesTable {
  event_id: number;
  venue_id: number;
  position: number;
}

export interface EventOrganizersTable {
  event_id: number;
  organizer_id: number;
  position: number;
}

export interface TermsTable {
  id: Generated<number>;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Published events carrying the term, kept by triggers (migration 04). */
  event_count: Generated<number>;
}

export interface EventTermsTable {
  event_id: number;
  term_id: number;
  position: number;
  /** Copies of the event's listing columns, kept by triggers (migration 06); null until the event row exists. */
  status: Generated<string | null>;
  author: Generated<number | null>;
  hide_from_listings: Generated<number | null>;
  start_date: Generated<string | null>;
  end_date: Generated<string | null>;
  utc_start_date: Generated<string | null>;
  utc_end_date: Generated<string | null>;
  featured: Generated<number | null>;
}

/** Events per listing state and pair of calendar days, on each clock, kept by triggers (migration 08). */
export interface EventDayCountsTable {
  clock: 'utc' | 'local';
  status: string;
  hide_from_listings: number;
  featured: number;
  /** `YYYY-MM-DD` of the start and of the end on that clock. */
  start_day: string;
  end_day: string;
  /** Rows of one key that add up: writes of a key that overlap on PostgreSQL take different shards (migration 13). */
  shard: Generated<number>;
  n: number;
}

/** A recurring series' rule, on its parent event (migration 17). */
export interface EventSeriesTable {
  post_id: number;
  rrule: string;
  /** JSON arrays of `YYYY-MM-DD HH:MM:SS` walls in the event's zone. */
  rdates: string;
  exdates: string;
  /** UTC wall up to which occurrences exist; '' when the rule ends before the horizon. */
  materialized_until: string;
}

/** An occurrence of a series (migration 17). */
export interface EventSeriesMembersTable {
  event_id: number;
  series_id: number;
  /** The start wall the rule gave it, in the event's zone. */
  original_start: string;
  /** Edited alone: series edits leave it as it is. */
  detached: number;
}

/** Rows whose sum is the version: concurrent writes bump different rows (db/data-version.ts). */
export interface DataVersionTable {
  id: number;
  version: number;
}

/** Versions of what a write changed, kept by triggers (migration 18, db/cache-tags.ts). */
export interface CacheTagsTable {
  tag: string;
  shard: number;
  version: number | string;
}

/** An imported record: where it came from, and the local record it became (migration 15). */
export interface ImportSourcesTable {
  /** `ics`, or `tec:` and the source site's REST root. */
  source: string;
  kind: 'event' | 'venue' | 'organizer' | 'category' | 'tag';
  source_id: string;
  local_id: number;
  fingerprint: string;
}

export type ChangeType = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
export type ChangeAction = 'created' | 'updated' | 'trashed' | 'restored' | 'deleted';

/** One change of a record, written by triggers in the write's transaction (migration 16a). */
export interface RecordChangesTable {
  id: Generated<number>;
  /** The feed position, in commit order; on PostgreSQL set at commit (null only inside the writing transaction). */
  token: number | string | null;
  type: ChangeType;
  record_id: number;
  action: ChangeAction;
  /** The record's status and author after the change (before it, for a deletion). */
  status: string;
  author: number;
  modified_utc: string;
  changed_utc: string;
}

/** One row: the highest token the retention purge removed. */
export interface RecordChangesPurgedTable {
  id: number;
  token: number | string;
}

export interface WebhooksTable {
  id: Generated<number>;
  url: string;
  /** Comma-separated event types (`event.created`, `venue.*`, …). */
  events: string;
  secret: string;
  status: 'enabled' | 'disabled';
  disabled_reason: Generated<string>;
  /** When the first of the failures still unbroken by a success happened; null while deliveries succeed. */
  failing_since: string | null;
  created_utc: string;
  /** The changes feed position when it was made: it receives the changes after it. */
  from_token: Generated<number | string>;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  /** `webhook-id`: the same for every attempt, so that a receiver can drop a repeat. */
  message_id: string;
  type: string;
  record_type: ChangeType;
  record_id: number;
  changed_utc: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_utc: string;
  last_attempt_utc: string | null;
  last_status_code: number | null;
  last_error: Generated<string>;
  last_response: Generated<string>;
  created_utc: string;
}

/** One row: the last change token turned into deliveries (migration 16b). */
export interface WebhookOutboxTable {
  id: number;
  token: number | string;
}

export interface Database {
  users: UsersTable;
  app_passwords: AppPasswordsTable;
  settings: SettingsTable;
  posts: PostsTable;
  events: EventsTable;
  venues: VenuesTable;
  organizers: OrganizersTable;
  images: ImagesTable;
  event_venues: EventVenuesTable;
  event_organizers: EventOrganizersTable;
  terms: TermsTable;
  event_terms: EventTermsTable;
  event_day_counts: EventDayCountsTable;
  data_version: DataVersionTable;
  cache_tags: CacheTagsTable;
  import_sources: ImportSourcesTable;
  event_series: EventSeriesTable;
  event_series_members: EventSeriesMembersTable;
  record_changes: RecordChangesTable;
  record_changes_purged: RecordChangesPurgedTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_outbox: WebhookOutboxTable;
}

/** Either the database or a transaction: every repository function takes one of these first. */
export type Db = Kysely<Database>;
export type Trx = Transaction<Database> | Kysely<Database>;
