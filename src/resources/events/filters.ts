import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DateTime } from 'luxon';
import type { Db } from '../../db/tables.js';
import { resolvePaging, type Paging } from '../../http/pagination.js';
import type { RequestContext } from '../../http/route.js';
import { formatWall, shiftUtcWall } from '../../time/format.js';
import { parseDateInput, readsClock } from '../../time/parse.js';
import { luxonZone, normalizeZone } from '../../time/zone.js';
import { listStatuses } from '../post-like/status.js';
import { visibleRecords, visibleStatuses } from '../post-like/visibility.js';
import { categoryTaxonomy, resolveTermFilter, tagTaxonomy, type Taxonomy } from '../terms/index.js';
import { ZONE_OFFSET_HOURS, boundConditions, dayCountQuery, listColumns, type DateBounds } from './day-counts.js';
import { EVENT_COLUMNS, eventListSource } from './repository.js';

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** The date bounds of a request, and until when they stay what they are (ms since the epoch). */
interface WindowOf {
  bounds: DateBounds;
  /**
   * As `RequestContext.freshUntil`: `Infinity` when no bound reads the clock, unset when one may change from one second
   * to the next.
   */
  freshUntil?: number;
}

/**
 * Each given date as the bound it means (events.md 2.2.3): in inclusive mode its UTC calendar day,
 * from 00:00:00 (`start_date`) or to 23:59:59 (every other bound); in strict mode the instant (read
 * as UTC unless it carries an offset) as site-local wall-clock time. Defaults (2.2.2, E13) apply
 * when no relative bound is given; with `include` no `start_date`/`end_date` applies (E14).
 * Relative inputs ("tomorrow") and strict defaults follow the clock; inclusive defaults are
 * calendar days of `now` in UTC, the same until the next UTC midnight.
 */
function dateWindow(ctx: RequestContext, now: DateTime = DateTime.utc()): WindowOf {
  const site = luxonZone(ctx.settings.timezone);
  const strict = ctx.params.strict_dates === true;
  let freshUntil: number | undefined = Infinity;
  const bound = (name: keyof DateBounds): string | undefined => {
    const value = ctx.params[name];
    if (value === undefined || value === null) return undefined;
    if (readsClock(value)) freshUntil = undefined;
    const at = parseDateInput(value, 'UTC', now)!;
    if (strict) return formatWall(at.setZone(site));
    return `${at.toUTC().toISODate()} ${name === 'start_date' ? '00:00:00' : '23:59:59'}`;
  };
  const bounds: DateBounds = {};
  for (const name of RELATIVE) bounds[name] = bound(name);
  if (ctx.params.include) return { bounds, freshUntil };
  const relative = RELATIVE.some((name) => bounds[name] !== undefined);
  bounds.start_date = bound('start_date');
  bounds.end_date = bound('end_date');
  if (relative || (bounds.start_date !== undefined && bounds.end_date !== undefined)) return { bounds, freshUntil };
  const today = now.toUTC().startOf('day');
  const yesterday = today.minus({ days: 1 }).set({ hour: 23, minute: 59 });
  const horizon = now.toUTC().plus({ months: 24 });
  if (strict) {
    bounds.start_date ??= formatWall(yesterday.setZone(site));
    bounds.end_date ??= formatWall(horizon.setZone(site));
    return { bounds, freshUntil: undefined };
  }
  bounds.start_date ??= `${yesterday.setZone(site).toISODate()} 00:00:00`;
  bounds.end_date ??= `${horizon.toISODate()} 23:59:59`;
  return { bounds, freshUntil: freshUntil === undefined ? undefined : today.plus({ days: 1 }).toMillis() };
}

/**
 * A search term (events.md 2.5): a word or "quoted phrase", possibly `-excluded`. A term of three
 * characters or more can be looked up in a trigram index (SQLite: full-text, migration 05;
 * PostgreSQL: pg_trgm, migration 07). On SQLite it is `rare` when few records are estimated to
 * hold it (`searchShare`), so the lookup drives the query, while a common term is
 * checked on each event read in start order, which stops at the page size. A count reads the index
 * unless the filters leave fewer events than that (`countByIndex`): checking one event costs about
 * three times reading one index entry. PostgreSQL's planner weighs the lookup itself (every indexed
 * term is `rare` there).
 */
