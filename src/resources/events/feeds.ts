/**
 * The iCalendar feeds of the events (RFC 5545, RFC 7986): the list with the filters of `GET /events`,
 * one event, a category's and a tag's events. Served at the site addresses TEC's subscribe links
 * use (`{site}/events/?ical=1`, …: http/feed-paths.ts) and at their routes under `/feeds`. A feed
 * shows what an anonymous reader may see, whoever asks: it is meant to be shared as a link.
 */
import { DateTime } from 'luxon';
import type { Trx } from '../../db/tables.js';
import { restErrors } from '../../http/errors.js';
import { args } from '../../http/args.js';
import { feedSiteUrl } from '../../http/feed-paths.js';
import {
  defineRoute,
  endpoint,
  everyone,
  type ArgValues,
  type RequestContext,
  type RouteDef,
} from '../../http/route.js';
import { writeFeed, type FeedEvent } from '../../ical/feed.js';
import { htmlToPlainText } from '../../text/html.js';
import { sanitizeSlugQuery } from '../../text/slug.js';
import { nowUtcWall } from '../../time/format.js';
import { publishDueForRead } from '../post-like/schedule.js';
import { findArchiveTerm } from '../terms/archive.js';
import { categoryTaxonomy, tagTaxonomy, type Taxonomy } from '../terms/index.js';
import { withDescendants } from '../terms/repository.js';
import { givenDate } from './list-conditions.js';
import { listConditions, listLinkParams, readListPage, type ListFilters } from './list.js';
import { representEvent } from './representation.js';
import { findEventBySlug, loadRelated, type EventRow } from './repository.js';
import { EventListArgs } from './schema.js';

/** The feeds' media type: bare in a `Link`'s `type`, with its charset in `Content-Type`. */
export const FEED_MEDIA_TYPE = 'text/calendar';
const FEED_TYPE = `${FEED_MEDIA_TYPE}; charset=utf-8`;

/** Events a feed holds when `per_page` is not given, and at most (more is clamped, as lists clamp). */
export const FEED_PER_PAGE = 100;
export const FEED_MAX_PER_PAGE = 500;
/**
 * Without dates a feed starts this many days back, where the JSON list starts yesterday: a
 * subscribed calendar would otherwise drop each event the day after it ends.
 */
export const FEED_PAST_DAYS = 30;
/** How often a subscribed client is asked to fetch again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 3600;

/** The filters of `GET /events` a feed takes, with their meaning there (list-conditions.ts). */
const FEED_FILTERS = ['start_date', 'end_date', 'search', 'categories', 'tags', 'venue', 'organizer', 'featured'];

const { start_date, end_date, search, categories, tags, venue, organizer, featured } = EventListArgs;

const perPage = args.positiveInteger(
  `How many events the feed holds, in start order (at most ${FEED_MAX_PER_PAGE}; more is clamped).`,
  {},
  { default: FEED_PER_PAGE },
);

const FeedListArgs = { start_date, end_date, search, categories, tags, venue, organizer, featured, per_page: perPage };
/** An archive feed takes the list's filters but the one its path sets. */
const { categories: _byCategory, ...notByCategory } = FeedListArgs;
const { tags: _byTag, ...notByTag } = FeedListArgs;
const CategoryFeedArgs = {
  path: args.string('The category slug, after the slugs of its parents as in its url.', { in: 'path' }),
  ...notByCategory,
};
const TagFeedArgs = { slug: args.string('The tag slug.', { in: 'path' }), ...notByTag };
const EventFeedArgs = { slug: args.string('The event slug.', { in: 'path' }) };

type FeedListInput = ArgValues<typeof FeedListArgs>;
type CategoryFeedInput = ArgValues<typeof CategoryFeedArgs>;
type TagFeedInput = ArgValues<typeof TagFeedArgs>;
type EventFeedInput = ArgValues<typeof EventFeedArgs>;

/** The filters a feed link carries, in the list's link order and as the client gave them. */
function feedParams(ctx: RequestContext, filters: ListFilters) {
  return listLinkParams(ctx, filters, 0).filter(([name]) => FEED_FILTERS.includes(name));
}

/** `{site}/events/?ical=1` with the list's filters: the feed `GET /events` links to as its alternate. */
export function listFeedUrl(ctx: RequestContext, filters: ListFilters): string {
  return feedSiteUrl(ctx.urls.site, '/events/', feedParams(ctx, filters));
}

