/**
 * Recurring series (issue 34): an event with a rule (`event_series`) is the series' first
 * occurrence and its parent; every other occurrence is an event row of its own whose
 * `posts.parent_id` names the parent, tied to the series by `event_series_members`. Occurrences are
 * written by the event write path's inserts, in the transaction of the parent's write, so that the
 * derived tables (listing copies, day counts, term counts, search index) are kept by the same
 * triggers as for any event.
 */
import { sql, type Insertable } from 'kysely';
import { DateTime } from 'luxon';
import { paddedIds } from '../../db/id-lists.js';
import { preparedInsert, preparedQuery, slotItems } from '../../db/prepared.js';
import type { EventSeriesMembersTable, EventSeriesTable, PostsTable, Trx } from '../../db/tables.js';
import { paramReasons, reasonFailure, restErrors } from '../../http/errors.js';
import type { Settings } from '../../settings.js';
import { formatWall, parseWall } from '../../time/format.js';
import { UnusableRule, expandRecurrence, type Recurrence } from '../../time/recurrence.js';
import type { Now } from '../post-like/dates.js';
import { insertPost } from '../post-like/insert.js';
import { deletePostRows } from '../post-like/trash.js';
import { uniqueSlug } from '../post-like/slug.js';
import { eventTimes } from './dates.js';
import type { EventRow } from './repository.js';
import { insertEventRows } from './write.js';

/** Rows written per insert statement: well within both backends' limits on bound values. */
const INSERT_CHUNK = 100;

/**
 * The UTC wall up to which occurrences exist: the `series_horizon_months` setting from now, at the
 * start of that day, so that the horizon moves a day at a time and extending the series again
 * within a day has nothing to do.
 */
export function seriesHorizon(settings: Settings, nowMs: number): string {
  const day = DateTime.fromMillis(nowMs, { zone: 'utc' }).plus({ months: settings.series_horizon_months });
  return formatWall(day.startOf('day'));
}

export function storedRecurrence(row: Pick<EventSeriesTable, 'rrule' | 'rdates' | 'exdates'>): Recurrence {
  return { rrule: row.rrule, rdates: JSON.parse(row.rdates) as string[], exdates: JSON.parse(row.exdates) as string[] };
}

export async function findSeries(trx: Trx, parentId: number) {
  return trx.selectFrom('event_series').selectAll().where('post_id', '=', parentId).executeTakeFirst();
}

/** Sets the rule of a series led by `parentId` (new or replaced). */
export async function saveRecurrence(trx: Trx, parentId: number, recurrence: Recurrence): Promise<void> {
  const values = {
    rrule: recurrence.rrule,
    rdates: JSON.stringify(recurrence.rdates),
    exdates: JSON.stringify(recurrence.exdates),
  };
  await trx
    .insertInto('event_series')
    .values({ post_id: parentId, materialized_until: '', ...values })
    .onConflict((oc) => oc.column('post_id').doUpdateSet(values))
    .execute();
  // The rule shows on the first event: writing its row bumps its cache tags (migration 18), so
  // that cached reads of it follow a rule changed alone (an occurrence deleted, or restored).
  await trx
    .updateTable('posts')
    .set((eb) => ({ parent_id: eb.ref('parent_id') }))
    .where('id', '=', parentId)
    .execute();
}

/** `rest_invalid_param` on `recurrence`, with why (the `invalid_recurrence` reason). */
export const recurrenceRefused = (problem: string) =>
  restErrors.invalidParams(
    new Map([['recurrence', reasonFailure('recurrence', paramReasons.invalidRecurrence(problem))]]),
  );

/**
 * Series membership of an event: its series and whether it was edited alone. Only an event with a
 * parent can be an occurrence, so most events need no lookup.
 */
export async function findMembership(trx: Trx, event: { id: number; parent_id: number }) {
  if (event.parent_id === 0) return undefined;
  return trx.selectFrom('event_series_members').selectAll().where('event_id', '=', event.id).executeTakeFirst();
}

