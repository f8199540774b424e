/**
 * Recurrence rules (RFC 5545 3.3.10, 3.8.5) expanded into wall-clock start times of a zone.
 *
 * The rule is expanded on a floating clock (the calendar alone, no zone) by rrule-temporal, and
 * each start is then placed in the event's zone by `atWall`, the same resolution every stored
 * event date gets: a weekly 10:00 stays at 10:00 across daylight-saving changes while its UTC time
 * moves, and a start in a spring-forward gap moves forward by the gap, as RFC 5545 3.3.5 asks
 * (rrule-temporal, expanding in a zone, drops such starts). `UNTIL` is an instant (or a date in the
 * event's zone) and is turned into the floating wall of that instant before expansion.
 */
import { DateTime } from 'luxon';
import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import { formatWall } from './format.js';
import { luxonZone } from './zone.js';

/** A series' rule as stored and shown: `rrule` without `RRULE:`; dates as `YYYY-MM-DD` or walls in the event's zone. */
export interface Recurrence {
  rrule: string;
  rdates: string[];
  exdates: string[];
}

/**
 * Rule parts a series may use. Parts that repeat within a day are left out: occurrences are
 * events of a calendar, told apart by their day (an exception date names a day).
 */
const RULE_PARTS = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);
const FREQUENCIES = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const UNTIL_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;
const DATE_INPUT = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2}))?)?$/;

/** Why a `recurrence` value was refused, as a sentence; `undefined` when it is usable. */
export type RecurrenceProblem = string;

function ruleParts(rrule: string): Map<string, string> | RecurrenceProblem {
  const parts = new Map<string, string>();
  for (const part of rrule.split(';')) {
    const [name, value, extra] = part.split('=');
    const key = (name ?? '').trim().toUpperCase();
    if (!key || value === undefined || extra !== undefined || value.trim() === '') return `"${part}" is not NAME=VALUE`;
    if (!RULE_PARTS.has(key)) return `${key} is not supported (use ${[...RULE_PARTS].join(', ')})`;
    if (parts.has(key)) return `${key} is given twice`;
    parts.set(key, value.trim().toUpperCase());
  }
  const freq = parts.get('FREQ');
  if (!freq) return 'FREQ is required';
  if (!FREQUENCIES.has(freq)) return `FREQ=${freq} is not supported (use DAILY, WEEKLY, MONTHLY or YEARLY)`;
  if (parts.has('COUNT') && parts.has('UNTIL')) return 'COUNT and UNTIL cannot both be given (RFC 5545)';
  if (parts.has('COUNT') && !/^[1-9]\d{0,5}$/.test(parts.get('COUNT')!)) return 'COUNT must be a whole number from 1';
  if (parts.has('INTERVAL') && !/^[1-9]\d{0,3}$/.test(parts.get('INTERVAL')!))
    return 'INTERVAL must be a whole number from 1';
  const until = parts.get('UNTIL');
  if (until !== undefined && !validUntil(until)) return 'UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ';
  return parts;
}

