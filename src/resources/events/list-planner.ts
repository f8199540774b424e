import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DateTime } from 'luxon';
import type { Db } from '../../db/tables.js';
import type { Paging } from '../../http/pagination.js';
import type { AppContext } from '../../http/route.js';
import { shiftUtcWall } from '../../time/format.js';
import { visibleStatuses } from '../post-like/visibility.js';
import { ZONE_OFFSET_HOURS, dayCountQuery, startFloor, type DateBounds } from './day-counts.js';
import {
  TERM_FILTERS,
  eventListOrder,
  eventListWhere,
  holdsTerm,
  isUtcSite,
  listWindow,
  narrowsBeyondDates,
  narrowsBeyondDatesAndTerms,
  searchTerms,
  startOrdered,
  type ConditionForms,
  type EventListConditions,
  type ResolvedConditions,
  type SearchTerm,
  type TermFilterName,
} from './list-conditions.js';
import { EVENT_COLUMNS, eventListSource } from './repository.js';

/** What a list request is planned from. */
export interface EventListRequest {
  /** Where the total and the page are read: `AppContext.reads` (on SQLite the worker threads). */
  reads: Db;
  /** `db`, the request connection, reads the few rows the planner looks up by key. */
  app: Pick<AppContext, 'db' | 'backend' | 'counts' | 'searchShares'>;
  conditions: EventListConditions;
  paging: Paging;
  /** The `data_version` the request reads under, which totals are remembered by (`RequestContext.dataVersion`). */
  dataVersion?: number;
  now: DateTime;
}

/** A category or tag filter (events.md 2.4), weighed: the filter with the fewest events drives a total. */
interface WeighedTermFilter {
  name: TermFilterName;
  ids: number[];
  /** Published events carrying one of the terms, at most (a sum of stored counts). */
  events: number;
}

/** A filter sent empty (JSON `null`) names no term. */
async function weighTermFilters(db: Db, list: EventListConditions): Promise<WeighedTermFilter[]> {
  const weigh = async (name: TermFilterName): Promise<WeighedTermFilter> => {
    const ids = list[name] ?? [];
    if (!ids.length) return { name, ids, events: 0 };
    const row = await db
      .selectFrom('terms')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('event_count'), eb.lit(0)).as('events'))
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    return { name, ids, events: Number(row.events) };
  };
  return Promise.all(TERM_FILTERS.filter((name) => list[name] !== undefined).map(weigh));
}

/**
 * How a search term is read. A term of three characters or more can be looked up in a trigram
 * index (SQLite: full-text, migration 05; PostgreSQL: pg_trgm, migration 07). On SQLite it is
 * `rare` when few records are estimated to hold it (`matches`), so the lookup drives the query,
 * while a common term is checked on each event read in start order, which stops at the page size.
 * A count reads the index unless the other filters leave fewer events than `COUNT_CHECK_COST`
 * times its matches (`countByIndex`). PostgreSQL's planner weighs the lookup itself (every indexed
 * term is `rare` there).
 */
interface TermPlan {
  indexed: boolean;
  rare: boolean;
  countByIndex: boolean;
  /** Records estimated to hold the term (SQLite, `sampledShare`). */
  matches: number;
}

/** Records read to estimate how many hold a search term: the newest ones. */
const SEARCH_SAMPLE = 500;

/**
 * The share of records that hold a term: of the newest `SEARCH_SAMPLE` records (0 when none of
 * them does). Times the records, it estimates the matches, which only choose between two plans
 * with the same results. The sample reads a bounded number of records whatever the size of the
 * database, where the index's own count of each trigram (its vocabulary) walks the trigram's whole
 * list, slow once its pages have left memory (docs/performance.md). Shares are kept in the app's
 * `SearchShares` (db/search-shares.ts).
 */
async function sampledShare(db: Db, text: string): Promise<number> {
  const newest = db
    .selectFrom('posts')
    .select(['title', 'excerpt', 'description'])
    .orderBy('id', 'desc')
    .limit(SEARCH_SAMPLE);
  const row = await db
    .selectFrom(newest.as('s'))
    .select((eb) => [
      eb.fn.countAll<number>().as('seen'),
      eb.fn.sum<number>(sql`case when ${holdsTerm(eb, 's', text)} then 1 else 0 end`).as('hits'),
    ])
    .executeTakeFirstOrThrow();
  const seen = Number(row.seen);
  return seen ? Number(row.hits ?? 0) / seen : 0;
}