/** What the representation of a page shows of series: the rules of parents, the series of occurrences. */
export interface SeriesOfPage {
  recurrences: Map<number, Recurrence>;
  members: Map<number, { series_id: number; detached: boolean }>;
}

/** The series of the events of a page, prepared; the shape is the number of (padded) IDs. */
const seriesLedBy = preparedQuery((db, v: { ids: number[] }, shape: string) =>
  db
    .selectFrom('event_series')
    .select(['post_id', 'rrule', 'rdates', 'exdates'])
    .where('post_id', 'in', slotItems(v.ids, Number(shape))),
);

/** The memberships of the occurrences of a page, prepared; the shape is the number of (padded) IDs. */
const membershipsOf = preparedQuery((db, v: { ids: number[] }, shape: string) =>
  db
    .selectFrom('event_series_members')
    .select(['event_id', 'series_id', 'detached'])
    .where('event_id', 'in', slotItems(v.ids, Number(shape))),
);

/** One query for the page's parents, one for its occurrences when it holds any (style.md rule 5). */
export async function loadSeriesOfPage(trx: Trx, rows: readonly EventRow[]): Promise<SeriesOfPage> {
  const recurrences = new Map<number, Recurrence>();
  const members: SeriesOfPage['members'] = new Map();
  const parents = paddedIds(rows.filter((r) => r.parent_id === 0).map((r) => r.id));
  const occurrences = paddedIds(rows.filter((r) => r.parent_id !== 0).map((r) => r.id));
  if (parents.length) {
    const found = (await seriesLedBy(trx, { ids: parents }, String(parents.length))) as Array<
      Pick<EventSeriesTable, 'post_id' | 'rrule' | 'rdates' | 'exdates'>
    >;
    for (const row of found) recurrences.set(row.post_id, storedRecurrence(row));
  }
  if (occurrences.length) {
    const found = (await membershipsOf(trx, { ids: occurrences }, String(occurrences.length))) as Array<
      Pick<EventSeriesMembersTable, 'event_id' | 'series_id' | 'detached'>
    >;
    for (const row of found) members.set(row.event_id, { series_id: row.series_id, detached: row.detached === 1 });
  }
  return { recurrences, members };
}

/** A member of a series as the sync reads it. */
interface Member {
  event_id: number;
  original_start: string;
  detached: number;
  status: string;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
}

const membersOf = (trx: Trx, seriesId: number): Promise<Member[]> =>
  trx
    .selectFrom('event_series_members as m')
    .innerJoin('posts as p', 'p.id', 'm.event_id')
    .innerJoin('events as e', 'e.post_id', 'm.event_id')
    .select([
      'm.event_id',
      'm.original_start',
      'm.detached',
      'p.status',
      'e.start_date',
      'e.end_date',
      'e.utc_start_date',
      'e.utc_end_date',
    ])
    .where('m.series_id', '=', seriesId)
    .execute();

/** Occurrences a series edit applies to: neither edited alone nor in the trash. */
function followingMembers(trx: Trx, seriesId: number) {
  return trx
    .selectFrom('event_series_members as m')
    .innerJoin('posts as p', 'p.id', 'm.event_id')
    .select('m.event_id')
    .where('m.series_id', '=', seriesId)
    .where('m.detached', '=', 0)
    .where('p.status', '<>', 'trash');
}

/** The stored times of an occurrence starting at `start`, lasting as long (on the wall clock) as the parent. */
function occurrenceTimes(parent: EventRow, start: string) {
  const floating = (wall: string) => DateTime.fromSQL(wall, { zone: 'utc' });
  const length = floating(parent.end_date).diff(floating(parent.start_date));
  const end = formatWall(floating(start).plus(length));
  const zone = parent.timezone;
  return eventTimes(parseWall(start, zone)!, parseWall(end, zone)!, parent.all_day === 1, zone);
}

