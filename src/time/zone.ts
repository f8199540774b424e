/**
 * Time zone identifiers as WordPress stores them (IANA names, `UTC`, manual offsets `UTC+5`,
 * `UTC-3.5`) and their tz-database abbreviations (events.md 1.3, decisions.md E5).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime, FixedOffsetZone, IANAZone, InvalidZone, type Zone } from 'luxon';
import { boundedMemo, byText } from '../memo.js';

/** WordPress manual offsets run from UTC-12 to UTC+14 in quarter hours. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** `UTC+5`, `UTC-3.5`, `UTC+5.75` (the stored form) and `UTC+05:30`. */
const WP_OFFSET = /^UTC([+-])(\d{1,2})(?:\.(\d{1,2}))?$/i;
/** `+05:00`, `-0330`, `+05`, optionally prefixed with `UTC` or `GMT`. */
const ISO_OFFSET = /^(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})?$/i;

/** Offset in minutes as the canonical WordPress identifier: 330 → `UTC+5.5`, -180 → `UTC-3`. */
function offsetIdentifier(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `UTC${sign}${Math.abs(minutes) / 60}`;
}

function offsetMinutes(sign: string, hours: string, minutes: number): number | null {
  const total = Number(hours) * 60 + minutes;
  if (total > MAX_OFFSET_MINUTES || minutes >= 60 || minutes % 15 !== 0) return null;
  return sign === '-' ? -total : total;
}

/** Asking Intl whether a zone exists is slow, and every event representation asks: answers are kept. */
const ZONE_MEMO_LIMIT = 2000;

/**
 * The stored form of a time zone given by a client or a setting, or null when it is not one:
 * IANA names in their canonical spelling, `UTC`, and fixed offsets as WordPress writes them
 * (`UTC+5`, `UTC-3.5`; `+05:30` becomes `UTC+5.5`).
 */
export const normalizeZone = boundedMemo(ZONE_MEMO_LIMIT, byText, (tz: string): string | null => {
  const value = tz.trim();
  if (value === '') return null;
  if (/^UTC$/i.test(value)) return 'UTC';

  const wp = WP_OFFSET.exec(value);
  if (wp) {
    const fraction = wp[3] === undefined ? 0 : Number(`0.${wp[3]}`) * 60;
    if (!Number.isInteger(fraction)) return null;
    const minutes = offsetMinutes(wp[1], wp[2], fraction);
    return minutes === null ? null : offsetIdentifier(minutes);
  }
  const iso = ISO_OFFSET.exec(value);
  if (iso) {
    const minutes = offsetMinutes(iso[1], iso[2], Number(iso[3] ?? '0'));
    return minutes === null ? null : offsetIdentifier(minutes);
  }

  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value) || !IANAZone.isValidZone(value)) return null;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  // Intl may map a link to its target (`Asia/Calcutta` ↔ `Asia/Kolkata`): keep the client's name then.
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
});

/** Minutes east of UTC of a stored `UTC±N` identifier, or null for named zones. */
function fixedOffsetOf(stored: string): number | null {
  const wp = WP_OFFSET.exec(stored);
  return wp ? Math.round(Number(`${wp[1]}${wp[2]}.${wp[3] ?? '0'}`) * 60) : null;
}

/** The Luxon zone for a stored identifier; an invalid identifier gives an invalid zone. */
export const luxonZone = boundedMemo(ZONE_MEMO_LIMIT, byText, (stored: string): Zone => {
  const name = normalizeZone(stored);
  if (name === null) return new InvalidZone();
  const offset = fixedOffsetOf(name);
  return offset === null ? IANAZone.create(name) : FixedOffsetZone.instance(offset);
});

/** Abbreviations of one zone read from its compiled tz-database file (RFC 8536). */
interface TzifData {
  transitions: number[];
  types: number[];
  abbrs: string[];
  footer: { std: string; stdOffset: number; dst?: string; dstOffset?: number } | null;
}

const TZDIR = process.env.TZDIR ?? '/usr/share/zoneinfo';
const tzifCache = new Map<string, TzifData | null>();

/** POSIX TZ string offset `[+-]hh[:mm[:ss]]` (west positive) as minutes east of UTC. */
function posixOffset(text: string): number {
  const [h, m = '0', s = '0'] = text.replace(/^[+-]/, '').split(':');
  const minutes = Number(h) * 60 + Number(m) + Number(s) / 60;
  return text.startsWith('-') ? minutes : -minutes;
}

function parseFooter(footer: string): TzifData['footer'] {
  const match = /^(<[^>]+>|[A-Za-z]+)([+-]?\d+(?::\d+){0,2})(?:(<[^>]+>|[A-Za-z]+)([+-]?\d+(?::\d+){0,2})?)?/.exec(
    footer,
  );
  if (!match) return null;
  const unquote = (name: string): string => name.replace(/^<|>$/g, '');
  const stdOffset = posixOffset(match[2]);
  if (match[3] === undefined) return { std: unquote(match[1]), stdOffset };
  const dstOffset = match[4] === undefined ? stdOffset + 60 : posixOffset(match[4]);
  return { std: unquote(match[1]), stdOffset, dst: unquote(match[3]), dstOffset };
}