/** The caller a feed is read as: nobody (it shows published events only, protected ones blanked). */
const anonymous = (ctx: RequestContext): RequestContext => ({ ...ctx, user: null });

/** Without any date, the feed's own window start; the end stays the list's default. */
function withFeedWindow(filters: ListFilters): ListFilters {
  if (filters.start_date || filters.end_date) return filters;
  const start = DateTime.utc().startOf('day').minus({ days: FEED_PAST_DAYS }).toISODate()!;
  return { ...filters, start_date: givenDate(start) };
}

interface FeedAbout {
  name: string;
  description: string;
  url: string;
}

const host = (ctx: RequestContext) => new URL(ctx.urls.site).host;

const asList = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value : value && typeof value === 'object' ? [value as Record<string, unknown>] : [];

const text = (value: unknown) => (typeof value === 'string' ? htmlToPlainText(value) : '');

/** An address in the local-part@domain shape: ORGANIZER needs one (RFC 5545 3.8.4.3). */
const isEmailAddress = (value: unknown): value is string =>
  typeof value === 'string' && /^[^\s@<>:]+@[^\s@<>:]+$/.test(value);

/** The first venue, as LOCATION (name and address) and GEO. */
function location(json: Record<string, unknown>): FeedEvent['location'] {
  const venue = asList(json.venue)[0];
  if (!venue) return undefined;
  const region = venue.stateprovince || venue.state || venue.province;
  const address = [venue.address, venue.city, region, venue.zip, venue.country].map(text).filter(Boolean).join(', ');
  const { geo_lat: lat, geo_lng: lon } = venue;
  const geo = typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : undefined;
  return { name: text(venue.venue), address, geo };
}

/** The first organizer with an email address; CN is its name. */
function organizerOf(json: Record<string, unknown>): FeedEvent['organizer'] {
  const found = asList(json.organizer).find((o) => isEmailAddress(o.email));
  return found ? { name: text(found.organizer) || (found.email as string), email: found.email as string } : undefined;
}

/** One event as the feed writes it, from its JSON representation (what a reader of the JSON sees). */
function feedEvent(row: EventRow, json: Record<string, unknown>, ctx: RequestContext): FeedEvent {
  const terms = [...asList(json.categories), ...asList(json.tags)].map((term) => text(term.name));
  const image = json.image && typeof json.image === 'object' ? (json.image as { url?: unknown }).url : undefined;
  return {
    uid: `${row.id}@${host(ctx)}`,
    sequence: row.sequence,
    created: row.date_utc,
    modified: row.modified_utc,
    allDay: row.all_day === 1,
    start: row.start_date,
    end: row.end_date,
    utcStart: row.utc_start_date,
    utcEnd: row.utc_end_date,
    timezone: row.timezone,
    summary: text(json.title),
    description: text(json.description),
    url: String(json.url),
    location: location(json),
    categories: [...new Set(terms.filter(Boolean))],
    organizer: organizerOf(json),
    attach: typeof image === 'string' ? image : undefined,
  };
}

/**
 * The feed of `rows`. A password-protected event shows its title and times only, as the JSON list
 * shows it to a reader without the password (events.md 1.12).
 */
async function feedReply(reader: RequestContext, rows: EventRow[], about: FeedAbout) {
  const related = await loadRelated(reader.app.db, rows, reader, { jsonLd: false });
  const events = rows.map((row) => {
    const json = representEvent(row, related, {
      urls: reader.urls,
      settings: reader.settings,
      jsonLd: false,
      blankProtected: row.password !== '',
    });
    return feedEvent(row, json, reader);
  });
  const { settings } = reader;
  return {
    body: writeFeed({ ...about, siteZone: settings.timezone, refreshSeconds: REFRESH_SECONDS, events }),
  };
}

/** The published events the filters keep, in start order, as a feed. */
async function listedFeed(
  ctx: RequestContext,
  filters: ListFilters,
  given: number | null | undefined,
  about: FeedAbout,
) {
  const reader = anonymous(ctx);
  const paging = { page: 1, perPage: Math.min(given ?? FEED_PER_PAGE, FEED_MAX_PER_PAGE), offset: 0 };
  const page = await readListPage(ctx, listConditions(reader, withFeedWindow(filters)), paging);
  return feedReply(reader, await page.rows(), about);
}

