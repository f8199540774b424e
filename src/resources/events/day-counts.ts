import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/tables.js';
import { shiftUtcWall } from '../../time/format.js';

/** The six date bounds of the list as wall-clock strings on the list's clock (events.md 2.2). */
export interface DateBounds {
  start_date?: string;
  end_date?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
}

/** The tightest bound limiting the start from below (`start_date` or `starts_after`), if any. */
export function startFloor(bounds: DateBounds): string | undefined {
  return [bounds.start_date, bounds.starts_after]
    .filter((bound) => bound !== undefined)
    .sort()
    .pop();
}

type Side = 'start' | 'end';
type Comparison = '>=' | '>' | '<=' | '<';

/** What each bound compares, and how (events.md 2.2.3). */
const BOUND_TESTS: ReadonlyArray<readonly [keyof DateBounds, Side, Comparison]> = [
  ['start_date', 'start', '>='],
  ['end_date', 'end', '<='],
  ['starts_after', 'start', '>'],
  ['starts_before', 'start', '<'],
  ['ends_after', 'end', '>'],
  ['ends_before', 'end', '<'],
];

/** The start and end columns a list compares: UTC on a site in UTC, else each event's own wall clock (E12). */
export function listColumns(utcSite: boolean): Record<Side, string> {
  return utcSite ? { start: 'e.utc_start_date', end: 'e.utc_end_date' } : { start: 'e.start_date', end: 'e.end_date' };
}

/** How far a wall clock can be from UTC, in hours: zone offsets run from -12 h to +14 h. */
export const ZONE_OFFSET_HOURS = { least: -12, most: 14 } as const;

/** Each given bound as a condition on its column; `compared` is what the column is compared as. */
export function boundConditions(
  eb: ExpressionBuilder<any, any>,
  bounds: DateBounds,
  columns: Record<Side, string>,
  compared: (column: string) => Expression<unknown> = (column) => sql.ref(column),
): Expression<SqlBool>[] {
  return BOUND_TESTS.filter(([name]) => bounds[name] !== undefined).map(([name, side, comparison]) =>
    eb(compared(columns[side]), comparison, bounds[name]!),
  );
}

const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const FIRST_SECOND = '00:00:00';
const LAST_SECOND = '23:59:59';
const dayAfter = (day: string) => shiftUtcWall(`${day} ${FIRST_SECOND}`, 24).slice(0, 10);
const dayBefore = (day: string) => shiftUtcWall(`${day} ${FIRST_SECOND}`, -24).slice(0, 10);

/**
 * The days of one side (start or end) a window takes whole, `from`–`to` (either open), and the
 * days it takes only in part: a bound inside a day leaves that day to an exact count.
 */
interface DaySpan {
  from?: string;
  to?: string;
  partial: Set<string>;
}

function daySpans(bounds: DateBounds): Record<Side, DaySpan> | null {
  const spans: Record<Side, DaySpan> = { start: { partial: new Set() }, end: { partial: new Set() } };
  for (const [name, side, comparison] of BOUND_TESTS) {
    const value = bounds[name];
    if (value === undefined) continue;
    const day = value.slice(0, 10);
    // The first and last days of the calendar have no day before or after them to stop at.
    if (!WALL.test(value) || day <= '0000-01-01' || day >= '9999-12-31') return null;
    const span = spans[side];
    const time = value.slice(11);
    if (comparison === '>=' || comparison === '>') {
      const whole = comparison === '>=' && time === FIRST_SECOND;
      const from = whole ? day : dayAfter(day);
      if (!whole && !(comparison === '>' && time === LAST_SECOND)) span.partial.add(day);
      if (span.from === undefined || from > span.from) span.from = from;
    } else {
      const whole = comparison === '<=' && time === LAST_SECOND;
      const to = whole ? day : dayBefore(day);
      if (!whole && !(comparison === '<' && time === FIRST_SECOND)) span.partial.add(day);
      if (span.to === undefined || to < span.to) span.to = to;
    }
  }
  return spans;
}

export interface DayCountInput {
  /** Statuses the caller may read on every record (visibility by status alone). */
  statuses: string[];
  bounds: DateBounds;
  utcSite: boolean;
  featured?: boolean;
}