/** `{slug}-{date}`, made unique among events; one query tells which are free (most are). */
async function occurrenceSlugs(trx: Trx, base: string, starts: readonly string[]): Promise<string[]> {
  const wanted = starts.map((start) => `${base}-${start.slice(0, 10)}`);
  const taken = new Set<string>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await trx
      .selectFrom('posts')
      .select('slug')
      .where('type', '=', 'event')
      .where('slug', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const row of rows) taken.add(row.slug);
  }
  const out: string[] = [];
  for (const slug of wanted) out.push(taken.has(slug) ? await uniqueSlug(trx, 'event', slug) : slug);
  return out;
}

const insertMembers = preparedInsert('event_series_members');

/** Inserts occurrences as copies of the parent's rows (links apart); returns their IDs. */
async function insertOccurrences(trx: Trx, parent: EventRow, starts: readonly string[], now: Now): Promise<number[]> {
  const slugs = await occurrenceSlugs(trx, parent.slug.replace(/__trashed$/, ''), starts);
  const ids: number[] = [];
  for (let i = 0; i < starts.length; i += INSERT_CHUNK) {
    const chunk = starts.slice(i, i + INSERT_CHUNK);
    const posts = chunk.map((_, j): Insertable<PostsTable> => ({
      type: 'event',
      author: parent.author,
      status: parent.status,
      slug: slugs[i + j]!,
      title: parent.title,
      description: parent.description,
      excerpt: parent.excerpt,
      password: parent.password,
      date: parent.date,
      date_utc: parent.date_utc,
      modified: now.local,
      modified_utc: now.utc,
      image_id: parent.image_id,
      parent_id: parent.id,
    }));
    const chunkIds = (await insertPost(trx, posts)).map((row) => row.id);
    await insertEventRows(
      trx,
      chunk.map((start, j) => ({
        post_id: chunkIds[j]!,
        cost: parent.cost,
        cost_symbol: parent.cost_symbol,
        cost_position: parent.cost_position,
        website: parent.website,
        show_map: parent.show_map,
        show_map_link: parent.show_map_link,
        hide_from_listings: parent.hide_from_listings,
        sticky: parent.sticky,
        featured: parent.featured,
        timezone: parent.timezone,
        ...occurrenceTimes(parent, start),
      })),
    );
    await insertMembers(
      trx,
      chunk.map((start, j) => ({ event_id: chunkIds[j]!, series_id: parent.id, original_start: start, detached: 0 })),
    );
    ids.push(...chunkIds);
  }
  return ids;
}

/** The link tables of an event and the column naming what it links. */
const LINK_TABLES = [
  ['event_terms', 'term_id'],
  ['event_venues', 'venue_id'],
  ['event_organizers', 'organizer_id'],
] as const;
const insertLinkRows = Object.fromEntries(LINK_TABLES.map(([table]) => [table, preparedInsert(table)]));

/** Gives `targets` the parent's categories, tags, venues and organizers; `replace`: they have links to drop first. */
async function copyLinks(trx: Trx, parentId: number, targets: readonly number[], replace: boolean): Promise<void> {
  for (const [table, column] of LINK_TABLES) {
    const links = await trx
      .selectFrom(table)
      .select([`${column} as target`, 'position'])
      .where('event_id', '=', parentId)
      .execute();
    for (let i = 0; i < targets.length; i += INSERT_CHUNK) {
      const chunk = targets.slice(i, i + INSERT_CHUNK);
      if (replace) await trx.deleteFrom(table).where('event_id', 'in', chunk).execute();
      const rows = chunk.flatMap((id) =>
        links.map((link) => ({ event_id: id, [column]: link.target, position: link.position })),
      );
      for (let j = 0; j < rows.length; j += INSERT_CHUNK)
        await insertLinkRows[table]!(trx, rows.slice(j, j + INSERT_CHUNK));
    }
  }
}

/** The `posts` and `events` columns a series edit copies from the parent to its occurrences. */
const COPIED_POST_COLUMNS = ['author', 'status', 'title', 'description', 'excerpt', 'password', 'date', 'date_utc'];
const COPIED_EVENT_COLUMNS = [
  'cost',
  'cost_symbol',
  'cost_position',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'timezone',
  'all_day',
];

