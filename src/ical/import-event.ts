/**
 * One VEVENT as the parameters of `POST /events` (events.md 4): what a client would send to create
 * the same event. Text properties are plain text (RFC 5545 3.8.1.5, 3.8.1.12), so they are escaped
 * into the HTML the service stores; times keep their zone (node-ical maps Windows zone names and
 * custom VTIMEZONEs to IANA names).
 */
import { DateTime, IANAZone } from 'luxon';
import type { DateWithTimeZone, ParameterValue, VEvent } from 'node-ical';

export interface IcsImportOptions {
  /** Status of imported events (`publish` unless told). */
  status: 'draft' | 'publish';
  /** Local ID of a category every imported event is put in. */
  categoryId?: number;
}

const WALL = 'yyyy-MM-dd HH:mm:ss';

export function textOf(value: ParameterValue | undefined): string {
  if (value === undefined || value === null) return '';
  return (typeof value === 'string' ? value : String(value.val ?? '')).trim();
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** An IANA zone of a date-time, or `undefined` for a floating one (read in the site zone). */
function zoneOf(date: DateWithTimeZone): string | undefined {
  const tz = date.tz;
  if (!tz) return undefined;
  if (tz === 'Etc/UTC' || tz === 'Etc/GMT' || tz === 'UTC' || tz === 'Z') return 'UTC';
  return IANAZone.isValidZone(tz) ? tz : 'UTC';
}

/**
 * node-ical builds dates without a zone (all-day and floating) from the process's local clock, so
 * their wall fields are read back in it; zoned ones are instants, read in their zone.
 */
function wallOf(date: DateWithTimeZone, zone: string | undefined): DateTime {
  return zone ? DateTime.fromJSDate(date, { zone }) : DateTime.fromJSDate(date);
}

interface Times {
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone?: string;
}

/** All-day events end on the day before DTEND (RFC 5545 3.6.1: DTEND is exclusive). */
function timesOf(event: VEvent): Times {
  const start = event.start;
  if (event.datetype === 'date') {
    const first = wallOf(start, undefined).startOf('day');
    const next = event.end ? wallOf(event.end, undefined).startOf('day') : first.plus({ days: 1 });
    const last = next > first ? next.minus({ days: 1 }) : first;
    return {
      start_date: first.toFormat(WALL),
      end_date: last.set({ hour: 23, minute: 59, second: 59 }).toFormat(WALL),
      all_day: true,
    };
  }
  const zone = zoneOf(start);
  const from = wallOf(start, zone);
  const to = event.end ? wallOf(event.end, zone) : from;
  return {
    start_date: from.toFormat(WALL),
    end_date: (to < from ? from : to).toFormat(WALL),
    all_day: false,
    ...(zone ? { timezone: zone } : {}),
  };
}

/**
 * `LOCATION` is one text: its first line (else its part before the first comma) names the venue,
 * the rest is the address; `GEO` places it.
 */
function venueOf(event: VEvent): Record<string, unknown> | undefined {
  const location = textOf(event.location);
  if (!location) return undefined;
  const newline = location.indexOf('\n');
  const cut = newline >= 0 ? newline : location.indexOf(',');
  const address =
    cut < 0
      ? ''
      : location
          .slice(cut + 1)
          .replace(/\s*\n\s*/g, ', ')
          .trim();
  const venue: Record<string, unknown> = {
    venue: cut < 0 ? location : location.slice(0, cut).trim(),
    ...(address ? { address } : {}),
  };
  const geo = event.geo as { lat?: unknown; lon?: unknown } | undefined;
  if (typeof geo?.lat === 'number' && typeof geo.lon === 'number')
    Object.assign(venue, { geo_lat: geo.lat, geo_lng: geo.lon });
  return venue;
}

/** `ORGANIZER;CN=name:mailto:address` (RFC 5545 3.8.4.3). */
function organizerOf(event: VEvent): Record<string, unknown> | undefined {
  const organizer = (event as { organizer?: ParameterValue }).organizer;
  if (!organizer) return undefined;
  const address = textOf(organizer).replace(/^mailto:/i, '');
  const name =
    typeof organizer === 'object'
      ? String(organizer.params?.CN ?? '')
          .replace(/^"(.*)"$/s, '$1')
          .trim()
      : '';
  if (!name && !address) return undefined;
  return { organizer: name || address, ...(address ? { email: address } : {}) };
}

const IMAGE_FILE = /\.(png|jpe?g|gif|webp|svg|avif)(\?.*)?$/i;

/** The first `ATTACH` that is an image by its type, or by its file name when it has no type. */
function imageOf(event: VEvent): string | undefined {
  const raw = (event as { attach?: ParameterValue | ParameterValue[] }).attach;
  for (const attach of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const url = textOf(attach);
    const type = typeof attach === 'object' ? String(attach.params?.FMTTYPE ?? '') : '';
    if (/^https?:\/\//i.test(url) && (type ? type.toLowerCase().startsWith('image/') : IMAGE_FILE.test(url)))
      return url;
  }
  return undefined;
}

function categoriesOf(event: VEvent): string[] {
  const raw = (event as { categories?: unknown }).categories;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return [...new Set(list.map((c) => String(c).trim()).filter(Boolean))];
}

/** The parameters of the event's create (or update) request. */
export function eventParams(event: VEvent, options: IcsImportOptions): Record<string, unknown> {
  const title = textOf(event.summary);
  const params: Record<string, unknown> = {
    // Without SUMMARY the create is refused for its missing title, which the report then says.
    ...(title ? { title: escapeHtml(title) } : {}),
    description: escapeHtml(textOf(event.description)),
    status: options.status,
    ...timesOf(event),
  };
  const url = textOf((event as { url?: ParameterValue }).url);
  if (/^https?:\/\//i.test(url)) params.website = url;
  const venue = venueOf(event);
  if (venue) params.venue = venue;
  const organizer = organizerOf(event);
  if (organizer) params.organizer = organizer;
  const tags = categoriesOf(event);
  if (tags.length) params.tags = tags;
  if (options.categoryId !== undefined) params.categories = [options.categoryId];
  const image = imageOf(event);
  if (image) params.image = image;
  return params;
}