interface SearchTerm {
  text: string;
  exclude: boolean;
  indexed: boolean;
  rare: boolean;
  countByIndex: boolean;
  /** Records estimated to hold the term (SQLite, `searchShare`). */
  matches: number;
}

/**
 * WordPress searches for the whole string as one term when it splits into more terms than this
 * (WP_Query::parse_search).
 */
const MAX_SEARCH_TERMS = 9;

function searchTerms(search: string, backend: RequestContext['app']['backend']): SearchTerm[] {
  const term = (text: string, exclude: boolean): SearchTerm => ({
    text,
    exclude,
    indexed: [...text].length >= 3,
    rare: backend === 'postgres',
    countByIndex: true,
    matches: Infinity,
  });
  const out: SearchTerm[] = [];
  for (const m of search.matchAll(/(-?)"([^"]*)"|(-?)(\S+)/g)) {
    const text = (m[2] ?? m[4] ?? '').trim();
    if (text) out.push(term(text, (m[1] ?? m[3]) === '-'));
  }
  return out.length > MAX_SEARCH_TERMS ? [term(search.trim(), false)] : out;
}

/** Records read to estimate how many hold a search term: the newest ones. */
const SEARCH_SAMPLE = 500;
/** How long a share steers plans before it is read again. */
const SEARCH_SHARE_MS = 60_000;
const SEARCH_SHARES_MAX = 10_000;

/**
 * The share of records that hold a term: of the newest `SEARCH_SAMPLE` records (0 when none of
 * them does). Times the records, it estimates the matches, which only choose between two plans
 * with the same results. The index's own count of each trigram (its vocabulary) walks the
 * trigram's whole list: about a millisecond for a common one with the file in memory, but up to
 * 2.4 s at 1M events when those pages had to be read from disk, while the sample reads a few
 * dozen pages. Shares are kept a minute per database and term, writes or not.
 */
const searchShares = new WeakMap<Db, Map<string, { share: number; at: number }>>();

async function searchShare(db: Db, text: string): Promise<number> {
  let known = searchShares.get(db);
  if (!known) searchShares.set(db, (known = new Map()));
  const key = text.toLowerCase();
  const now = Date.now();
  const kept = known.get(key);
  if (kept && now - kept.at < SEARCH_SHARE_MS) return kept.share;
  const newest = db
    .selectFrom('posts')
    .select(['title', 'excerpt', 'description'])
    .orderBy('id', 'desc')
    .limit(SEARCH_SAMPLE);
  const row = await db
    .selectFrom(newest.as('s'))
    .select((eb) => [
      eb.fn.countAll<number>().as('seen'),
      eb.fn
        .sum<number>(
          sql`case when ${eb.or(['title', 'excerpt', 'description'].map((c) => contains(`s.${c}`, text)))} then 1 else 0 end`,
        )
        .as('hits'),
    ])
    .executeTakeFirstOrThrow();
  const seen = Number(row.seen);
  const share = seen ? Number(row.hits ?? 0) / seen : 0;
  if (known.size >= SEARCH_SHARES_MAX) known.clear();
  known.set(key, { share, at: now });
  return share;
}

/**
 * Reading events in start order until the page is full checks about `wanted × records / matches`
 * of them; the index lookup reads every match once. The lookup is the cheaper when
 * `matches² ≤ 2 × wanted × records` (a check costs about twice an index entry).
 */