function readTzif(name: string): TzifData | null {
  if (name.split('/').some((part) => part === '..' || part === '')) return null;
  let buf: Buffer;
  try {
    buf = readFileSync(join(TZDIR, name));
  } catch {
    return null;
  }
  if (buf.length < 44 || buf.toString('latin1', 0, 4) !== 'TZif') return null;
  const counts = (at: number): number[] => [0, 1, 2, 3, 4, 5].map((i) => buf.readUInt32BE(at + 20 + i * 4));
  let [isut, isstd, leap, timecnt, typecnt, charcnt] = counts(0);
  let at = 44;
  let timeSize = 4;
  if (buf[4] >= 0x32) {
    // Skip the 32-bit block and read the 64-bit one that follows.
    at += timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut;
    [isut, isstd, leap, timecnt, typecnt, charcnt] = counts(at);
    at += 44;
    timeSize = 8;
  }
  const transitions: number[] = [];
  for (let i = 0; i < timecnt; i++) {
    transitions.push(timeSize === 8 ? Number(buf.readBigInt64BE(at + i * 8)) : buf.readInt32BE(at + i * 4));
  }
  at += timecnt * timeSize;
  const typeIndexes = Array.from(buf.subarray(at, at + timecnt));
  at += timecnt;
  const typeAbbrIndex: number[] = [];
  for (let i = 0; i < typecnt; i++) typeAbbrIndex.push(buf[at + i * 6 + 5]);
  at += typecnt * 6;
  const chars = buf.toString('latin1', at, at + charcnt);
  const abbrs = typeAbbrIndex.map((i) => chars.slice(i, chars.indexOf('\0', i)));
  at += charcnt + leap * (timeSize + 4) + isstd + isut;
  const footerText = timeSize === 8 ? (buf.toString('latin1', at).split('\n')[1] ?? '') : '';
  return { transitions, types: typeIndexes, abbrs, footer: footerText ? parseFooter(footerText) : null };
}

function tzifFor(name: string): TzifData | null {
  if (!tzifCache.has(name)) tzifCache.set(name, readTzif(name));
  return tzifCache.get(name) ?? null;
}

/** The tz database's numeric style for zones without letters: `+04`, `-03`, `+0530`. */
function numericAbbr(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  return abs % 60 === 0 ? `${sign}${hh}` : `${sign}${hh}${String(abs % 60).padStart(2, '0')}`;
}

function tzdbAbbr(name: string, instant: DateTime): string | null {
  const data = tzifFor(name);
  if (!data) return null;
  const seconds = Math.floor(instant.toSeconds());
  const { transitions, footer } = data;
  if (footer && (transitions.length === 0 || seconds >= transitions[transitions.length - 1])) {
    // Past the last listed transition the footer rule applies; the offset in effect tells std from dst.
    return footer.dst !== undefined && instant.setZone(name).offset === footer.dstOffset ? footer.dst : footer.std;
  }
  if (transitions.length === 0 || seconds < transitions[0]) return data.abbrs[0] ?? null;
  let lo = 0;
  let hi = transitions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (transitions[mid] <= seconds) lo = mid;
    else hi = mid - 1;
  }
  return data.abbrs[data.types[lo]] ?? null;
}

/**
 * `timezone_abbr` (events.md 1.3, E5): the tz-database abbreviation in effect at `instant`, as-is
 * (`EST`, `CEST`, `IST`, numeric `-03`); offset-style zones answer with their identifier. Reads the
 * system tz database; without one, the English short name from ICU or the numeric form is used.
 */
export function zoneAbbr(zone: string, instant: DateTime): string {
  const stored = normalizeZone(zone) ?? zone;
  if (stored === 'UTC' || fixedOffsetOf(stored) !== null) return stored;
  const fromDatabase = tzdbAbbr(stored, instant);
  if (fromDatabase) return fromDatabase;
  const local = instant.setZone(luxonZone(stored));
  if (!local.isValid) return stored;
  const icu = local.toFormat('ZZZZ');
  return /^[A-Z]{2,5}$/.test(icu) ? icu : numericAbbr(local.offset);
}

/** Calendar and clock fields of a local time. */
export interface WallFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond?: number;
}

/**
 * The instant a wall-clock time denotes in `zone`, resolved like PHP: a time repeated when clocks go
 * back is its first occurrence (daylight time), a time skipped when clocks go forward moves forward
 * by the gap (`02:30` → `03:30`).
 */
export function atWall(wall: WallFields, zone: Zone): DateTime {
  const guess = DateTime.fromObject(wall, { zone });
  if (!guess.isValid) return guess;
  const earlierOffset = guess.minus({ hours: 6 }).offset;
  if (earlierOffset !== guess.offset) {
    const first = DateTime.fromObject(wall, { zone: FixedOffsetZone.instance(earlierOffset) }).setZone(zone);
    if (first < guess && first.hour === wall.hour && first.minute === wall.minute && first.day === wall.day) {
      return first;
    }
  }
  return guess;
}