/**
 * Checking one event for a search term costs about this many index entries read: in a page read in
 * start order, and in a count (measured: docs/performance.md).
 */
const PAGE_CHECK_COST = 2;
const COUNT_CHECK_COST = 3;

/**
 * Reading events in start order until the page is full checks about `wanted × records / matches`
 * of them; the index lookup reads every match once. The lookup is the cheaper when
 * `matches² ≤ PAGE_CHECK_COST × wanted × records`.
 */
async function planSearch(request: EventListRequest, terms: SearchTerm[]): Promise<Map<SearchTerm, TermPlan>> {
  const { app, paging } = request;
  const plans = new Map<SearchTerm, TermPlan>();
  for (const term of terms)
    plans.set(term, {
      indexed: [...term.text].length >= 3,
      rare: app.backend === 'postgres',
      countByIndex: true,
      matches: Infinity,
    });
  const indexed = [...plans].filter(([, plan]) => plan.indexed);
  if (!indexed.length || app.backend === 'postgres') return plans;
  const [last, shares] = await Promise.all([
    app.db
      .selectFrom('posts')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst(),
    Promise.all(
      indexed.map(([term]) => app.searchShares.shareOf(term.text, (text) => sampledShare(request.reads, text))),
    ),
  ]);
  const records = Number(last?.id ?? 0);
  const budget = PAGE_CHECK_COST * (paging.offset + paging.perPage) * records;
  indexed.forEach(([, plan], i) => {
    plan.matches = Math.ceil(shares[i]! * records);
    plan.rare = plan.matches * plan.matches <= budget;
  });
  return plans;
}

/** A list request, planned. */
interface ListPlan {
  request: EventListRequest;
  resolved: ResolvedConditions;
  utcSite: boolean;
  /** How each search term is read. */
  search: Map<SearchTerm, TermPlan>;
  /** The term filter whose links a total reads: the one with the fewest events. */
  driving?: WeighedTermFilter;
}

/**
 * Every bound implies one on the local start, which the listing index is ordered by: an event
 * ends no earlier than it starts (decisions.md E27), so an upper bound on the end caps the start
 * too; UTC bounds loosen by the zone offsets (`ZONE_OFFSET_HOURS`). The page is then read in start
 * order between the two and stops at the page size, and a count reads only the window.
 */
function impliedStart(eb: ExpressionBuilder<any, any>, bounds: DateBounds, utcSite: boolean) {
  const lower = startFloor(bounds);
  const upper = [bounds.starts_before, bounds.end_date, bounds.ends_before].filter((b) => b !== undefined).sort()[0];
  const all: Expression<SqlBool>[] = [];
  if (utcSite && lower !== undefined) all.push(eb('e.start_date', '>=', shiftUtcWall(lower, ZONE_OFFSET_HOURS.least)));
  if (upper !== undefined)
    all.push(eb('e.start_date', '<=', utcSite ? shiftUtcWall(upper, ZONE_OFFSET_HOURS.most) : upper));
  return all;
}

/**
 * The events holding a term, from a trigram index, which gives the same matches as the substring
 * test (case-insensitive, within one column); a count reads every match either way, a page only
 * until it is full. On SQLite the records still queued for the full-text index (db/search-queue.ts)
 * are tested directly; CROSS JOIN keeps SQLite reading the short queue first rather than every
 * record. On PostgreSQL the pg_trgm indexes serve the substring test itself.
 */
function searchLookup(eb: ExpressionBuilder<any, any>, plan: ListPlan, id: string, text: string) {
  if (plan.request.app.backend === 'postgres')
    return eb(
      id,
      'in',
      eb
        .selectFrom('posts as sp')
        .select('sp.id')
        .where(holdsTerm(eb, 'sp', text)),
    );
  return eb.or([
    sql<SqlBool>`${sql.ref(id)} in (select rowid from post_search where post_search match ${`"${text.replace(/"/g, '""')}"`})`,
    eb(
      id,
      'in',
      eb
        .selectFrom('post_search_queue as q')
        .crossJoin('posts as sp')
        .whereRef('sp.id', '=', 'q.id')
        .select('q.id')
        .where(holdsTerm(eb, 'sp', text)),
    ),
  ]);
}