async function resolveSearch(db: Db, lookups: Db, ctx: RequestContext, paging: Paging): Promise<SearchTerm[]> {
  const search = ctx.params.search;
  if (typeof search !== 'string' || search.trim() === '') return [];
  const terms = searchTerms(search, ctx.app.backend);
  const indexed = terms.filter((term) => term.indexed);
  if (!indexed.length || ctx.app.backend === 'postgres') return terms;
  const [last, shares] = await Promise.all([
    lookups
      .selectFrom('posts')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst(),
    Promise.all(indexed.map((term) => searchShare(db, term.text))),
  ]);
  const records = Number(last?.id ?? 0);
  const budget = 2 * (paging.offset + paging.perPage) * records;
  indexed.forEach((term, i) => {
    term.matches = Math.ceil(shares[i]! * records);
    term.rare = term.matches * term.matches <= budget;
  });
  return terms;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function contains(column: string, text: string) {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${likePattern(text)} escape '\\'`;
}

const EARTH_RADIUS = { km: 6371.0088, miles: 3958.7613 };

/** Venue coordinates within `radius` of the centre (haversine, with a bounding box the index can use) (E19). */
function withinRadius(
  eb: ExpressionBuilder<any, any>,
  lat: number,
  lng: number,
  radius: number,
  unit: 'km' | 'miles',
): Expression<SqlBool> {
  const angle = radius / EARTH_RADIUS[unit];
  const conditions: Expression<SqlBool>[] = [eb('v.geo_lat', 'is not', null), eb('v.geo_lng', 'is not', null)];
  if (angle < Math.PI / 2) {
    const dLat = (angle * 180) / Math.PI;
    conditions.push(eb('v.geo_lat', '>=', lat - dLat), eb('v.geo_lat', '<=', lat + dLat));
    const cosLat = Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180);
    const dLng = dLat / cosLat;
    if (lng - dLng >= -180 && lng + dLng <= 180)
      conditions.push(eb('v.geo_lng', '>=', lng - dLng), eb('v.geo_lng', '<=', lng + dLng));
    const threshold = Math.sin(angle / 2) ** 2;
    const cosCentre = Math.cos((lat * Math.PI) / 180);
    conditions.push(
      sql<SqlBool>`power(sin(radians(${sql.ref('v.geo_lat')} - cast(${lat} as double precision)) / 2), 2) + cast(${cosCentre} as double precision) * cos(radians(${sql.ref('v.geo_lat')})) * power(sin(radians(${sql.ref('v.geo_lng')} - cast(${lng} as double precision)) / 2), 2) <= cast(${threshold} as double precision)`,
    );
  }
  return eb.and(conditions);
}

/** A term filter resolved to IDs before the query (events.md 2.4). */
export interface TermFilterIds {
  ids: number[];
  /** Published events carrying one of the terms, at most (a sum of stored counts). */
  events: number;
}

/** Categories and tags filters, `null` when not given. */
export interface ResolvedTerms {
  categories: TermFilterIds | null;
  tags: TermFilterIds | null;
}

async function termFilterIds(db: Db, tax: Taxonomy, value: unknown): Promise<TermFilterIds> {
  const ids = await resolveTermFilter(db, tax, value);
  if (!ids.length) return { ids, events: 0 };
  const row = await db
    .selectFrom('terms')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('event_count'), eb.lit(0)).as('events'))
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return { ids, events: Number(row.events) };
}

async function resolveListTerms(db: Db, ctx: RequestContext): Promise<ResolvedTerms> {
  const [categories, tags] = await Promise.all([
    ctx.params.categories === undefined ? null : termFilterIds(db, categoryTaxonomy, ctx.params.categories),
    ctx.params.tags === undefined ? null : termFilterIds(db, tagTaxonomy, ctx.params.tags),
  ]);
  return { categories, tags };
}

/**
 * What the conditions are read from: `events as e` (the page, and counts without a term filter), or
 * the links of the term filter that drives a count, `event_terms as e`, whose copies of the
 * listing columns have the same names (migration 06); the other conditions then apply as they are.
 */
interface ListSource {
  purpose: 'page' | 'count';
  /** `e.post_id` or `e.event_id`. */
  id: string;
  /** The term filter the rows already belong to. */
  driving?: TermFilterIds;
}

const PAGE: ListSource = { purpose: 'page', id: 'e.post_id' };

/** On a UTC site bounds meet the UTC columns; elsewhere each event's own wall clock (E12). */
const isUtcSite = (ctx: RequestContext) => normalizeZone(ctx.settings.timezone) === 'UTC';

/**
 * The statuses a count may sum per day (day-counts.ts): when nothing but the dates, `featured`
 * and a visibility by status alone narrows the list. Every other condition of eventListWhere
 * below is one of those checked here.
 */
function daySummable(ctx: RequestContext, terms: ResolvedTerms, search: SearchTerm[]): string[] | null {
  const p = ctx.params;
  const narrowed =
    terms.categories !== null ||
    terms.tags !== null ||
    search.length > 0 ||
    Boolean(p.venue) ||
    Boolean(p.organizer) ||
    typeof p.geoloc === 'boolean' ||
    (typeof p.geoloc_lat === 'number' && typeof p.geoloc_lng === 'number') ||
    Boolean(p.include) ||
    typeof p.post_parent === 'number';
  return narrowed ? null : visibleStatuses(ctx.user, listStatuses(ctx));
}

/**
 * Every condition of `GET /events` as one SQL expression over one table `e` (style.md rule 6): the
 * page query and the count share it, and the count reads no other table unless a filter needs
 * one. Visibility per caller (decisions.md X 8) on the status and author mirrors,
 * `hide_from_listings` always left out (events.md 2.6).
 */
function eventListWhere(
  ctx: RequestContext,
  bounds: DateBounds,
  terms: ResolvedTerms,
  search: SearchTerm[],
  source: ListSource,
) {
  const { purpose, id } = source;
  const p = ctx.params;
  const utcSite = isUtcSite(ctx);
  const columns = listColumns(utcSite);
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [
      visibleRecords(ctx.user, listStatuses(ctx), 'e')(eb),
      eb('e.hide_from_listings', '=', 0),
    ];
    // For a page the UTC columns are compared as expressions so that no index on them competes
    // with the start-date index, which serves the order (see the implied bound below and
    // eventListSource); a count has no order, and plain columns are read faster from the index.
    const hidden = utcSite && purpose === 'page';
    all.push(...boundConditions(eb, bounds, columns, hidden ? (column) => sql`${sql.ref(column)} || ''` : undefined));
    // Every bound implies one on the local start, which the listing index is ordered by: an event
    // ends no earlier than it starts (decisions.md E27), so an upper bound on the end caps the
    // start too; UTC bounds loosen by the zone offsets (-12 h to +14 h). The page is then read in
    // start order between the two and stops at the page size, and a count reads only the window.
    const lower = [bounds.start_date, bounds.starts_after]
      .filter((b) => b !== undefined)
      .sort()
      .pop();
    const upper = [bounds.starts_before, bounds.end_date, bounds.ends_before].filter((b) => b !== undefined).sort()[0];
    if (utcSite && lower !== undefined)
      all.push(eb('e.start_date', '>=', shiftUtcWall(lower, ZONE_OFFSET_HOURS.least)));
    if (upper !== undefined)
      all.push(eb('e.start_date', '<=', utcSite ? shiftUtcWall(upper, ZONE_OFFSET_HOURS.most) : upper));
    // The index gives the same matches as the substring test (case-insensitive, within one
    // column); a count reads every match either way, a page only until it is full.
    const containsTerm = (alias: string, text: string) =>
      eb.or(['title', 'excerpt', 'description'].map((c) => contains(`${alias}.${c}`, text)));
    const looked = search.filter((term) => term.indexed && (purpose === 'count' ? term.countByIndex : term.rare));
    for (const term of looked) {
      const found =
        ctx.app.backend === 'sqlite'
          ? eb.or([
              sql<SqlBool>`${sql.ref(id)} in (select rowid from post_search where post_search match ${`"${term.text.replace(/"/g, '""')}"`})`,
              // Records still queued for the index (db/search-queue.ts), tested directly; CROSS JOIN
              // keeps SQLite reading the short queue first rather than every record.
              eb(
                id,
                'in',
                eb
                  .selectFrom('post_search_queue as q')
                  .crossJoin('posts as sp')
                  .whereRef('sp.id', '=', 'q.id')
                  .select('q.id')
                  .where(containsTerm('sp', term.text)),
              ),
            ])
          : eb(id, 'in', eb.selectFrom('posts as sp').select('sp.id').where(containsTerm('sp', term.text)));
      all.push(term.exclude ? eb.not(found) : found);
    }
    const matches = search
      .filter((term) => !looked.includes(term))
      .map((term) => (term.exclude ? eb.not(containsTerm('sp', term.text)) : containsTerm('sp', term.text)));
    if (matches.length)
      all.push(
        eb.exists(eb.selectFrom('posts as sp').select('sp.id').whereRef('sp.id', '=', id).where(eb.and(matches))),
      );
    // Term filters besides the one whose links are read (`source.driving`). On a page read in start
    // order each event is probed by the link table's primary key, so the read stops at the page
    // size. A count over the driving filter's links does the same on SQLite, reading the other
    // filter's links of those events only: checked against one set of the other filter's events, it
    // read every link of that filter (at 1M events, a tag's 525 matches in a year among a category
    // tree's 150,000 events: 120 ms against 8 ms). PostgreSQL hashes that set quickly and probes an
    // index slowly (~25 µs a probe; the list pool at 100k events ran 18% slower with probes), so
    // there each link is checked against the set (its `+`, a no-op there, is the form measured).
    for (const filter of [terms.categories, terms.tags]) {
      if (filter === null || filter === source.driving) continue;
      const tagged = eb.selectFrom('event_terms as et').select('et.event_id');
      if (!filter.ids.length) all.push(sql<SqlBool>`1 = 0`);
      else if (purpose === 'page' || ctx.app.backend === 'sqlite')
        all.push(eb.exists(tagged.whereRef('et.event_id', '=', id).where('et.term_id', 'in', filter.ids)));
      else all.push(eb(sql`+${sql.ref(id)}`, 'in', tagged.where('et.term_id', 'in', filter.ids)));
    }
    if (p.venue) {
      all.push(
        eb(id, 'in', eb.selectFrom('event_venues as ev').select('ev.event_id').where('ev.venue_id', 'in', p.venue)),
      );
    }
    if (p.organizer) {
      all.push(
        eb(
          id,
          'in',
          eb.selectFrom('event_organizers as eo').select('eo.event_id').where('eo.organizer_id', 'in', p.organizer),
        ),
      );
    }
    if (typeof p.featured === 'boolean') all.push(eb('e.featured', '=', p.featured ? 1 : 0));
    const venuesWhere = (condition: (eb2: ExpressionBuilder<any, any>) => Expression<SqlBool>) =>
      eb.exists(
        eb
          .selectFrom('event_venues as gv')
          .innerJoin('venues as v', 'v.post_id', 'gv.venue_id')
          .select('gv.event_id')
          .whereRef('gv.event_id', '=', id)
          .where(condition),
      );
    if (typeof p.geoloc === 'boolean') {
      const located = venuesWhere((e2) => e2.and([e2('v.geo_lat', 'is not', null), e2('v.geo_lng', 'is not', null)]));
      all.push(p.geoloc ? located : eb.not(located));
    }
    if (typeof p.geoloc_lat === 'number' && typeof p.geoloc_lng === 'number') {
      const radius = typeof p.geoloc_radius === 'number' ? p.geoloc_radius : ctx.settings.geoloc_radius;
      const unit = ctx.settings.geoloc_unit === 'km' ? 'km' : 'miles';
      all.push(venuesWhere((e2) => withinRadius(e2, p.geoloc_lat, p.geoloc_lng, radius, unit)));
    }
    if (p.include) all.push(eb(id, 'in', p.include));
    if (typeof p.post_parent === 'number') {
      all.push(eb(id, 'in', eb.selectFrom('posts as pp').select('pp.id').where('pp.parent_id', '=', p.post_parent)));
    }
    return eb.and(all);
  };
}

/**
 * Ordering (events.md 2.7): by start (each event's own wall clock), title relevance when searching,
 * publication date, ID; with `include` by publication date and ID only.
 */
function eventListOrder(ctx: RequestContext): Array<ReturnType<typeof sql> | string> {
  if (ctx.params.include) return ['p.date', 'p.id'];
  const search = typeof ctx.params.search === 'string' ? ctx.params.search.trim() : '';
  const relevance = search ? [sql`case when ${contains('p.title', search)} then 0 else 1 end`] : [];
  return ['e.start_date', ...relevance, 'p.date', 'p.id'];
}

/** Checking one event for a search term costs about this many index entries read (SearchTerm). */
const CHECK_COST = 3;

/** Up to this many matches, a page with a term filter is read from the filter's links. */
const LINK_DRIVEN_PAGE_MAX = 1000;

/**
 * The two queries of a list request (style.md rules 5, 6): the total, then the page with the same
 * conditions, planned knowing the total. Every filter is SQL; the query plans use indexes on both
 * backends (test/events/plans.test.ts).
 *
 * With a category or tag filter the total reads that filter's links in the window (migration 06),
 * the filter with the fewest events driving; an event carrying two of its terms counts once. When
 * they are few the page takes the same links (those starting no later than the one at the page's
 * last place), the events' rows by ID and sorts them; otherwise events are read in start order and
 * each probed, which stops at the page size. With a common search term (SQLite), the events the
 * other filters leave are counted first (remembered like totals): fewer than the index would read,
 * and the term is checked on each of them instead.
 */
export async function eventListQueries(db: Db, ctx: RequestContext, now: DateTime) {
  const paging = resolvePaging(ctx);
  const { bounds, freshUntil } = dateWindow(ctx, now);
  // The term filters and the highest ID are a few rows read by key: on the request connection they
  // cost less than a message to a worker and back (listEvents).
  const lookups = ctx.app.db;
  const [terms, search] = await Promise.all([resolveListTerms(lookups, ctx), resolveSearch(db, lookups, ctx, paging)]);
  const driving = [terms.categories, terms.tags]
    .filter((filter): filter is TermFilterIds => filter !== null && filter.ids.length > 0)
    .sort((a, b) => a.events - b.events)[0];
  const linksWith = (found: SearchTerm[]) =>
    db
      .selectFrom('event_terms as e')
      .where('e.term_id', 'in', driving!.ids)
      .where(eventListWhere(ctx, bounds, terms, found, { purpose: 'count', id: 'e.event_id', driving }));
  const countWith = (found: SearchTerm[]) => {
    if (driving)
      return linksWith(found).select((eb) =>
        (driving.ids.length > 1 ? eb.fn.count('e.event_id').distinct() : eb.fn.countAll()).as('n'),
      );
    const statuses = daySummable(ctx, terms, found);
    const featured = typeof ctx.params.featured === 'boolean' ? ctx.params.featured : undefined;
    const perDay = statuses && dayCountQuery(db, { statuses, bounds, utcSite: isUtcSite(ctx), featured });
    return (
      perDay ??
      db
        .selectFrom('events as e')
        .where(eventListWhere(ctx, bounds, terms, found, { purpose: 'count', id: 'e.post_id' }))
        .select((eb) => eb.fn.countAll().as('n'))
    );
  };
  // A common term: the events the other filters leave, counted first, decide how it is counted.
  const common = search.filter((term) => term.indexed && !term.rare);
  if (common.length && ctx.app.backend === 'sqlite') {
    const candidates = await ctx.app.counts.count(countWith([]), ctx.dataVersion);
    for (const term of common) term.countByIndex = term.matches <= CHECK_COST * candidates;
  }
  const links = driving ? linksWith(search) : null;
  const count = countWith(search);
  const pageFor = (total: number) => {
    let page = eventListSource(db).select(EVENT_COLUMNS);
    if (links && total <= LINK_DRIVEN_PAGE_MAX) {
      // In start order (not with `include`), the page lies among the links that start no later
      // than the one at its last place: only those events are read and sorted.
      const reach = paging.offset + paging.perPage;
      const last = links
        .select(['e.event_id', 'e.start_date'])
        .distinct()
        .orderBy('e.start_date')
        .limit(1)
        .offset(reach - 1);
      const upTo =
        ctx.params.include || total <= reach
          ? links
          : links.where('e.start_date', '<=', (eb) => eb.selectFrom(last.as('last')).select('last.start_date'));
      page = page.where('e.post_id', 'in', upTo.select('e.event_id'));
    } else page = page.where(eventListWhere(ctx, bounds, terms, search, PAGE));
    for (const order of eventListOrder(ctx)) page = page.orderBy(order as any);
    return page.limit(paging.perPage).offset(paging.offset);
  };
  return { paging, freshUntil, count, pageFor };
}
