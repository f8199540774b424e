import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DateTime } from 'luxon';
import type { Requester } from '../../auth/capabilities.js';
import { formatWall } from '../../time/format.js';
import { parseDateInput, readsClock } from '../../time/parse.js';
import { luxonZone, normalizeZone } from '../../time/zone.js';
import { modifiedConditions, modifiedOrder, type ModifiedInput } from '../post-like/modified.js';
import { visibleRecords } from '../post-like/visibility.js';
import { boundConditions, listColumns, type DateBounds } from './day-counts.js';

/** What the conditions read: the list's parameters once validated (events.md 2.1), with the caller and settings. */
export interface EventListConditions {
  user: Requester;
  /** The given `status`, or the caller's default (2.3). */
  statuses: string[];
  /** The site's time zone: the clock the date bounds are read on (2.2.1, E12). */
  timezone: string;
  strict_dates: boolean;
  /** Date bounds as given (2.2.6); `null` counts as not given. */
  start_date?: GivenDate | null;
  end_date?: GivenDate | null;
  starts_before?: GivenDate | null;
  starts_after?: GivenDate | null;
  ends_before?: GivenDate | null;
  ends_after?: GivenDate | null;
  search?: string;
  /** The terms the category and tag filters name (2.4), as their arguments resolved them; `null`: sent empty. */
  categories?: number[] | null;
  tags?: number[] | null;
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  /** The given radius, else the `geoloc_radius` setting (E19). */
  geoloc_radius: number;
  /** The `geoloc_unit` setting (E19). */
  geoloc_unit: 'km' | 'miles';
  include?: number[];
  post_parent?: number;
  /** `modified_after`, `modified_before`, `orderby` (post-like/modified.ts). */
  modified?: ModifiedInput;
}

/** A date bound as given: the instant it names, read in UTC, and whether it follows the clock ("tomorrow"). */
export interface GivenDate {
  at: DateTime;
  readsClock: boolean;
}

