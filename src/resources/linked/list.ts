import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Requester } from '../../auth/capabilities.js';
import { isTruthy } from '../../http/args.js';
import type { RequestContext } from '../../http/route.js';
import type { LinkValue } from '../../http/pagination.js';
import { modifiedConditions, modifiedLinkParams } from '../post-like/modified.js';
import { statusLinkValue } from '../post-like/status.js';
import { visibleRecords } from '../post-like/visibility.js';
import type { LinkedListInput } from './args.js';
import type { LinkedKind } from './kind.js';
import type { Where } from './repository.js';

/** Events that count for `has_events` (2.3 as decided by VO-5). */
const NOT_COUNTING_EVENT_STATUSES = ['draft', 'pending', 'trash', 'auto-draft'];

/**
 * Search fragments (2.3): runs of ASCII letters, digits and `-`; empty fragments and `0` dropped.
 * Lower-cased, so that `lower(column) like` matches case-insensitively on both backends.
 */
export function searchFragments(search: string): string[] {
  const fragments = search
    .split(/[^A-Za-z0-9-]+/)
    .filter((f) => f !== '' && f !== '0')
    .map((f) => f.toLowerCase());
  return [...new Set(fragments)];
}

/**
 * Distinct fragments a search may hold: each is one condition per searchable column, and SQLite
 * refuses a statement whose expression nests past 1,000 levels. No field of a record holds more.
 */
export const MAX_SEARCH_FRAGMENTS = 40;

/** `search`: some searchable field contains every fragment; trashed records never match (2.3). */
function searchCondition(kind: LinkedKind, eb: ExpressionBuilder<any, any>, search: string): Expression<SqlBool> {
  const fragments = searchFragments(search);
  if (!fragments.length) return sql<SqlBool>`1 = 0`;
  const columns = [
    'p.title',
    'p.description',
    'p.excerpt',
    ...kind.fields.filter((f) => f.searchable).map((f) => `a.${f.name}`),
  ];
  const perColumn = columns.map((column) =>
    eb.and(fragments.map((fragment) => eb(sql`lower(${sql.ref(column)})`, 'like', `%${fragment}%`))),
  );
  return eb.and([eb('p.status', '<>', 'trash'), eb.or(perColumn)]);
}

/** Links of the kind from events to the record `p`, joined with the event's post row as `e`. */
function linkingEvents(kind: LinkedKind, eb: ExpressionBuilder<any, any>) {
  return eb
    .selectFrom(`${kind.linkTable} as l`)
    .innerJoin('posts as e', 'e.id', 'l.event_id')
    .select(sql`1`.as('one'))
    .whereRef(`l.${kind.linkColumn}`, '=', 'p.id');
}

export interface ListFilters {
  statuses: string[];
  nowUtc: string;
}

/**
 * The one condition of a list (style.md rule 6): visibility and status (2.2, X 8), `search`,
 * `event`, `has_events` and `only_with_upcoming` (2.3), the `modified_*` bounds, all as SQL feeding
 * page and count.
 */
export function listWhere(
  kind: LinkedKind,
  user: Requester,
  input: LinkedListInput,
  { statuses, nowUtc }: ListFilters,
): Where {
  const { search, event, has_events: hasEvents } = input;
  const upcoming = isTruthy(input.only_with_upcoming);
  return (eb) => {
    const conditions: Expression<SqlBool>[] = [
      visibleRecords(user, statuses, 'p')(eb),
      ...modifiedConditions(eb, input, 'p'),
    ];
    if (search) conditions.push(searchCondition(kind, eb, search));
    if (event !== undefined) {
      conditions.push(
        eb(
          'p.id',
          'in',
          eb.selectFrom(`${kind.linkTable} as l`).select(`l.${kind.linkColumn}`).where('l.event_id', '=', event),
        ),
      );
    }
    if (hasEvents !== undefined && hasEvents !== null) {
      const linked = eb.exists(linkingEvents(kind, eb).where('e.status', 'not in', NOT_COUNTING_EVENT_STATUSES));
      conditions.push(isTruthy(hasEvents) ? linked : eb.not(linked));
    }
    if (upcoming) {
      // VO-4: every event starting now or later, not hidden from listings, the caller could list.
      conditions.push(
        eb.exists(
          linkingEvents(kind, eb)
            .innerJoin('events as ev', 'ev.post_id', 'e.id')
            .where('ev.utc_start_date', '>=', nowUtc)
            .where('ev.hide_from_listings', '=', 0)
            .where(visibleRecords(user, statuses, 'e')),
        ),
      );
    }
    return eb.and(conditions);
  };
}

/** The filters list links repeat, in the reference's order, `page` excluded (common.md 6.5, VO-3). */
export function listLinkParams(
  ctx: RequestContext,
  input: LinkedListInput,
  perPage: number,
): Array<[string, LinkValue]> {
  const given = ctx.given;
  return [
    ['per_page', perPage],
    ['search', input.search || undefined],
    ['event', input.event],
    ['has_events', given.has_events as LinkValue],
    ['only_with_upcoming', given.only_with_upcoming as LinkValue],
    ['status', statusLinkValue(ctx.user, input.status)],
    ...modifiedLinkParams(ctx),
  ];
}
