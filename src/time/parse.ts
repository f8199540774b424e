/**
 * The documented date-input grammar (common.md 5.5, events.md 2.2.6, decisions.md X 5 / E15): the
 * subset of PHP `strtotime()` that TEC's clients use, with the same meaning. Anything else is null.
 */
import { DateTime, FixedOffsetZone, type Zone } from 'luxon';
import { boundedMemo } from '../memo.js';
import { atWall, luxonZone, type WallFields } from './zone.js';

/**
 * `Y-m-d`, optionally followed by `H:i[:s[.frac]]` (space or `T`) and an offset or `Z`; a clock
 * followed by am/pm is left to the 12-hour time rule (`2018-01-01 4:30 pm`).
 */
const ISO_DATE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[t ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(z|[+-]\d{2}(?::?\d{2})?)?)?(?=\s|$)(?! ?[ap]\.?m\.?(?:\s|$))/;

const END = '(?=\\s|$)';
const TIME_12 = new RegExp(`(\\d{1,2})(?::(\\d{2})(?::(\\d{2}))?)? ?([ap])\\.?m\\.?${END}`, 'y');
const TIME_24 = new RegExp(`(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?${END}`, 'y');
const UNITS =
  'sec|secs|second|seconds|min|mins|minute|minutes|hour|hours|day|days|week|weeks|' +
  'fortnight|fortnights|month|months|year|years';
const RELATIVE = new RegExp(`([+-]?)(\\d+) ?(${UNITS})${END}`, 'y');
const DAY_WORD = new RegExp(`(now|today|midnight|noon|tomorrow|yesterday)${END}`, 'y');
const WEEKDAY = new RegExp(
  `(?:(next|last) )?(monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thur|thu|friday|fri|saturday|sat|sunday|sun)${END}`,
  'y',
);
const WEEKDAY_NUMBER: Record<string, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };

type Wall = Required<WallFields>;
interface Clock {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** What the expression asks for, collected while scanning and applied in PHP's order. */
interface Parsed {
  dayWord?: string;
  weekday?: { which: 'this' | 'next' | 'last'; day: number };
  time?: Clock;
  months: number;
  days: number;
  seconds: number;
}

const fraction = (digits: string | undefined): number => (digits ? Number(digits.slice(0, 3).padEnd(3, '0')) : 0);

function clock(hour: number, minute: number, second: number, millisecond = 0): Clock | null {
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second, millisecond } : null;
}

function addRelative(parsed: Parsed, amount: number, unit: string): void {
  const u = unit.replace(/s$/, '');
  if (u === 'year') parsed.months += amount * 12;
  else if (u === 'month') parsed.months += amount;
  else if (u === 'fortnight') parsed.days += amount * 14;
  else if (u === 'week') parsed.days += amount * 7;
  else if (u === 'day') parsed.days += amount;
  else if (u === 'hour') parsed.seconds += amount * 3600;
  else if (u === 'min' || u === 'minute') parsed.seconds += amount * 60;
  else parsed.seconds += amount;
}