/**
 * The forms of the conditions for a page (`events as e`, read in start order) or a count: of
 * `events as e`, or of the driving term filter's links, `event_terms as e`, whose copies of the
 * listing columns have the same names (migration 06).
 *
 * Term filters besides the driving one: on a page read in start order each event is probed by the
 * link table's primary key, so the read stops at the page size. A count over the driving filter's
 * links does the same on SQLite, reading the other filter's links of those events only instead of
 * every link of that filter. PostgreSQL hashes the set of the other filter's events faster than it
 * probes an index (docs/performance.md), so there a count checks each row against that set (its
 * `+`, a no-op there, is the form measured).
 */
function conditionForms(plan: ListPlan, purpose: 'page' | 'count', driving?: WeighedTermFilter): ConditionForms {
  const { backend } = plan.request.app;
  const { utcSite } = plan;
  const id = driving ? 'e.event_id' : 'e.post_id';
  return {
    id,
    met: driving?.name,
    // For a page the UTC columns are compared as expressions so that no index on them competes
    // with the start-date index, which serves the order (impliedStart, eventListSource); a count
    // has no order, and plain columns are read faster from the index.
    compared: utcSite && purpose === 'page' ? (column) => sql`${sql.ref(column)} || ''` : undefined,
    implied: (eb) => impliedStart(eb, plan.resolved.bounds, utcSite),
    lookup: (eb, term) => {
      const termPlan = plan.search.get(term);
      const looked = termPlan?.indexed && (purpose === 'count' ? termPlan.countByIndex : termPlan.rare);
      return looked ? searchLookup(eb, plan, id, term.text) : undefined;
    },
    linked:
      purpose === 'count' && backend === 'postgres'
        ? (eb, ids) =>
            eb(
              sql`+${sql.ref(id)}`,
              'in',
              eb.selectFrom('event_terms as et').select('et.event_id').where('et.term_id', 'in', ids),
            )
        : undefined,
  };
}

/**
 * The statuses a count may sum per day (day-counts.ts): when nothing but the dates, `featured`
 * and a visibility by status alone narrows the list.
 */
function dayCountStatuses(list: EventListConditions, resolved: ResolvedConditions): string[] | null {
  return narrowsBeyondDates(list, resolved) ? null : visibleStatuses(list.user, list.statuses);
}

/** The driving filter's links that meet every other condition. */
function drivingLinks(plan: ListPlan, resolved: ResolvedConditions, driving: WeighedTermFilter) {
  return plan.request.reads
    .selectFrom('event_terms as e')
    .where('e.term_id', 'in', driving.ids)
    .where(eventListWhere(plan.request.conditions, resolved, conditionForms(plan, 'count', driving)));
}

/**
 * The total, as one query with a column `n`: over the driving filter's links (an event carrying
 * two of its terms counts once), else summed per day when it can be, else over the events.
 */
function countQuery(plan: ListPlan, resolved: ResolvedConditions) {
  const { reads, conditions: list } = plan.request;
  const { driving } = plan;
  if (driving)
    return drivingLinks(plan, resolved, driving).select((eb) =>
      (driving.ids.length > 1 ? eb.fn.count('e.event_id').distinct() : eb.fn.countAll()).as('n'),
    );
  const statuses = dayCountStatuses(list, resolved);
  const perDay =
    statuses &&
    dayCountQuery(reads, { statuses, bounds: resolved.bounds, utcSite: plan.utcSite, featured: list.featured });
  return (
    perDay ??
    reads
      .selectFrom('events as e')
      .where(eventListWhere(list, resolved, conditionForms(plan, 'count')))
      .select((eb) => eb.fn.countAll().as('n'))
  );
}

/**
 * A common term (SQLite): the events the other filters leave, counted first (remembered like
 * totals), decide how it is counted: when the index would read more than checking each of them
 * costs, the term is checked on each of them instead.
 */