function validUntil(value: string): boolean {
  const m = UNTIL_VALUE.exec(value);
  if (!m || (m[4] !== undefined && m[7] !== 'Z')) return false;
  return DateTime.utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)).isValid;
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` of an `rdates` / `exdates` item (ISO or iCalendar spelling), else null. */
function normalizeDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = DATE_INPUT.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
  const dt = DateTime.utc(year!, month!, day!, hour ?? 0, minute ?? 0, second ?? 0);
  if (!dt.isValid || dt.day !== day) return null;
  return hour === undefined ? dt.toISODate()! : formatWall(dt);
}

function dateList(name: string, value: unknown): string[] | RecurrenceProblem {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return `${name} must be a list of dates`;
  const out: string[] = [];
  for (const item of value) {
    const date = normalizeDate(item);
    if (date === null) return `${name}: ${JSON.stringify(item)} is not YYYY-MM-DD or YYYY-MM-DD HH:MM:SS`;
    if (!out.includes(date)) out.push(date);
  }
  return out.sort();
}

/** A client's `recurrence` object checked and normalized, or why it is refused. */
export function parseRecurrence(value: unknown): Recurrence | { problem: RecurrenceProblem } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'send an object {"rrule": "FREQ=WEEKLY;BYDAY=TU", "rdates": [], "exdates": []}' };
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((k) => !['rrule', 'rdates', 'exdates'].includes(k));
  if (unknown !== undefined) return { problem: `${unknown} is not a recurrence field (rrule, rdates, exdates)` };
  if (typeof given.rrule !== 'string') return { problem: 'rrule is required, as a text such as FREQ=DAILY;COUNT=5' };
  const rrule = given.rrule.trim().replace(/^RRULE:/i, '');
  const parts = ruleParts(rrule);
  if (typeof parts === 'string') return { problem: `rrule: ${parts}` };
  const rdates = dateList('rdates', given.rdates);
  if (typeof rdates === 'string') return { problem: rdates };
  const exdates = dateList('exdates', given.exdates);
  if (typeof exdates === 'string') return { problem: exdates };
  const normalized = [...parts].map(([k, v]) => `${k}=${v}`).join(';');
  try {
    ruleFor(normalized, DateTime.utc(2000, 1, 1), 'UTC').options();
  } catch (err) {
    return { problem: `rrule: ${(err as Error).message}` };
  }
  return { rrule: normalized, rdates, exdates };
}

const floating = (wall: DateTime) =>
  Temporal.ZonedDateTime.from({
    year: wall.year,
    month: wall.month,
    day: wall.day,
    hour: wall.hour,
    minute: wall.minute,
    second: wall.second,
    timeZone: 'UTC',
  });

const icalWall = (wall: DateTime) => wall.toFormat("yyyyMMdd'T'HHmmss'Z'");

/** The rule on the floating clock; `UNTIL` made the floating wall of its instant in `zone`. */
function ruleFor(rrule: string, start: DateTime, zone: string): RRuleTemporal {
  const parts = rrule.split(';').map((part) => {
    if (!part.startsWith('UNTIL=')) return part;
    const m = UNTIL_VALUE.exec(part.slice(6))!;
    const until = m[4]
      ? DateTime.utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))
          .setZone(luxonZone(zone))
          .setZone('utc', { keepLocalTime: true })
      : DateTime.utc(Number(m[1]), Number(m[2]), Number(m[3]), 23, 59, 59);
    return `UNTIL=${icalWall(until)}`;
  });
  return new RRuleTemporal({ rruleString: parts.join(';'), dtstart: floating(start), includeDtstart: true });
}

/** Where an expansion stopped. */
export interface Expansion {
  /** Start walls (`YYYY-MM-DD HH:MM:SS`, event zone) up to the horizon, in order, the series' own start first. */
  starts: string[];
  /** The series has occurrences past the horizon. */
  continues: boolean;
  /** More than `limit` occurrences: a finite series in all, an endless one from `since` to the horizon. */
  overLimit: boolean;
}

const floatingWall = (wall: string) => DateTime.fromSQL(wall, { zone: 'utc' });
const wallOf = (dt: Temporal.ZonedDateTime) => dt.toString().slice(0, 19).replace('T', ' ');
const floatingDate = (wall: string) => new Date(`${wall.replace(' ', 'T')}Z`);

/**
 * The rule's own starts: an endless rule's up to the horizon, a finite rule's all (as far as
 * needed to exceed the limit); `undefined` when `COUNT` alone exceeds it.
 */
function ruleOccurrences(recurrence: Recurrence, start: string, zone: string, horizon: string, limit: number) {
  try {
    return expandRule(recurrence, start, zone, horizon, limit);
  } catch (err) {
    throw new UnusableRule((err as Error).message);
  }
}

/**
 * A rule that reads well but that the expansion gives up on from this start (one that never
 * matches within the library's bounds, such as February 30th with a `COUNT`).
 */
export class UnusableRule extends Error {}

function expandRule(recurrence: Recurrence, start: string, zone: string, horizon: string, limit: number) {
  const rule = ruleFor(recurrence.rrule, floatingWall(start), zone);
  const count = /(?:^|;)COUNT=(\d+)/.exec(recurrence.rrule);
  if (count) {
    const starts = Number(count[1]) - recurrence.exdates.length > limit ? undefined : rule.all().map(wallOf);
    return { starts, finite: true };
  }
  if (/(?:^|;)UNTIL=/.test(recurrence.rrule)) {
    const budget = limit + recurrence.exdates.length + 1;
    return { starts: rule.all((_, i) => i < budget).map(wallOf), finite: true };
  }
  return { starts: rule.between(floatingDate(start), floatingDate(horizon), true).map(wallOf), finite: false };
}

/**
 * Occurrence starts of a series beginning at the wall `start` of `zone`: the rule's (its own start
 * counted as the first, RFC 5545 3.8.5.3), plus `rdates`, minus `exdates` (a date removes that day's
 * occurrence, a wall the one starting then), one per day, up to the UTC wall `through`. A finite
 * series is judged whole against `limit`, so that one longer than the limit is refused at once
 * rather than when a later horizon reaches its end; an endless one by its occurrences from the UTC
 * wall `since` on, so that it stays within the limit as its horizon moves on.
 */
export function expandRecurrence(
  recurrence: Recurrence,
  start: string,
  zone: string,
  window: { since: string; through: string },
  limit: number,
): Expansion {
  const clock = start.slice(11);
  // Walls compare as text: `YYYY-MM-DD HH:MM:SS` sorts in time order.
  const inZone = (utcWall: string) => formatWall(floatingWall(utcWall).setZone(luxonZone(zone)));
  const horizon = inZone(window.through);
  const excluded = new Set(recurrence.exdates);
  const kept = (wall: string) => wall === start || !(excluded.has(wall.slice(0, 10)) || excluded.has(wall));
  const byDay = new Map<string, string>();
  const add = (wall: string) => {
    if (wall >= start && kept(wall) && !byDay.has(wall.slice(0, 10))) byDay.set(wall.slice(0, 10), wall);
  };
  const { starts: ruleStarts, finite } = ruleOccurrences(recurrence, start, zone, horizon, limit);
  if (ruleStarts === undefined) return { starts: [], continues: false, overLimit: true };
  for (const wall of ruleStarts) add(wall);
  for (const rdate of recurrence.rdates) add(rdate.length === 10 ? `${rdate} ${clock}` : rdate);
  const all = [...byDay.values()].sort();
  const starts = all.filter((wall) => wall <= horizon);
  const since = inZone(window.since);
  return {
    starts,
    continues: !finite || starts.length < all.length,
    overLimit: (finite ? all.length : starts.filter((wall) => wall >= since).length) > limit,
  };
}