/** Scans day words, weekdays, a time and relative offsets; null when anything else is left. */
function scan(text: string): Parsed | null {
  const parsed: Parsed = { months: 0, days: 0, seconds: 0 };
  let at = 0;
  const attempt = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m) at = re.lastIndex;
    return m;
  };
  while (true) {
    while (text[at] === ' ') at++;
    if (at >= text.length) return parsed;
    let m: RegExpExecArray | null;
    if ((m = attempt(TIME_12))) {
      const hour = Number(m[1]);
      const time =
        hour >= 1 && hour <= 12
          ? clock((hour % 12) + (m[4] === 'p' ? 12 : 0), Number(m[2] ?? 0), Number(m[3] ?? 0))
          : null;
      if (!time || parsed.time) return null;
      parsed.time = time;
    } else if ((m = attempt(TIME_24))) {
      const time = clock(Number(m[1]), Number(m[2]), Number(m[3] ?? 0), fraction(m[4]));
      if (!time || parsed.time) return null;
      parsed.time = time;
    } else if ((m = attempt(RELATIVE))) {
      addRelative(parsed, Number(m[2]) * (m[1] === '-' ? -1 : 1), m[3]);
    } else if ((m = attempt(DAY_WORD))) {
      if (m[1] === 'noon' || m[1] === 'midnight') {
        // "noon"/"midnight" set the clock (PHP), so "tomorrow noon" is 12:00 of the next day.
        if (parsed.time) return null;
        parsed.time = { hour: m[1] === 'noon' ? 12 : 0, minute: 0, second: 0, millisecond: 0 };
      } else {
        if (parsed.dayWord) return null;
        parsed.dayWord = m[1];
      }
    } else if ((m = attempt(WEEKDAY))) {
      if (parsed.weekday) return null;
      parsed.weekday = {
        which: (m[1] as 'next' | 'last' | undefined) ?? 'this',
        day: WEEKDAY_NUMBER[m[2].slice(0, 3)],
      };
    } else {
      return null;
    }
  }
}

/**
 * The years a stored date can name: `YYYY` is four digits, and year 0 is kept for WordPress's
 * "never set" marker `0000-00-00 00:00:00` (common.md 8.3).
 */
export const FIRST_YEAR = 1;
export const LAST_YEAR = 9999;

const storableYear = (year: number): boolean => year >= FIRST_YEAR && year <= LAST_YEAR;

/**
 * A calendar date shifted like PHP: months first with the day overflowing (Jan 31 + 1 month = Mar 3);
 * null past the storable years, where Luxon's arithmetic would give NaN fields.
 */
