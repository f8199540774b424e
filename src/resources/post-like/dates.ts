import { Type } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { paramReasons } from '../../http/errors.js';
import type { ArgDef, RequestContext } from '../../http/route.js';
import { storedWall } from '../../time/format.js';
import { parseDateInput } from '../../time/parse.js';
import { luxonZone } from '../../time/zone.js';
import { FLOATING_STATUSES } from './status.js';

/** How WordPress writes a date that was never set: drafts and pending records "float" (common.md 8.3). */
const FLOATING_DATE = '0000-00-00 00:00:00';

/** The moment of a write, as the four stored date columns need it. */
export interface Now {
  ms: number;
  local: string;
  utc: string;
}

/** The wall strings of the last second a write asked for, and the zone they were written in. */
let lastSecond = { zone: '', second: NaN, local: '', utc: '' };

/**
 * Writes of the same second share its wall strings: converting an instant to a named zone asks
 * the Intl API for its offset, a slow step of every write.
 */
export function nowIn(siteZone: string, ms: number = Date.now()): Now {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond.second || siteZone !== lastSecond.zone) {
    const at = DateTime.fromMillis(second * 1000, { zone: 'utc' });
    lastSecond = { zone: siteZone, second, local: storedWall(at.setZone(luxonZone(siteZone))), utc: storedWall(at) };
  }
  return { ms, local: lastSecond.local, utc: lastSecond.utc };
}

/**
 * A date-time argument: any form of the date grammar (common.md 5.5, events.md 2.2.6), else 400;
 * `parse` reads it in the zone it means. Whether a value is a date is judged in UTC whatever zone it
 * is read in, so a reading may be `null`: the rare value that names no storable instant in that zone.
 */
export function dateArg<T>(description: string, parse: (value: unknown, ctx: RequestContext) => T): ArgDef<T> {
  return {
    schema: Type.String({ description, format: 'date-time' }),
    validate: (v) => parseDateInput(v, 'UTC') !== null || paramReasons.invalidDate(v),
    parse,
  };
}

/** The publication dates of a write: `date` read in the site time zone (decisions.md E30), `date_utc` in UTC. */
export function publicationArgs(noun: string) {
  return {
    date: dateArg(`The ${noun} publication date, in the site time zone.`, (v, ctx) =>
      parseDateInput(v, ctx.settings.timezone),
    ),
    date_utc: dateArg(`The ${noun} publication date in UTC.`, (v) => parseDateInput(v, 'UTC')),
  };
}

export interface PublicationInput {
  date?: DateTime | null;
  date_utc?: DateTime | null;
}

export interface Publication {
  date: string;
  date_utc: string;
}

/**
 * Publication dates of a write (common.md 8.3): `date` and `date_utc` as given, each derived from
 * the other when only one is given; now when neither is; `date_utc` floating for a draft or pending
 * record that was not given one. On update without either date the stored pair stays, except that a
 * floating record leaving draft/pending is stamped with the moment of publishing.
 */
export function publicationDates(
  input: PublicationInput,
  status: string,
  siteZone: string,
  now: Now,
  current?: Publication,
): Publication {
  const zone = luxonZone(siteZone);
  const local = input.date ?? null;
  const utc = input.date_utc ?? null;
  const floating = FLOATING_STATUSES.includes(status);
  if (!local && !utc) {
    if (current && (current.date_utc !== FLOATING_DATE || floating)) return current;
    return { date: now.local, date_utc: floating ? FLOATING_DATE : now.utc };
  }
  if (local && utc) return { date: storedWall(local.setZone(zone)), date_utc: storedWall(utc.toUTC()) };
  if (utc) return { date: storedWall(utc.setZone(zone)), date_utc: storedWall(utc.toUTC()) };
  const at = local!;
  return { date: storedWall(at.setZone(zone)), date_utc: floating ? FLOATING_DATE : storedWall(at.toUTC()) };
}
