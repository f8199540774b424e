import type { DateTime } from 'luxon';
import type { ArgDef } from '../../http/route.js';
import { parseWall, storedWall } from '../../time/format.js';
import { parseDateInput } from '../../time/parse.js';
import { atWall, luxonZone } from '../../time/zone.js';
import { dateArg } from '../post-like/dates.js';

/** Start, end and the all-day flag as stored (events.md 4.3, 4.4). */
export interface EventTimes {
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  all_day: number;
}

/** A stored wall-clock time read in the event's zone (DST resolved as PHP does). */
export function wallTime(wall: string, zone: string): DateTime {
  return parseWall(wall, zone)!;
}

/**
 * A `start_date` / `end_date` input read in the event's zone (events.md 4.3, E26): wall-clock strings
 * and relative expressions are read in that zone; timestamps and values with an offset are
 * converted to it.
 */
export type EventDateInput = (zone: string) => DateTime | null;

/**
 * `start_date` / `end_date` of writes. Their zone is known only once the write has read the event
 * (the request's `timezone`, else the stored one: E34), so the value is the date in any zone.
 */
export function eventDateArg(description: string, required: boolean): ArgDef<EventDateInput> {
  const inZone =
    (value: unknown): EventDateInput =>
    (zone) =>
      parseDateInput(value, zone)?.setZone(luxonZone(zone)) ?? null;
  return { ...dateArg(description, inZone), required };
}

/** The time without its milliseconds; most inputs have none, and setting them costs a zone lookup. */
function wholeSecond(time: DateTime): DateTime {
  return time.millisecond ? time.set({ millisecond: 0 }) : time;
}

function atClock(day: DateTime, hour: number, minute: number, second: number, zone: string): DateTime {
  return atWall({ year: day.year, month: day.month, day: day.day, hour, minute, second }, luxonZone(zone));
}

/**
 * The stored times of an event: all-day events run from 00:00:00 of their first day to 23:59:59 of
 * their last (4.4); an end before the start becomes the start (decisions.md E27, with the UTC end
 * recomputed from the clamped end); UTC values follow the zone's rules at each instant (DST).
 */
export function eventTimes(start: DateTime, end: DateTime, allDay: boolean, zone: string): EventTimes {
  let from: DateTime = wholeSecond(start.setZone(luxonZone(zone)));
  let to: DateTime = wholeSecond(end.setZone(luxonZone(zone)));
  if (allDay) {
    from = atClock(from, 0, 0, 0, zone);
    to = atClock(to, 23, 59, 59, zone);
  }
  if (to < from) to = allDay ? atClock(from, 23, 59, 59, zone) : from;
  return {
    start_date: storedWall(from),
    end_date: storedWall(to),
    utc_start_date: storedWall(from.toUTC()),
    utc_end_date: storedWall(to.toUTC()),
    all_day: allDay ? 1 : 0,
  };
}
