import type { Selectable } from 'kysely';
import { recordTag } from '../../db/cache-tags.js';
import { preparedQuery } from '../../db/prepared.js';
import type { EventsTable, PostsTable, Trx } from '../../db/tables.js';
import { restErrors } from '../../http/errors.js';
import type { RequestContext } from '../../http/route.js';
import { embeddedLinked, loadLinkedForEvents, organizerKind, venueKind } from '../linked/index.js';
import { POST_COLUMNS } from '../post-like/columns.js';
import { isRecordId } from '../post-like/ids.js';
import { loadImages, type ImageRow } from '../post-like/images.js';
import { findIdBySlug } from '../post-like/slug.js';
import { categoryTaxonomy, loadTermsForEvents, tagTaxonomy } from '../terms/index.js';
import { loadSeriesOfPage, type SeriesOfPage } from './series.js';

/** One stored event: its `posts` row joined with its `events` row. */
export type EventRow = Omit<Selectable<PostsTable>, 'type'> & Omit<Selectable<EventsTable>, 'post_id'>;

/** Columns of an event row, for every query that loads events. */
export const EVENT_COLUMNS = [
  ...POST_COLUMNS,
  'e.start_date',
  'e.end_date',
  'e.utc_start_date',
  'e.utc_end_date',
  'e.timezone',
  'e.all_day',
  'e.cost',
  'e.cost_symbol',
  'e.cost_position',
  'e.website',
  'e.show_map',
  'e.show_map_link',
  'e.hide_from_listings',
  'e.sticky',
  'e.featured',
  'e.sequence',
] as const;

export function eventsQuery(trx: Trx) {
  return trx.selectFrom('posts as p').innerJoin('events as e', 'e.post_id', 'p.id').where('p.type', '=', 'event');
}

/**
 * The rows a list reads. `events` is the outer loop (SQLite keeps the order of a CROSS JOIN; for
 * PostgreSQL it is an inner join like any other): a page is then read in start order from the
 * start-date index and stops at the page size, instead of sorting every published event. The
 * conditions are the same as an inner join's.
 */
export function eventListSource(trx: Trx) {
  return trx.selectFrom('events as e').crossJoin('posts as p').whereRef('p.id', '=', 'e.post_id');
}

const eventById = preparedQuery((db, v: { id: number }) =>
  eventsQuery(db).select(EVENT_COLUMNS).where('p.id', '=', v.id),
);

export async function findEventById(trx: Trx, id: number): Promise<EventRow | undefined> {
  if (!isRecordId(id)) return undefined;
  return (await eventById(trx, { id }))[0];
}

/** The event a by-slug path names, any status (events.md 3.1, common.md 9.8). */
export async function findEventBySlug(trx: Trx, pathSlug: string): Promise<EventRow | undefined> {
  const id = await findIdBySlug(trx, 'event', pathSlug);
  return id === undefined ? undefined : findEventById(trx, id);
}

/**
 * The event an ID route names (events.md 3.2 steps 1–2): no record → `rest-event-not-found`, a
 * record of another type → `rest-invalid-event-id`.
 */
export async function getEventById(trx: Trx, id: number): Promise<EventRow> {
  const row = await findEventById(trx, id);
  if (row) return row;
  const other =
    isRecordId(id) && (await trx.selectFrom('posts').select('type').where('id', '=', id).executeTakeFirst());
  throw other ? restErrors.invalidEventId() : restErrors.eventNotFound(id);
}

/** Author, status and type of any record with that ID: what the permission of an ID route judges. */
export async function findRecordOwner(trx: Trx, id: number) {
  if (!isRecordId(id)) return undefined;
  return trx
    .selectFrom('posts')
    .select(['type', 'author', 'status', 'trashed_status'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Everything a representation needs besides the row, loaded for a whole page at once. */
export interface EventRelated {
  images: Map<number, ImageRow>;
  categories: Map<number, object[]>;
  tags: Map<number, object[]>;
  venues: Map<number, Record<string, unknown>[]>;
  organizers: Map<number, Record<string, unknown>[]>;
  series: SeriesOfPage;
}

/**
 * Relations the caller knows the events have none of, which are then not queried: a write knows
 * the links it left empty, and a create without a rule that its event leads no series.
 */
export interface Unlinked {
  terms?: boolean;
  venues?: boolean;
  organizers?: boolean;
  series?: boolean;
}

/** One query per relation for the given events (style.md rule 5), but for those known `unlinked`. */
export async function loadRelated(
  trx: Trx,
  rows: EventRow[],
  ctx: RequestContext,
  { jsonLd, unlinked = {} }: { jsonLd: boolean; unlinked?: Unlinked },
): Promise<EventRelated> {
  const ids = rows.map((r) => r.id);
  for (const row of rows) {
    ctx.readFrom?.add(recordTag(row.id));
    if (row.image_id !== null) ctx.readFrom?.add(recordTag(row.image_id));
  }
  const none = () => new Map();
  const [images, [categories, tags], venues, organizers, series] = await Promise.all([
    loadImages(
      trx,
      rows.map((r) => r.image_id),
    ),
    unlinked.terms ? [none(), none()] : loadTermsForEvents(trx, [categoryTaxonomy, tagTaxonomy], ids, ctx),
    unlinked.venues ? none() : loadLinkedForEvents(trx, venueKind, ids, ctx, { jsonLd }),
    unlinked.organizers ? none() : loadLinkedForEvents(trx, organizerKind, ids, ctx, { jsonLd }),
    unlinked.series ? { recurrences: none(), members: none() } : loadSeriesOfPage(trx, rows),
  ]);
  return { images, categories, tags, venues, organizers, series };
}

/** The `venue` field shape: one object, a list for several, `[]` for none (events.md 1.7, E31). */
export function venueField(items: Record<string, unknown>[]): unknown {
  return embeddedLinked(venueKind, items);
}