/**
 * The total of a list filtered by dates, status and `featured` alone, from `event_day_counts`
 * (migration 08; since migration 13 a key may be several rows, all summed), as one query with a
 * column `n`: the pairs of days wholly inside the window are summed; the events on a day a bound
 * cuts through are counted one by one from the indexes. It reads a number of rows that grows with
 * the window's length in days, not with the events in it.
 * `null` when a bound is not a plain wall-clock time (the caller counts the events instead).
 */
export function dayCountQuery(db: Db, input: DayCountInput) {
  const spans = daySpans(input.bounds);
  if (!spans) return null;
  const columns = listColumns(input.utcSite);
  // Both values when not filtered: the key's next column, the start day, is then read by ranges.
  const featured = input.featured === undefined ? [0, 1] : [input.featured ? 1 : 0];

  const whole = db
    .selectFrom('event_day_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('clock', '=', input.utcSite ? 'utc' : 'local')
    .where('status', 'in', input.statuses)
    .where('hide_from_listings', '=', 0)
    .where('featured', 'in', featured)
    .where((eb) => {
      const all: Expression<SqlBool>[] = [];
      // An event ends no earlier than it starts (decisions.md E27): the end's last day bounds the
      // start's range too, which the key reads in order.
      const startTo = [spans.start.to, spans.end.to].filter((day) => day !== undefined).sort()[0];
      if (spans.start.from !== undefined) all.push(eb('start_day', '>=', spans.start.from));
      if (startTo !== undefined) all.push(eb('start_day', '<=', startTo));
      if (spans.end.from !== undefined) all.push(eb('end_day', '>=', spans.end.from));
      if (spans.end.to !== undefined) all.push(eb('end_day', '<=', spans.end.to));
      for (const side of ['start', 'end'] as const) {
        const partial = [...spans[side].partial];
        if (partial.length) all.push(eb(side === 'start' ? 'start_day' : 'end_day', 'not in', partial));
      }
      return eb.and(all);
    });

  const inDay = (eb: ExpressionBuilder<any, any>, column: string, day: string) =>
    eb.and([eb(column, '>=', `${day} ${FIRST_SECOND}`), eb(column, '<=', `${day} ${LAST_SECOND}`)]);
  /** The events of one cut day: every condition of the list, one by one. */
  const cut = (side: Side, day: string) =>
    db
      .selectFrom('events as e')
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => {
        const all: Expression<SqlBool>[] = [
          eb('e.hide_from_listings', '=', 0),
          inDay(eb, columns[side], day),
          ...boundConditions(eb, input.bounds, columns),
        ];
        if (side === 'start') {
          // The listing index, ordered by status and local start, then holds every column read.
          all.push(eb('e.status', 'in', input.statuses));
          if (input.featured !== undefined) all.push(eb('e.featured', '=', input.featured ? 1 : 0));
          if (input.utcSite) {
            all.push(eb('e.start_date', '>=', shiftUtcWall(`${day} ${FIRST_SECOND}`, ZONE_OFFSET_HOURS.least)));
            all.push(eb('e.start_date', '<=', shiftUtcWall(`${day} ${LAST_SECOND}`, ZONE_OFFSET_HOURS.most)));
          }
        } else {
          // Read by the end's own index (status and featured written as expressions that no
          // other index serves); a start on a cut day was counted with that day.
          all.push(eb(sql`${sql.ref('e.status')} || ''`, 'in', input.statuses));
          if (input.featured !== undefined)
            all.push(eb(sql`${sql.ref('e.featured')} + 0`, '=', input.featured ? 1 : 0));
          for (const startDay of spans.start.partial) all.push(eb.not(inDay(eb, columns.start, startDay)));
        }
        return eb.and(all);
      });
  const parts = [
    whole,
    ...[...spans.start.partial].map((day) => cut('start', day)),
    ...[...spans.end.partial].map((day) => cut('end', day)),
  ];
  return db.selectNoFrom(() => [
    sql<number>`${sql.join(
      parts.map((part) => sql`(${part})`),
      sql` + `,
    )}`.as('n'),
  ]);
}
