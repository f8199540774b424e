/** What the events list and the feeds share: the meaning of their filters, their links, their page. */
import { DateTime } from 'luxon';
import { memberTag, startTag, typeTag } from '../../db/cache-tags.js';
import type { LinkValue, Paging } from '../../http/pagination.js';
import type { RequestContext } from '../../http/route.js';
import { formatWall } from '../../time/format.js';
import { modifiedLinkParams } from '../post-like/modified.js';
import { publishDueForRead } from '../post-like/schedule.js';
import { listStatuses, statusLinkValue } from '../post-like/status.js';
import { categoryTaxonomy, tagTaxonomy } from '../terms/index.js';
import { narrowsBeyondDatesAndTerms, searchTerms, startOrdered, type EventListConditions } from './list-conditions.js';
import { eventListQueries } from './list-planner.js';
import { startFloor, type DateBounds } from './day-counts.js';
import type { EventRow } from './repository.js';
import type { EventListInput } from './schema.js';

/** The list's arguments, or the part of them a feed takes (feeds.ts): what it does not take is not given. */
export type ListFilters = Partial<EventListInput>;

/** The request's filters in the reference's link order, as the client gave them (common.md 6.5, decisions.md X 6). */
export function listLinkParams(ctx: RequestContext, p: ListFilters, perPage: number): Array<[string, LinkValue]> {
  const g = ctx.given;
  const joined = (v: unknown): LinkValue => (Array.isArray(v) ? v.map(String).join(',') : (v as LinkValue));
  const bool = (value: boolean | null | undefined): LinkValue => (typeof value === 'boolean' ? value : undefined);
  const search = typeof p.search === 'string' && p.search.trim() !== '' ? p.search : undefined;
  return [
    ['per_page', perPage],
    ['start_date', joined(g.start_date)],
    ['end_date', joined(g.end_date)],
    ['search', search],
    ['categories', joined(g.categories)],
    ['tags', joined(g.tags)],
    ['geoloc', bool(p.geoloc)],
    ['geoloc_lat', joined(g.geoloc_lat)],
    ['geoloc_lng', joined(g.geoloc_lng)],
    ['geoloc_radius', joined(g.geoloc_radius)],
    ['status', statusLinkValue(ctx.user, p.status)],
    ['post_parent', p.post_parent],
    ['include', p.include],
    ['starts_before', joined(g.starts_before)],
    ['starts_after', joined(g.starts_after)],
    ['ends_before', joined(g.ends_before)],
    ['ends_after', joined(g.ends_after)],
    ['ticketed', bool(p.ticketed)],
    ['venue', p.venue],
    ['organizer', p.organizer],
    ['featured', bool(p.featured)],
    ['strict_dates', joined(g.strict_dates)],
    ...modifiedLinkParams(ctx),
  ];
}

/** The list's arguments as its conditions read them (list-conditions.ts). */
export function listConditions(ctx: RequestContext, p: ListFilters): EventListConditions {
  return {
    user: ctx.user,
    statuses: listStatuses(ctx.user, p.status),
    timezone: ctx.settings.timezone,
    strict_dates: p.strict_dates === true,
    start_date: p.start_date,
    end_date: p.end_date,
    starts_before: p.starts_before,
    starts_after: p.starts_after,
    ends_before: p.ends_before,
    ends_after: p.ends_after,
    search: typeof p.search === 'string' ? p.search : undefined,
    categories: p.categories,
    tags: p.tags,
    venue: p.venue || undefined,
    organizer: p.organizer || undefined,
    featured: typeof p.featured === 'boolean' ? p.featured : undefined,
    geoloc: typeof p.geoloc === 'boolean' ? p.geoloc : undefined,
    geoloc_lat: typeof p.geoloc_lat === 'number' ? p.geoloc_lat : undefined,
    geoloc_lng: typeof p.geoloc_lng === 'number' ? p.geoloc_lng : undefined,
    geoloc_radius: typeof p.geoloc_radius === 'number' ? p.geoloc_radius : ctx.settings.geoloc_radius,
    geoloc_unit: ctx.settings.geoloc_unit === 'km' ? 'km' : 'miles',
    include: p.include || undefined,
    post_parent: typeof p.post_parent === 'number' ? p.post_parent : undefined,
    modified: { modified_after: p.modified_after, modified_before: p.modified_before, orderby: p.orderby },
  };
}

