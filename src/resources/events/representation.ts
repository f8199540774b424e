import type { Urls } from '../../http/route.js';
import type { Settings } from '../../settings.js';
import { autop } from '../../text/html.js';
import { dateDetails, utcInstant } from '../../time/format.js';
import { zoneAbbr } from '../../time/zone.js';
import { representImage } from '../post-like/images.js';
import { authorString, globalId, postUrl } from '../post-like/urls.js';
import { costValues, deserializeCosts, displayCost, offerPrice, type StoredCost } from './cost.js';
import { wallTime } from './dates.js';
import { venueField, type EventRelated, type EventRow } from './repository.js';

/** What a representation needs of the request, decided before representing (style.md rule 5). */
export interface RepresentContext {
  urls: Urls;
  settings: Settings;
  /** Single reads add `json_ld` when the caller may see it (events.md 1.11). */
  jsonLd: boolean;
  /** A password-protected event in a list without access (events.md 1.12). */
  blankProtected: boolean;
}

function storedCost(row: Pick<EventRow, 'cost' | 'cost_symbol' | 'cost_position'>): StoredCost {
  return {
    costs: deserializeCosts(row.cost),
    symbol: row.cost_symbol,
    position: row.cost_position === 'prefix' || row.cost_position === 'postfix' ? row.cost_position : '',
  };
}

/**
 * Text in JSON-LD as the reference escapes it: HTML specials as entities (existing entities kept), `'` as `\'`,
 * newlines as `\n` (E9).
 */
function jsEscape(text: string): string {
  return text
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, "\\'")
    .replace(/\r?\n/g, '\\n');
}

/**
 * The excerpt, else the first 55 words of the description, as paragraphs (events.md 1.11), with
 * the newline `wpautop` ends every paragraph with: TEC's JSON-LD keeps it (E9).
 */
function jsonLdSummary(row: EventRow): string {
  const paragraphs = autop(row.excerpt.trim() ? row.excerpt : firstWords(row.description, 55));
  return paragraphs ? `${paragraphs}\n` : '';
}

function firstWords(html: string, count: number): string {
  const words = html
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  return words.length > count ? `${words.slice(0, count).join(' ')}…` : words.join(' ');
}

/** WordPress prefixes the title of a private post for those who may see it (`private_title_format`). */
function jsonLdName(row: EventRow): string {
  const title = row.title.trim();
  return row.status === 'private' ? `Private: ${title}` : title;
}

/** ISO 8601 with the event zone's offset at that instant, e.g. `2025-07-14T19:30:00-04:00`. */
function isoInZone(wall: string, zone: string): string {
  return wallTime(wall, zone).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

function eventJsonLd(row: EventRow, related: EventRelated, ctx: RepresentContext, url: string, cost: StoredCost) {
  const image = row.image_id === null ? undefined : related.images.get(row.image_id);
  const venues = related.venues.get(row.id) ?? [];
  const organizers = related.organizers.get(row.id) ?? [];
  const out: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: jsEscape(jsonLdName(row)),
    description: jsEscape(jsonLdSummary(row)),
  };
  if (image) out.image = image.url;
  out.url = url;
  out.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  out.eventStatus = 'https://schema.org/EventScheduled';
  out.startDate = isoInZone(row.start_date, row.timezone);
  out.endDate = isoInZone(row.end_date, row.timezone);
  if (venues.length) out.location = venues[0]!.json_ld ?? false;
  if (organizers.length) out.organizer = organizers[0]!.json_ld ?? false;
  if (cost.costs.length) {
    out.offers = {
      '@type': 'Offer',
      price: offerPrice(cost),
      priceCurrency: ctx.settings.currency_code || 'USD',
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${row.date.slice(0, 10)}T00:00:00+00:00`,
    };
  }
  out.performer = 'Organization';
  return out;
}

const EMPTY_COST_DETAILS = { currency_symbol: '', currency_code: '', currency_position: '', values: [] };

/**
 * An event as the reference shapes it (events.md 1.1), keys in its order. Pure: the row, the
 * related records loaded for the page and the request's view settle everything.
 */
export function representEvent(row: EventRow, related: EventRelated, ctx: RepresentContext): Record<string, unknown> {
  const url = postUrl(ctx.urls, 'event', row.slug);
  const id = globalId(ctx.urls, row.id);
  const cost = storedCost(row);
  const hasCost = cost.costs.length > 0;
  const blank = ctx.blankProtected;
  const flag = (value: number | null, unset: boolean) => (blank ? null : value === null ? unset : value === 1);
  const out: Record<string, unknown> = {
    id: row.id,
    global_id: id,
    global_id_lineage: [id],
    author: authorString(row.author),
    status: row.status,
    date: row.date,
    date_utc: row.date_utc,
    modified: row.modified,
    modified_utc: row.modified_utc,
    url,
    rest_url: `${ctx.urls.root}/events/${row.id}`,
    title: row.title.trim(),
    description: blank ? '' : autop(row.description),
    excerpt: blank ? '' : autop(row.excerpt),
    slug: row.slug,
    image: blank || row.image_id === null ? false : representImage(related.images.get(row.image_id)),
    all_day: flag(row.all_day, false),
    start_date: row.start_date,
    start_date_details: dateDetails(row.start_date),
    end_date: row.end_date,
    end_date_details: dateDetails(row.end_date),
    utc_start_date: row.utc_start_date,
    utc_start_date_details: dateDetails(row.utc_start_date),
    utc_end_date: row.utc_end_date,
    utc_end_date_details: dateDetails(row.utc_end_date),
    timezone: row.timezone,
    timezone_abbr: row.timezone ? zoneAbbr(row.timezone, utcInstant(row.utc_start_date)) : '',
    cost: blank ? '' : displayCost(cost, ctx.settings),
    cost_details: blank
      ? { currency_symbol: '', currency_position: '', currency_code: '', values: [] }
      : hasCost
        ? {
            currency_symbol: cost.symbol,
            currency_code: '',
            currency_position: cost.position,
            values: costValues(cost),
          }
        : EMPTY_COST_DETAILS,
    // An empty or missing website shows the event URL (decisions.md E4), unescaped (E41).
    website: blank ? '' : row.website || url,
    show_map: flag(row.show_map, true),
    show_map_link: flag(row.show_map_link, true),
    hide_from_listings: flag(row.hide_from_listings, false),
    sticky: flag(row.sticky, false),
    featured: flag(row.featured, false),
    categories: blank ? [] : (related.categories.get(row.id) ?? []),
    tags: blank ? [] : (related.tags.get(row.id) ?? []),
    venue: blank ? [] : venueField(related.venues.get(row.id) ?? []),
    organizer: blank ? [] : (related.organizers.get(row.id) ?? []),
    custom_fields: [],
  };
  const recurrence = related.series.recurrences.get(row.id);
  if (recurrence) out.recurrence = recurrence;
  const member = related.series.members.get(row.id);
  if (member) {
    out.series = {
      id: member.series_id,
      rest_url: `${ctx.urls.root}/events/${member.series_id}`,
      detached: member.detached,
    };
  }
  if (ctx.jsonLd) out.json_ld = eventJsonLd(row, related, ctx, url, cost);
  return out;
}