/** Copies the parent's fields and links to the occurrences a series edit applies to. */
async function copyFields(trx: Trx, parent: EventRow, now: Now): Promise<void> {
  const ids = (await followingMembers(trx, parent.id).execute()).map((r) => r.event_id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const postColumns = sql.raw(COPIED_POST_COLUMNS.join(', '));
    await sql`update posts set (${postColumns}, image_id, modified, modified_utc) =
      (select ${postColumns}, image_id, ${now.local}, ${now.utc} from posts where id = ${parent.id})
      where id in (${sql.join(chunk)})`.execute(trx);
    const eventColumns = sql.raw(COPIED_EVENT_COLUMNS.join(', '));
    // Each series edit is an update of every occurrence it reaches (their iCalendar SEQUENCE).
    await sql`update events set (${eventColumns}) = (select ${eventColumns} from events where post_id = ${parent.id}),
      sequence = sequence + 1
      where post_id in (${sql.join(chunk)})`.execute(trx);
  }
  await copyLinks(trx, parent.id, ids, true);
}

function expandOrRefuse(
  recurrence: Recurrence,
  parent: EventRow,
  window: { since: string; through: string },
  limit: number,
) {
  try {
    return expandRecurrence(recurrence, parent.start_date, parent.timezone, window, limit);
  } catch (err) {
    if (err instanceof UnusableRule) throw recurrenceRefused(`rrule: ${err.message}`);
    throw err;
  }
}

/** What a sync of a series does besides following the rule. */
export interface SyncOptions {
  /** Copy the parent's fields and links to the occurrences (a series edit). */
  copy: boolean;
}

/**
 * Makes the occurrences of the series led by `parentId` follow its rule up to the horizon:
 * occurrences of days the rule no longer gives are removed, those of new days inserted, and the
 * others moved to the parent's clock and length. Occurrences edited alone or trashed are left as
 * they are and keep their day. A rule with more than `series_max_occurrences` is refused.
 */
export async function syncSeries(
  trx: Trx,
  parent: EventRow,
  settings: Settings,
  now: Now,
  options: SyncOptions,
): Promise<void> {
  const parentId = parent.id;
  const series = await findSeries(trx, parentId);
  if (!series) return;
  const horizon = seriesHorizon(settings, now.ms);
  const limit = settings.series_max_occurrences;
  const window = { since: now.utc, through: horizon };
  const expansion = expandOrRefuse(storedRecurrence(series), parent, window, limit);
  if (expansion.overLimit) throw restErrors.eventSeriesTooLong(limit);

  const members = await membersOf(trx, parentId);
  const byDay = new Map(members.map((m) => [m.original_start.slice(0, 10), m]));
  const wanted = new Map(expansion.starts.slice(1).map((start) => [start.slice(0, 10), start]));
  const gone = members.filter((m) => !m.detached && m.status !== 'trash' && !wanted.has(m.original_start.slice(0, 10)));
  await deletePostRows(
    trx,
    gone.map((m) => m.event_id),
  );
  for (const [day, start] of wanted) {
    const member = byDay.get(day);
    if (!member || member.detached || member.status === 'trash') continue;
    const times = occurrenceTimes(parent, start);
    const same = (['start_date', 'end_date', 'utc_start_date', 'utc_end_date'] as const).every(
      (column) => member[column] === times[column],
    );
    if (same) continue;
    await trx.updateTable('events').set(times).where('post_id', '=', member.event_id).execute();
    await trx
      .updateTable('event_series_members')
      .set({ original_start: start })
      .where('event_id', '=', member.event_id)
      .execute();
  }
  if (options.copy) await copyFields(trx, parent, now);
  const fresh = [...wanted].filter(([day]) => !byDay.has(day)).map(([, start]) => start);
  if (fresh.length) await copyLinks(trx, parent.id, await insertOccurrences(trx, parent, fresh, now), false);
  await trx
    .updateTable('event_series')
    .set({ materialized_until: expansion.continues ? horizon : '' })
    .where('post_id', '=', parentId)
    .execute();
}