/** A list's total, and the way to its page. */
export interface ListPage {
  total: number;
  /** The date window the list was read with. */
  bounds: DateBounds;
  /** The page's records: none past the total (a 404 past the first page), without reading them. */
  rows(): Promise<EventRow[]>;
}

/**
 * One query for the total, one for the page. Both may read thousands of index entries, so they are
 * read from `reads` (on SQLite the worker threads); what the rest reads by key (the filter's terms,
 * the page's relations) is read on the request connection. A worker's answer waits for a turn of
 * the event loop, behind the requests that came meanwhile; reading the rest there spares a page
 * built under load those turns (docs/architecture.md, What makes lists fast).
 */
export async function readListPage(
  ctx: RequestContext,
  conditions: EventListConditions,
  paging: Paging,
): Promise<ListPage> {
  const now = DateTime.utc();
  await publishDueForRead(ctx, formatWall(now));
  const { bounds, freshUntil, count, rowsFor } = await eventListQueries({
    reads: ctx.app.reads,
    app: ctx.app,
    conditions,
    paging,
    dataVersion: ctx.dataVersion,
    now,
  });
  ctx.freshUntil = freshUntil;
  const total = await ctx.app.counts.count(count, ctx.dataVersion);
  return { total, bounds, rows: async () => (paging.offset < total ? rowsFor(total) : []) };
}

/** Days a page's start-day tags may span; a longer span reads as the whole list. */
const PAGE_SPAN_DAYS = 62;

/**
 * The tags a full page of a list is built from besides its own records, given the tags the whole
 * list reads (`listed`, from `listReads`): the start days (db/cache-tags.ts, `startTag`) from the
 * window's first day to its last record's, and the taxonomies that resolved the filter's names. A
 * list is sorted by each event's own start (`eventListOrder`): an event written after the page's
 * last record can change the list's total, not the page. The window's first day is one before its
 * lower bound on the start: on a site in UTC the bound meets the UTC start, which an event's own
 * clock may put on the day before. Null when the page is not full (any event of the window may
 * join it), when no bound limits the start from below, or when the span is longer than
 * `PAGE_SPAN_DAYS`.
 */
export function pageReads(
  listed: Iterable<string>,
  page: ListPage,
  rows: EventRow[],
  perPage: number,
): string[] | null {
  const last = rows[rows.length - 1];
  if (!last || rows.length < perPage) return null;
  const lower = startFloor(page.bounds);
  if (lower === undefined) return null;
  const to = DateTime.fromISO(last.start_date.slice(0, 10), { zone: 'utc' });
  let day = DateTime.fromISO(lower.slice(0, 10), { zone: 'utc' }).minus({ days: 1 });
  if (!day.isValid || !to.isValid || to.diff(day, 'days').days >= PAGE_SPAN_DAYS) return null;
  const tags = [...listed].filter((tag) => !tag.startsWith('m:') && tag !== typeTag('event'));
  for (; day <= to; day = day.plus({ days: 1 })) tags.push(startTag(day.toISODate()!));
  return tags;
}

/**
 * What a list's total and page are built from, for the response cache (db/cache-tags.ts), besides
 * the records of the page, which `loadRelated` names. Narrowed by dates, `featured` and statuses
 * alone: any event. By categories or tags besides those: the events carrying their terms (the
 * filter's descendants included) and the taxonomies that resolved the filter's names. Null (all
 * data) when anything else narrows or orders it: a search reads every title, a venue filter the
 * venues, `orderby=modified` every modification date.
 */
export function listReads(list: EventListConditions): string[] | null {
  if (narrowsBeyondDatesAndTerms(list, searchTerms(list.search)) || !startOrdered(list)) return null;
  if (list.categories === undefined && list.tags === undefined) return [typeTag('event')];
  const reads = new Set<string>();
  for (const [tax, ids] of [
    [categoryTaxonomy, list.categories],
    [tagTaxonomy, list.tags],
  ] as const) {
    if (ids === undefined) continue;
    reads.add(typeTag(tax.name));
    for (const id of ids ?? []) reads.add(memberTag(id));
  }
  return [...reads];
}