/** A value of the date grammar (common.md 5.5), validated in UTC, so that it names an instant there. */
export function givenDate(value: unknown): GivenDate {
  return { at: parseDateInput(value, 'UTC')!, readsClock: readsClock(value) };
}

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** The date bounds of a request, and until when they stay what they are (ms since the epoch). */
export interface ListWindow {
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
export function listWindow(list: EventListConditions, now: DateTime = DateTime.utc()): ListWindow {
  const site = luxonZone(list.timezone);
  const strict = list.strict_dates;
  let freshUntil: number | undefined = Infinity;
  const bound = (name: keyof DateBounds): string | undefined => {
    const given = list[name];
    if (given === undefined || given === null) return undefined;
    if (given.readsClock) freshUntil = undefined;
    const { at } = given;
    if (strict) return formatWall(at.setZone(site));
    return `${at.toUTC().toISODate()} ${name === 'start_date' ? '00:00:00' : '23:59:59'}`;
  };
  const bounds: DateBounds = {};
  for (const name of RELATIVE) bounds[name] = bound(name);
  if (list.include) return { bounds, freshUntil };
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

/** On a UTC site bounds meet the UTC columns; elsewhere each event's own wall clock (E12). */
export const isUtcSite = (list: EventListConditions) => normalizeZone(list.timezone) === 'UTC';

/** A search term (events.md 2.5): a word or "quoted phrase", possibly `-excluded`. */
export interface SearchTerm {
  text: string;
  exclude: boolean;
}

/**
 * WordPress searches for the whole string as one term when it splits into more terms than this
 * (WP_Query::parse_search).
 */
const MAX_SEARCH_TERMS = 9;

export function searchTerms(search: string | undefined): SearchTerm[] {
  if (search === undefined || search.trim() === '') return [];
  const out: SearchTerm[] = [];
  for (const m of search.matchAll(/(-?)"([^"]*)"|(-?)(\S+)/g)) {
    const text = (m[2] ?? m[4] ?? '').trim();
    if (text) out.push({ text, exclude: (m[1] ?? m[3]) === '-' });
  }
  return out.length > MAX_SEARCH_TERMS ? [{ text: search.trim(), exclude: false }] : out;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function contains(column: string, text: string) {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${likePattern(text)} escape '\\'`;
}

/** The record `alias` holds the term: in its title, excerpt or description, in any case (2.5). */
export function holdsTerm(eb: ExpressionBuilder<any, any>, alias: string, text: string): Expression<SqlBool> {
  return eb.or(['title', 'excerpt', 'description'].map((c) => contains(`${alias}.${c}`, text)));
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
    const number = (value: number) => sql`cast(${value} as double precision)`;
    const [vLat, vLng] = [sql.ref('v.geo_lat'), sql.ref('v.geo_lng')];
    const halfSineSquared = (degrees: Expression<unknown>) => sql`power(sin(radians(${degrees}) / 2), 2)`;
    const latTerm = halfSineSquared(sql`${vLat} - ${number(lat)}`);
    const lngTerm = halfSineSquared(sql`${vLng} - ${number(lng)}`);
    conditions.push(
      sql<SqlBool>`${latTerm} + ${number(cosCentre)} * cos(radians(${vLat})) * ${lngTerm} <= ${number(threshold)}`,
    );
  }
  return eb.and(conditions);
}

/** The category and tag filters (2.4), in the order their conditions are written. */
export const TERM_FILTERS = ['categories', 'tags'] as const;
export type TermFilterName = (typeof TERM_FILTERS)[number];

/** What the conditions need looked up before the query. */
export interface ResolvedConditions {
  bounds: DateBounds;
  search: SearchTerm[];
  /** The term IDs each filter names, descendants included (2.4, `resolveTermFilter`); `null` when not given. */
  terms: Record<TermFilterName, number[] | null>;
}

/**
 * How the conditions are written, as list-planner.ts chooses for the indexes it wants used. Each
 * form matches the same events as the default one.
 */
export interface ConditionForms {
  /** The event ID column of the rows read: `e.post_id` of `events as e`, or `e.event_id` of a term filter's links. */
  id: string;
  /** The term filter the rows read already meet (they are its links): its condition is left out. */
  met?: TermFilterName;
  /** How a date column is compared; by default as the column itself. */
  compared?: (column: string) => Expression<unknown>;
  /** Conditions the others imply, written so that an index can serve them. */
  implied?: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>[];
  /** The events holding a search term, looked up in an index; `undefined` when each event is checked instead. */
  lookup?: (eb: ExpressionBuilder<any, any>, term: SearchTerm) => Expression<SqlBool> | undefined;
  /** A term filter's condition; by default each event's links are probed by key. */
  linked?: (eb: ExpressionBuilder<any, any>, ids: number[]) => Expression<SqlBool>;
}

/** `search` (2.5): every term held, every `-term` not; terms not looked up are checked together on the record. */
function searchConditions(eb: ExpressionBuilder<any, any>, terms: SearchTerm[], forms: ConditionForms) {
  const all: Expression<SqlBool>[] = [];
  const checked: Expression<SqlBool>[] = [];
  for (const term of terms) {
    const found = forms.lookup?.(eb, term);
    if (found) all.push(term.exclude ? eb.not(found) : found);
    else checked.push(term.exclude ? eb.not(holdsTerm(eb, 'sp', term.text)) : holdsTerm(eb, 'sp', term.text));
  }
  if (checked.length)
    all.push(
      eb.exists(eb.selectFrom('posts as sp').select('sp.id').whereRef('sp.id', '=', forms.id).where(eb.and(checked))),
    );
  return all;
}

/** `categories`, `tags` (2.4): linked to any of the filter's terms; a filter naming none matches nothing. */
function termConditions(eb: ExpressionBuilder<any, any>, resolved: ResolvedConditions, forms: ConditionForms) {
  const all: Expression<SqlBool>[] = [];
  for (const name of TERM_FILTERS) {
    const ids = resolved.terms[name];
    if (ids === null || name === forms.met) continue;
    if (!ids.length) all.push(sql<SqlBool>`1 = 0`);
    else
      all.push(
        forms.linked?.(eb, ids) ??
          eb.exists(
            eb
              .selectFrom('event_terms as et')
              .select('et.event_id')
              .whereRef('et.event_id', '=', forms.id)
              .where('et.term_id', 'in', ids),
          ),
      );
  }
  return all;
}

/** `venue`, `organizer` (2.4, E31): any of the event's venues, any of its organizers. */
function linkedConditions(eb: ExpressionBuilder<any, any>, list: EventListConditions, id: string) {
  const all: Expression<SqlBool>[] = [];
  if (list.venue)
    all.push(
      eb(id, 'in', eb.selectFrom('event_venues as ev').select('ev.event_id').where('ev.venue_id', 'in', list.venue)),
    );
  if (list.organizer)
    all.push(
      eb(
        id,
        'in',
        eb.selectFrom('event_organizers as eo').select('eo.event_id').where('eo.organizer_id', 'in', list.organizer),
      ),
    );
  return all;
}

/** `geoloc`, and `geoloc_lat` with `geoloc_lng` (decisions.md E19): by the coordinates of any of the event's venues. */
function geolocConditions(eb: ExpressionBuilder<any, any>, list: EventListConditions, id: string) {
  const all: Expression<SqlBool>[] = [];
  const venuesWhere = (condition: (eb2: ExpressionBuilder<any, any>) => Expression<SqlBool>) =>
    eb.exists(
      eb
        .selectFrom('event_venues as gv')
        .innerJoin('venues as v', 'v.post_id', 'gv.venue_id')
        .select('gv.event_id')
        .whereRef('gv.event_id', '=', id)
        .where(condition),
    );
  if (list.geoloc !== undefined) {
    const located = venuesWhere((e2) => e2.and([e2('v.geo_lat', 'is not', null), e2('v.geo_lng', 'is not', null)]));
    all.push(list.geoloc ? located : eb.not(located));
  }
  const { geoloc_lat: lat, geoloc_lng: lng } = list;
  if (lat !== undefined && lng !== undefined)
    all.push(venuesWhere((e2) => withinRadius(e2, lat, lng, list.geoloc_radius, list.geoloc_unit)));
  return all;
}

/**
 * Every condition of `GET /events` as one SQL expression over the rows `e` (style.md rule 6): the
 * page query and the count share it, and the count reads no other table unless a filter needs
 * one. Visibility per caller (decisions.md X 8) on the status and author mirrors,
 * `hide_from_listings` always left out (events.md 2.6). Which indexes serve the conditions, and so
 * the forms they are written in, is list-planner.ts's choice (`forms`).
 */
export function eventListWhere(list: EventListConditions, resolved: ResolvedConditions, forms: ConditionForms) {
  const { id } = forms;
  const columns = listColumns(isUtcSite(list));
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [
      visibleRecords(list.user, list.statuses, 'e')(eb),
      eb('e.hide_from_listings', '=', 0),
      // The bounds (2.2.1), then what they imply for the planner's indexes.
      ...boundConditions(eb, resolved.bounds, columns, forms.compared),
      ...(forms.implied?.(eb) ?? []),
      ...searchConditions(eb, resolved.search, forms),
      ...termConditions(eb, resolved, forms),
      ...linkedConditions(eb, list, id),
    ];
    // `featured` (2.4); `include` and `post_parent` (2.5, E17).
    if (list.featured !== undefined) all.push(eb('e.featured', '=', list.featured ? 1 : 0));
    all.push(...geolocConditions(eb, list, id));
    if (list.include) all.push(eb(id, 'in', list.include));
    if (list.post_parent !== undefined)
      all.push(eb(id, 'in', eb.selectFrom('posts as pp').select('pp.id').where('pp.parent_id', '=', list.post_parent)));
    const modified = (pm: ExpressionBuilder<any, any>) => modifiedConditions(pm, list.modified ?? {}, 'pm');
    if (modified(eb).length)
      all.push(
        eb(
          id,
          'in',
          eb
            .selectFrom('posts as pm')
            .select('pm.id')
            .where((pm) => pm.and(modified(pm))),
        ),
      );
    return eb.and(all);
  };
}

/**
 * Whether a condition of `eventListWhere` other than visibility, the dates and `featured` applies:
 * without one, a total may be summed per day (day-counts.ts).
 */
export function narrowsBeyondDates(list: EventListConditions, resolved: ResolvedConditions): boolean {
  return (
    resolved.terms.categories !== null ||
    resolved.terms.tags !== null ||
    narrowsBeyondDatesAndTerms(list, resolved.search)
  );
}

/** As `narrowsBeyondDates`, the category and tag filters left aside. */
export function narrowsBeyondDatesAndTerms(list: EventListConditions, search: SearchTerm[]): boolean {
  return (
    search.length > 0 ||
    Boolean(list.venue) ||
    Boolean(list.organizer) ||
    list.geoloc !== undefined ||
    (list.geoloc_lat !== undefined && list.geoloc_lng !== undefined) ||
    Boolean(list.include) ||
    list.post_parent !== undefined ||
    Boolean(list.modified?.modified_after || list.modified?.modified_before)
  );
}

/** Whether the list is ordered by each event's start first (`eventListOrder`): not with `include` or by `modified`. */
export function startOrdered(list: EventListConditions): boolean {
  return !list.include && list.modified?.orderby !== 'modified';
}

/**
 * Ordering (events.md 2.7): by start (each event's own wall clock), title relevance when searching,
 * publication date, ID; with `include` by publication date and ID only; with `orderby=modified` by
 * the last change.
 */
export function eventListOrder(list: EventListConditions): Array<ReturnType<typeof sql> | string> {
  const byModified = modifiedOrder(list.modified ?? {}, 'p');
  if (byModified) return byModified;
  if (list.include) return ['p.date', 'p.id'];
  const search = list.search?.trim() ?? '';
  const relevance = search ? [sql`case when ${contains('p.title', search)} then 0 else 1 end`] : [];
  return ['e.start_date', ...relevance, 'p.date', 'p.id'];
}