async function planCommonTerms(plan: ListPlan): Promise<void> {
  const { app, dataVersion } = plan.request;
  const common = [...plan.search.values()].filter((termPlan) => termPlan.indexed && !termPlan.rare);
  if (!common.length || app.backend !== 'sqlite') return;
  const candidates = await app.counts.count(countQuery(plan, { ...plan.resolved, search: [] }), dataVersion);
  for (const termPlan of common) termPlan.countByIndex = termPlan.matches <= COUNT_CHECK_COST * candidates;
}

/** Up to this many matches, a page with a term filter is read from the filter's links. */
const LINK_DRIVEN_PAGE_MAX = 1000;

/**
 * From these offsets on, a page is found by its first start (`seekStart`): skipping a row of a list
 * read in start order costs its `posts` row, and with a term filter a probe of its links besides.
 */
const SEEK_MIN_OFFSET = { dates: 1000, terms: 200 };

/**
 * What a deep page is sought among, in the listing index's start order: the events, for a list
 * narrowed by dates, status and `featured` alone; the driving filter's links, for one narrowed by
 * term filters besides (`distinct`: an event may carry two of the filter's terms). Null for any
 * other list.
 */
function seekSource(plan: ListPlan, total: number) {
  const { reads, conditions: list, paging } = plan.request;
  if (!startOrdered(list)) return null;
  const { driving } = plan;
  if (driving) {
    // A page of few links is read from them (`pageQuery`).
    if (paging.offset < SEEK_MIN_OFFSET.terms || total <= LINK_DRIVEN_PAGE_MAX) return null;
    if (narrowsBeyondDatesAndTerms(list, plan.resolved.search)) return null;
    return { rows: () => drivingLinks(plan, plan.resolved, driving), distinct: driving.ids.length > 1 };
  }
  if (paging.offset < SEEK_MIN_OFFSET.dates || dayCountStatuses(list, plan.resolved) === null) return null;
  // The page's forms keep SQLite on the start-date index. PostgreSQL, misjudging how many rows
  // their expressions leave, would sort the whole window instead of reading that index backwards.
  const forms = conditionForms(plan, plan.request.app.backend === 'postgres' ? 'count' : 'page');
  const rows = () => reads.selectFrom('events as e').where(eventListWhere(list, plan.resolved, forms));
  return { rows, distinct: false };
}

/** Starts read before a sought page's first: ties with it among them are counted there, not by a query. */
const SEEK_TIES = 100;

/**
 * Where a deep page of a list narrowed by dates, status, `featured` and term filters alone begins.
 * Skipping the events before it in the page's order reads each one's `posts` row, to order those
 * starting at the same time (and with a term filter, probes each one's links); their start dates
 * alone are in the listing indexes. So the start of the page's first event is read from the index,
 * from the nearer end of the list, with the starts of the events just before it: the page is read
 * from that start, past the events before it that start at the same time. When they are more than
 * those read, the events starting before it are counted instead. Null for any other page, or when
 * the list no longer holds `total` events.
 */
async function seekStart(plan: ListPlan, total: number): Promise<{ from: string; skip: number } | null> {
  const { paging } = plan.request;
  const source = seekSource(plan, total);
  if (!source) return null;
  const fromEnd = paging.offset > total / 2;
  const back = Math.min(SEEK_TIES, paging.offset);
  const starts = source.distinct
    ? source.rows().select(['e.event_id', 'e.start_date']).distinct()
    : source.rows().select('e.start_date');
  const read = await starts
    .orderBy('e.start_date', fromEnd ? 'desc' : 'asc')
    .limit(back + 1)
    .offset(fromEnd ? total - 1 - paging.offset : paging.offset - back)
    .execute();
  if (read.length !== back + 1) return null;
  // The page's first event's start, then those of the events before it, nearest first.
  const [first, ...before] = fromEnd ? read : read.reverse();
  const at = first!.start_date;
  if (at === null) return null;
  const ties = before.findIndex((row) => row.start_date !== at);
  if (ties >= 0 || back === paging.offset) return { from: at, skip: ties >= 0 ? ties : back };
  const earlier = await source
    .rows()
    .where('e.start_date', '<', at)
    .select((eb) => (source.distinct ? eb.fn.count('e.event_id').distinct() : eb.fn.countAll()).as('n'))
    .executeTakeFirstOrThrow();
  const skip = paging.offset - Number(earlier.n);
  return skip >= 0 ? { from: at, skip } : null;
}

