/**
 * Stored wall-clock strings `YYYY-MM-DD HH:MM:SS` (events.md 1.2, common.md 9.2) and their
 * conversion between a zone and UTC.
 */
import { DateTime } from 'luxon';
import { boundedMemo } from '../memo.js';
import { atWall, luxonZone } from './zone.js';

const WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `YYYY-MM-DD HH:MM:SS` of `dt` in its own zone. Built from the date's fields, which Luxon keeps:
 * `toFormat` parses its pattern at every call. Years outside 0–9999 go through `toFormat`.
 */
export function formatWall(dt: DateTime): string {
  const { year } = dt;
  if (!(year >= 0 && year <= 9999)) return dt.toFormat('yyyy-MM-dd HH:mm:ss');
  return `${String(year).padStart(4, '0')}-${pad2(dt.month)}-${pad2(dt.day)} ${pad2(dt.hour)}:${pad2(dt.minute)}:${pad2(dt.second)}`;
}

/**
 * `formatWall` for a value about to be written: a date Luxon could not build (an unusable zone) or
 * one past year 9999 has no `YYYY-MM-DD HH:MM:SS` form, and storing its text instead would break
 * every later read of the record; the write fails instead (the database refuses it too, migration 12).
 */
export function storedWall(dt: DateTime): string {
  const wall = dt.isValid ? formatWall(dt) : '';
  if (!WALL.test(wall))
    throw new Error(`refusing to store a date that is not YYYY-MM-DD HH:MM:SS (${dt.invalidReason ?? wall})`);
  return wall;
}

/** A `*_details` object (events.md 1.2): zero-padded strings, in this key order. */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

/** Splits a stored wall string into its `*_details` parts; a date without a time gives `00`s. */
export function dateDetails(wall: string): DateDetails {
  const [date = '', time = ''] = wall.trim().split(/[ T]/);
  const [year = '', month = '', day = ''] = date.split('-');
  const [hour = '00', minutes = '00', seconds = '00'] = time === '' ? [] : time.split(':');
  return { year, month, day, hour, minutes, seconds };
}

const FIRST_WALL_MS = Date.parse('0000-01-01T00:00:00Z');
const LAST_WALL_MS = Date.parse('9999-12-31T23:59:59Z');

/** `YYYY-MM-DD HH:MM:SS` in UTC of an instant (ms since the epoch), held to the years a wall string can write. */
function utcWallOf(ms: number): string {
  return new Date(Math.min(Math.max(ms, FIRST_WALL_MS), LAST_WALL_MS)).toISOString().slice(0, 19).replace('T', ' ');
}

/** The last `nowUtcWall` answer and the second it names (ms since the epoch / 1000, floored). */
let nowWall = { second: NaN, wall: '' };

/** The current UTC wall-clock time (read before every cached read, so kept for the second it names). */
export function nowUtcWall(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== nowWall.second) nowWall = { second, wall: utcWallOf(second * 1000) };
  return nowWall.wall;
}

/**
 * A wall string moved by whole hours, read as UTC (no zone rules apply); a string that is no wall time is returned as
 * it is.
 */
export function shiftUtcWall(wall: string, hours: number): string {
  const ms = utcWallMs(wall);
  return Number.isNaN(ms) ? wall : utcWallOf(ms + hours * 3_600_000);
}

/** Milliseconds since the epoch of a stored UTC wall string (no zone rules to resolve); NaN when malformed. */
export function utcWallMs(utcWall: string): number {
  return Date.parse(`${utcWall.replace(' ', 'T')}Z`);
}

/** The instant a stored UTC wall string denotes (`utc_start_date` etc.), in UTC. */
export function utcInstant(utcWall: string): DateTime {
  return DateTime.fromMillis(utcWallMs(utcWall), { zone: 'utc' });
}

/** The instant a stored wall string denotes in `zone` (DST resolved as PHP does), or null. */
export function parseWall(wall: string, zone: string): DateTime | null {
  return parsedWall(wall, zone);
}

/**
 * Resolving a wall clock in a zone asks Intl for offsets, the slowest step of a representation;
 * the same stored dates are read over and over, so answers (immutable DateTimes) are kept.
 */
const parsedWall = boundedMemo(10_000, (wall: string, zone: string) => `${zone}\u0000${wall}`, computeParseWall);

function computeParseWall(wall: string, zone: string): DateTime | null {
  const m = WALL.exec(wall);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const probe = DateTime.utc(year, month, day, hour, minute, second);
  if (!probe.isValid || probe.day !== day || probe.hour !== hour) return null;
  const dt = atWall({ year, month, day, hour, minute, second }, luxonZone(zone));
  return dt.isValid ? dt : null;
}

/** A wall string in `zone` as the UTC wall string of the same instant (`utc_start_date` etc.). */
export function wallToUtc(wall: string, zone: string): string | null {
  const dt = parseWall(wall, zone);
  return dt ? formatWall(dt.toUTC()) : null;
}

/** A UTC wall string as the wall string of the same instant in `zone`. */
export function utcToWall(utcWall: string, zone: string): string | null {
  const dt = parseWall(utcWall, 'UTC');
  if (!dt) return null;
  const local = dt.setZone(luxonZone(zone));
  return local.isValid ? formatWall(local) : null;
}
