import { Type } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { paramReasons } from '../../http/errors.js';
import type { ArgDef } from '../../http/route.js';
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

/** A date-time argument: any form of the date grammar (common.md 5.5, events.md 2.2.6), else 400; kept as sent. */
export function dateArg(description: string): ArgDef {
  return {
    schema: Type.String({ description, format: 'date-time' }),
    validate: (v) => parseDateInput(v, 'UTC') !== null || paramReasons.invalidDate(v),
    parse: (v) => v,
  };
}

/** `date` and `date_utc` as sent (validated by `dateArg`). */
export interface PublicationInput {
  /** Read in the site time zone (decisions.md E30). */
  date?: unknown;
  /** Read as UTC. */
  date_utc?: unknown;
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
  const local = input.date === undefined || input.date === null ? null : parseDateInput(input.date, siteZone);
  const utc = input.date_utc === undefined || input.date_utc === null ? null : parseDateInput(input.date_utc, 'UTC');
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
