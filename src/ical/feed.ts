/**
 * An iCalendar feed (RFC 5545, with the calendar properties of RFC 7986) of events already decided
 * on: the caller says which events and what of them a reader may see; this module only writes them.
 * ical-generator writes the objects (escaping, CRLF, folding at 75 octets without splitting a UTF-8
 * character); timezones-ical-library generates the VTIMEZONE blocks from tzdata (feed-zones.ts).
 */
import ical, { ICalCalendarMethod, escape, foldLines } from 'ical-generator';
import { DateTime } from 'luxon';
import { feedZone, type FeedZone } from './feed-zones.js';

/** A stored wall time, `YYYY-MM-DD HH:MM:SS`. */
type Wall = string;

export interface FeedEvent {
  /** Stable across updates: clients match the events of successive fetches by it. */
  uid: string;
  /** Grows with every update (RFC 5545 3.8.7.4). */
  sequence: number;
  /** UTC wall times of publication and of the last change. */
  created: Wall;
  modified: Wall;
  allDay: boolean;
  /** Start and end on the event's wall clock, and in UTC. */
  start: Wall;
  end: Wall;
  utcStart: Wall;
  utcEnd: Wall;
  /** IANA name, `UTC`, or a fixed offset such as `UTC+5`. */
  timezone: string;
  summary: string;
  /** Plain text; '' for none. */
  description: string;
  url: string;
  location?: { name: string; address: string; geo?: { lat: number; lon: number } };
  categories: string[];
  organizer?: { name: string; email: string };
  /** The image's URL. */
  attach?: string;
}

export interface Feed {
  /** NAME and X-WR-CALNAME. */
  name: string;
  description: string;
  /** The feed's own address (URL). */
  url: string;
  /** The site's zone: X-WR-TIMEZONE when tzdata knows it. */
  siteZone: string;
  /** How often clients should fetch again: REFRESH-INTERVAL and X-PUBLISHED-TTL. */
  refreshSeconds: number;
  events: FeedEvent[];
}

const PRODID = { company: 'Calendar Server', product: 'Feeds', language: 'EN' };

const utc = (wall: Wall) => DateTime.fromSQL(wall, { zone: 'utc' });

/** All-day events are dates; the end is exclusive, the day after the last (RFC 5545 3.6.1). */
function allDayTimes(event: FeedEvent) {
  const day = (wall: Wall) => utc(wall.slice(0, 10));
  return { allDay: true, start: day(event.start), end: day(event.end).plus({ days: 1 }) };
}

/** Timed events: on their zone's clock with its TZID when tzdata knows the zone, else in UTC. */
function timedTimes(event: FeedEvent, zone: FeedZone | null) {
  const start = utc(event.utcStart);
  const end = utc(event.utcEnd);
  if (!zone) return { start, end };
  return { start: start.setZone(zone.tzid), end: end.setZone(zone.tzid), timezone: zone.tzid };
}

/**
 * Text for a quoted parameter value (ORGANIZER's CN). RFC 5545 allows neither `"` nor an escape in
 * one, and ical-generator writes both with a backslash, which parsers read as the end of the value:
 * double quotes become single ones, backslashes slashes.
 */
function paramText(text: string): string {
  return text.replace(/"/g, "'").replace(/\\/g, '/');
}

/** The whole calendar object, CRLF line ends included. */
export function writeFeed(feed: Feed): string {
  const calendar = ical({
    prodId: PRODID,
    method: ICalCalendarMethod.PUBLISH,
    scale: 'GREGORIAN',
    name: feed.name,
    description: feed.description,
    url: feed.url,
    ttl: feed.refreshSeconds,
  });
  const siteZone = feedZone(feed.siteZone);
  calendar.x('X-WR-TIMEZONE', siteZone?.tzid ?? 'UTC');
  const zones = new Map<string, string>();
  for (const event of feed.events) {
    const zone = event.allDay ? null : feedZone(event.timezone);
    if (zone) zones.set(zone.tzid, zone.vtimezone);
    calendar.createEvent({
      id: event.uid,
      sequence: event.sequence,
      // The stamp is the last change, not the clock: a feed of unchanged events keeps its bytes,
      // so its ETag holds and clients get 304s.
      stamp: utc(event.modified),
      created: utc(event.created),
      lastModified: utc(event.modified),
      ...(event.allDay ? allDayTimes(event) : timedTimes(event, zone)),
      summary: event.summary,
      description: event.description || null,
      url: event.url,
      location: event.location
        ? { title: event.location.name, address: event.location.address, geo: event.location.geo }
        : null,
      categories: event.categories.map((name) => ({ name })),
      organizer: event.organizer ? { ...event.organizer, name: paramText(event.organizer.name) } : null,
      attachments: event.attach ? [event.attach] : [],
    });
  }
  return withCalendarParts(calendar.toString(), feed.description, [...zones.values()]);
}

/**
 * Adds what ical-generator does not write: the RFC 7986 calendar DESCRIPTION (it writes only
 * X-WR-CALDESC), and the VTIMEZONE blocks, after the calendar's properties and before its events
 * as RFC 5545's grammar orders them.
 */
function withCalendarParts(text: string, description: string, vtimezones: string[]): string {
  const parts = [foldLines(`DESCRIPTION:${escape(description, false)}`), ...vtimezones].map((part) => `${part}\r\n`);
  // A line of its own: folded lines go on with a space, so no text can start one.
  const events = text.indexOf('\r\nBEGIN:VEVENT\r\n');
  const at = events >= 0 ? events + 2 : text.lastIndexOf('END:VCALENDAR');
  const body = `${text.slice(0, at)}${parts.join('')}${text.slice(at)}`;
  return body.endsWith('\r\n') ? body : `${body}\r\n`;
}