function shiftDate(wall: Wall, months: number, days: number): Wall | null {
  const monthIndex = wall.year * 12 + (wall.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  if (!storableYear(year)) return null;
  const shifted = DateTime.utc(year, (((monthIndex % 12) + 12) % 12) + 1, 1).plus({ days: wall.day - 1 + days });
  return shifted.isValid && storableYear(shifted.year)
    ? { ...wall, year: shifted.year, month: shifted.month, day: shifted.day }
    : null;
}

const MIDNIGHT: Clock = { hour: 0, minute: 0, second: 0, millisecond: 0 };

function evaluate(base: Wall, parsed: Parsed, zone: Zone): DateTime | null {
  let wall: Wall | null = base;
  // PHP resets the clock to 00:00 for day words and weekdays, before an explicit time applies.
  if (parsed.dayWord === 'today') wall = { ...base, ...MIDNIGHT };
  else if (parsed.dayWord === 'tomorrow') wall = atMidnight(shiftDate(base, 0, 1));
  else if (parsed.dayWord === 'yesterday') wall = atMidnight(shiftDate(base, 0, -1));
  if (wall && parsed.weekday) {
    const today = DateTime.utc(wall.year, wall.month, wall.day).weekday;
    const { which, day } = parsed.weekday;
    const ahead = (day - today + 7) % 7;
    const delta = which === 'this' ? ahead : which === 'next' ? ahead || 7 : -((today - day + 7) % 7 || 7);
    wall = atMidnight(shiftDate(wall, 0, delta));
  }
  if (wall && parsed.time) wall = { ...wall, ...parsed.time };
  if (wall) wall = shiftDate(wall, parsed.months, parsed.days);
  if (!wall) return null;
  // Hours, minutes and seconds are elapsed time (PHP 8.1+), days and longer are calendar units.
  return atWall(wall, zone).plus({ seconds: parsed.seconds });
}

const atMidnight = (wall: Wall | null): Wall | null => (wall ? { ...wall, ...MIDNIGHT } : null);

/**
 * The instant when both its wall clock in its zone and its UTC clock fall in the storable years:
 * a write stores both (decisions.md X 5: anything else is a 400, not a date that cannot be stored).
 */
function storable(dt: DateTime | null): DateTime | null {
  return dt && dt.isValid && storableYear(dt.year) && storableYear(dt.toUTC().year) ? dt : null;
}

function wallOf(dt: DateTime): Wall {
  const { year, month, day, hour, minute, second, millisecond } = dt;
  return { year, month, day, hour, minute, second, millisecond };
}

function fromTimestamp(seconds: number, zone: Zone): DateTime | null {
  if (!Number.isSafeInteger(seconds)) return null;
  return storable(DateTime.fromSeconds(seconds, { zone }));
}

/** A string input as the grammar reads it: trimmed, lower-cased, single spaces. */
const inputText = (value: string): string => value.trim().toLowerCase().replace(/\s+/g, ' ');

/** A Unix timestamp, in seconds. */
const TIMESTAMP = /^[+-]?\d+$/;

/**
 * A date input (common.md 5.5) as an instant in `zone` (a stored zone identifier), or null when
 * it is not part of the grammar. Wall-clock forms are read in `zone`; relative forms resolve
 * against `now` (default: the current time) seen in `zone`; explicit offsets and Unix timestamps
 * are absolute. Non-existent local times (DST gap) move forward by the gap, as PHP does.
 */
export function parseDateInput(value: unknown, zone: string, now?: DateTime): DateTime | null {
  const fixed = typeof value === 'string' && value.length + zone.length <= MEMO_INPUT_MAX && !readsClock(value);
  return fixed ? parsedFixedInput(value, zone) : computeDateInput(value, zone, now);
}

/**
 * Inputs that do not read the clock mean the same instant every time; resolving one asks Intl for
 * zone offsets, and a write reads each date twice (validation, then the write), so answers
 * (immutable DateTimes, or null) are kept; inputs longer than any date and zone are not (memory).
 */
const MEMO_INPUT_MAX = 96;
const parsedFixedInput = boundedMemo(
  10_000,
  (value: string, zone: string) => `${zone}\u0000${value}`,
  (value: string, zone: string) => computeDateInput(value, zone),
);

function computeDateInput(value: unknown, zone: string, now?: DateTime): DateTime | null {
  const tz = luxonZone(zone);
  if (!tz.isValid) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? fromTimestamp(value, tz) : null;
  if (typeof value !== 'string') return null;

  const text = inputText(value);
  if (text === '') return null;
  if (TIMESTAMP.test(text)) return fromTimestamp(Number(text), tz);

  let base: Wall;
  let rest = text;
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [whole, y, mo, d, h, mi, s, frac, offset] = iso;
    const time = clock(Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), fraction(frac));
    const date = DateTime.utc(Number(y), Number(mo), Number(d));
    if (!time || !date.isValid || date.day !== Number(d) || !storableYear(date.year)) return null;
    const wall: Wall = { year: date.year, month: date.month, day: date.day, ...time };
    rest = text.slice(whole.length);
    if (offset !== undefined) {
      const minutes = offset === 'z' ? 0 : offsetMinutes(offset);
      if (minutes === null) return null;
      const instant = DateTime.fromObject(wall, { zone: FixedOffsetZone.instance(minutes) }).setZone(tz);
      if (rest.trim() === '') return storable(instant);
      if (!storable(instant)) return null;
      base = wallOf(instant);
    } else {
      base = wall;
    }
  } else {
    base = wallOf((now ?? DateTime.now()).setZone(tz).set({ millisecond: 0 }));
  }

  const parsed = scan(rest);
  if (!parsed) return null;
  return storable(evaluate(base, parsed, tz));
}

/**
 * Whether `parseDateInput` reads the clock for this value: a string that is neither a Unix
 * timestamp nor starts with a `Y-m-d` date resolves against `now` ("tomorrow", "+1 week", "10:00").
 */
export function readsClock(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = inputText(value);
  return text !== '' && !TIMESTAMP.test(text) && !ISO_DATE.test(text);
}

/** `+05:00`, `-0330`, `+05` as minutes east of UTC, or null when out of range. */
function offsetMinutes(offset: string): number | null {
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 14 || minutes > 59) return null;
  return (offset[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
