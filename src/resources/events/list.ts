/** What the events list and the feeds share: the meaning of their filters, their links, their page. */
import { DateTime } from 'luxon';
import { memberTag, typeTag } from '../../db/cache-tags.js';
import type { LinkValue, Paging } from '../../http/pagination.js';
import type { RequestContext } from '../../http/route.js';
import { formatWall } from '../../time/format.js';
import { modifiedLinkParams } from '../post-like/modified.js';
import { publishDueForRead } from '../post-like/schedule.js';
import { listStatuses, statusLinkValue } from '../post-like/status.js';
import { categoryTaxonomy, tagTaxonomy } from '../terms/index.js';
import { narrowsBeyondDatesAndTerms, searchTerms, type EventListConditions } from './list-conditions.js';
import { eventListQueries } from './list-planner.js';
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
): Promise<{ rows: EventRow[]; total: number }> {
  const now = DateTime.utc();
  await publishDueForRead(ctx, formatWall(now));
  const { freshUntil, count, pageFor } = await eventListQueries({
    reads: ctx.app.reads,
    app: ctx.app,
    conditions,
    paging,
    dataVersion: ctx.dataVersion,
    now,
  });
  ctx.freshUntil = freshUntil;
  const total = await ctx.app.counts.count(count, ctx.dataVersion);
  // A page past the total is empty without reading it (a 404 past the first page).
  const rows = paging.offset < total ? await pageFor(total).execute() : [];
  return { rows, total };
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
  if (narrowsBeyondDatesAndTerms(list, searchTerms(list.search)) || list.modified?.orderby === 'modified') return null;
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