function listFeed(ctx: RequestContext, input: FeedListInput) {
  const name = ctx.settings.site_name;
  return listedFeed(ctx, input, input.per_page, {
    name,
    description: `Events of ${name}`,
    url: listFeedUrl(ctx, input),
  });
}

/** The term an archive feed's path names, else 404. */
async function archiveTerm(trx: Trx, tax: Taxonomy, path: string) {
  const term = await findArchiveTerm(trx, tax, path.split('/').map(sanitizeSlugQuery));
  if (!term) throw restErrors.feedNotFound();
  return term;
}

/** A category's events, its sub-categories' included, as on its archive page and in the `categories` filter. */
async function categoryFeed(ctx: RequestContext, input: CategoryFeedInput) {
  const term = await archiveTerm(ctx.app.db, categoryTaxonomy, input.path ?? '');
  const ids = await withDescendants(ctx.app.db, [term.id]);
  const path = `/events/category/${(input.path ?? '').split('/').map(encodeURIComponent).join('/')}/`;
  return archiveFeed(ctx, { ...input, categories: ids }, input.per_page, term.name, path);
}

async function tagFeed(ctx: RequestContext, input: TagFeedInput) {
  const term = await archiveTerm(ctx.app.db, tagTaxonomy, input.slug ?? '');
  return archiveFeed(ctx, { ...input, tags: [term.id] }, input.per_page, term.name, `/tag/${term.slug}/`);
}

function archiveFeed(
  ctx: RequestContext,
  filters: ListFilters,
  given: number | null | undefined,
  term: string,
  path: string,
) {
  const site = ctx.settings.site_name;
  const name = `${site}: ${htmlToPlainText(term)}`;
  const url = feedSiteUrl(ctx.urls.site, path, feedParams(ctx, filters));
  return listedFeed(ctx, filters, given, { name, description: `Events of ${name}`, url });
}

/** One published event, password-protected ones as title and times. */
async function eventFeed(ctx: RequestContext, { slug }: EventFeedInput) {
  await publishDueForRead(ctx, nowUtcWall());
  const row = await findEventBySlug(ctx.app.db, slug ?? '');
  if (!row || row.status !== 'publish') throw restErrors.feedNotFound();
  const reader = anonymous(ctx);
  const site = ctx.settings.site_name;
  const name = `${site}: ${htmlToPlainText(row.title.trim())}`;
  const url = feedSiteUrl(ctx.urls.site, `/event/${row.slug}/`);
  return feedReply(reader, [row], { name, description: `Events of ${name}`, url });
}

const feedEndpoint = { methods: ['GET' as const], permission: everyone, contentType: FEED_TYPE };

/** The feeds' routes; their site addresses are in http/feed-paths.ts. */
export function feedRoutes(): RouteDef[] {
  return [
    defineRoute('/feeds/events', [
      endpoint({
        ...feedEndpoint,
        args: FeedListArgs,
        handler: listFeed,
        cache: 'clock',
        summary: 'iCalendar feed of the events list, also at {site}/events/?ical=1',
        errorStatuses: [400],
      }),
    ]),
    defineRoute('/feeds/events/(?P<slug>[^/]+)', [
      endpoint({
        ...feedEndpoint,
        args: EventFeedArgs,
        handler: eventFeed,
        cache: 'data',
        summary: 'iCalendar feed of one published event, also at {site}/event/{slug}/?ical=1',
        errorStatuses: [404],
      }),
    ]),
    defineRoute('/feeds/categories/(?P<path>.+)', [
      endpoint({
        ...feedEndpoint,
        args: CategoryFeedArgs,
        handler: categoryFeed,
        cache: 'clock',
        summary: 'iCalendar feed of the events of a category, also at {site}/events/category/{path}/?ical=1',
        errorStatuses: [400, 404],
      }),
    ]),
    defineRoute('/feeds/tags/(?P<slug>[^/]+)', [
      endpoint({
        ...feedEndpoint,
        args: TagFeedArgs,
        handler: tagFeed,
        cache: 'clock',
        summary: 'iCalendar feed of the events of a tag, also at {site}/tag/{slug}/?ical=1',
        errorStatuses: [400, 404],
      }),
    ]),
  ];
}