/** The page's rows, planned knowing the total (`pageQuery`, `seekStart`). */
async function pageRows(plan: ListPlan, total: number) {
  const seek = await seekStart(plan, total);
  const page = pageQuery(plan, total);
  return (seek ? page.where('e.start_date', '>=', seek.from).offset(seek.skip) : page).execute();
}

/**
 * The page, planned knowing the total. Read from the driving filter's links when they are few: in
 * start order (not with `include`) the page lies among the links that start no later than the one
 * at its last place, and only those events are read and sorted.
 */
function pageQuery(plan: ListPlan, total: number) {
  const { reads, conditions: list, paging } = plan.request;
  let page = eventListSource(reads).select(EVENT_COLUMNS);
  if (plan.driving && total <= LINK_DRIVEN_PAGE_MAX) {
    const links = drivingLinks(plan, plan.resolved, plan.driving);
    const reach = paging.offset + paging.perPage;
    const last = links
      .select(['e.event_id', 'e.start_date'])
      .distinct()
      .orderBy('e.start_date')
      .limit(1)
      .offset(reach - 1);
    const upTo =
      !startOrdered(list) || total <= reach
        ? links
        : links.where('e.start_date', '<=', (eb) => eb.selectFrom(last.as('last')).select('last.start_date'));
    page = page.where('e.post_id', 'in', upTo.select('e.event_id'));
  } else page = page.where(eventListWhere(list, plan.resolved, conditionForms(plan, 'page')));
  for (const order of eventListOrder(list)) page = page.orderBy(order as any);
  return page.limit(paging.perPage).offset(paging.offset);
}

/**
 * The two queries of a list request (style.md rules 5, 6): the total, then the page with the same
 * conditions (list-conditions.ts), planned knowing the total. Which indexes serve the conditions
 * and in which order rows are read is chosen per request from a few statistics: the term filters'
 * stored counts, a sample of records for a search term, the total. Every choice reads the same
 * events; the query plans use indexes on both backends (test/events/plans.test.ts).
 *
 * With a category or tag filter the total reads that filter's links in the window (migration 06),
 * the filter with the fewest events driving; an event carrying two of its terms counts once. When
 * they are few the page takes the same links (those starting no later than the one at the page's
 * last place), the events' rows by ID and sorts them; otherwise events are read in start order and
 * each probed, which stops at the page size. With a common search term (SQLite), the events the
 * other filters leave are counted first (remembered like totals): fewer than the index would read,
 * and the term is checked on each of them instead.
 */
export async function eventListQueries(request: EventListRequest) {
  const list = request.conditions;
  const { bounds, freshUntil } = listWindow(list, request.now);
  const terms = searchTerms(list.search);
  // The term filters and the highest ID are a few rows read by key: on the request connection they
  // cost less than a message to a worker and back (listEvents).
  const [filters, search] = await Promise.all([weighTermFilters(request.app.db, list), planSearch(request, terms)]);
  const resolved: ResolvedConditions = {
    bounds,
    search: terms,
    terms: {
      categories: filters.find((f) => f.name === 'categories')?.ids ?? null,
      tags: filters.find((f) => f.name === 'tags')?.ids ?? null,
    },
  };
  const driving = filters.filter((filter) => filter.ids.length > 0).sort((a, b) => a.events - b.events)[0];
  const plan: ListPlan = { request, resolved, utcSite: isUtcSite(list), search, driving };
  await planCommonTerms(plan);
  const count = countQuery(plan, resolved);
  return {
    bounds,
    freshUntil,
    count,
    /** The page's query (its plan is tested), without `seekStart`'s narrowing. */
    pageFor: (total: number) => pageQuery(plan, total),
    rowsFor: (total: number) => pageRows(plan, total),
  };
}
