/**
 * A record of a TEC site's REST answers as the parameters of this service's create or update
 * request of the same record (events.md 4, venues-organizers.md 4, terms.md 5). IDs the record
 * names (categories, tags, venues, organizers, a parent) are translated to local ones by `local`;
 * a URL stays a URL (images are not downloaded, decisions.md E7).
 */

export type SourceRecord = Record<string, unknown>;

/** Source ID → local ID of already imported records, per kind. */
export interface LocalIds {
  category: Map<string, number>;
  tag: Map<string, number>;
  venue: Map<string, number>;
  organizer: Map<string, number>;
}

export const sourceIdOf = (record: SourceRecord): string => String(record.id);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Copies the fields `record` has, by name, when they are of the type named. */
function pick(record: SourceRecord, names: readonly string[], type: 'string' | 'boolean' | 'number') {
  const out: Record<string, unknown> = {};
  for (const name of names) if (typeof record[name] === type) out[name] = record[name];
  return out;
}

/** `image` is `false` or an object holding its `url`. */
function imageUrl(value: unknown): string | undefined {
  const url = (value as { url?: unknown } | null | undefined)?.url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/** The IDs of the linked records a field lists: an object, a list of objects, or `[]`. */
function linkedIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : [];
  return list.flatMap((item) => (item && typeof item === 'object' && 'id' in item ? [String(item.id)] : []));
}

/** Local IDs of the linked records, in the source's order; those not imported are left out. */
function localIds(value: unknown, known: Map<string, number>): number[] {
  return linkedIds(value).flatMap((id) => (known.has(id) ? [known.get(id)!] : []));
}

export function termParams(term: SourceRecord, parent?: number): Record<string, unknown> {
  const description = text(term.description);
  return {
    name: text(term.name),
    slug: text(term.slug),
    // A create takes no empty description (terms.md 5.1); an update clears with one (TERM_CLEARED).
    ...(description ? { description } : {}),
    ...(parent ? { parent } : {}),
  };
}

/** What a term update sends for what its source no longer has: no description, the top level (O9). */
export const TERM_CLEARED = { description: '' };
export const CATEGORY_CLEARED = { ...TERM_CLEARED, parent: 0 };

/** The category's parent's source ID, `undefined` at the top level. */
export function parentOf(term: SourceRecord): string | undefined {
  return typeof term.parent === 'number' && term.parent > 0 ? String(term.parent) : undefined;
}

const VENUE_TEXT = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince'] as const;

/** Venues and organizers: the name field is named after the kind. */
export function linkedParams(kind: 'venue' | 'organizer', record: SourceRecord): Record<string, unknown> {
  const params: Record<string, unknown> = {
    [kind]: text(record[kind]),
    description: text(record.description),
    ...pick(record, ['status', 'date_utc'], 'string'),
    ...pick(record, kind === 'venue' ? [...VENUE_TEXT, 'website'] : ['phone', 'website', 'email'], 'string'),
  };
  if (kind === 'venue')
    Object.assign(
      params,
      pick(record, ['show_map', 'show_map_link'], 'boolean'),
      pick(record, ['geo_lat', 'geo_lng'], 'number'),
    );
  const image = imageUrl(record.image);
  params.image = image ?? '';
  return params;
}

/**
 * The cost as an input that reads back the same: numeric values with the currency symbol on its
 * side, else the text as shown (`Free`), whose values are derived from it again.
 */
function costOf(event: SourceRecord): unknown {
  const details = event.cost_details as
    { values?: unknown; currency_symbol?: unknown; currency_position?: unknown } | undefined;
  const values = Array.isArray(details?.values) ? details.values.map(String) : [];
  const symbol = text(details?.currency_symbol);
  if (!values.length || !values.every((value) => /^\d+(\.\d+)?$/.test(value))) return text(event.cost);
  return values.map((value) => (details?.currency_position === 'postfix' ? `${value}${symbol}` : `${symbol}${value}`));
}

const EVENT_FLAGS = ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;

/** What an event update sends for a field its source no longer has. */
export const EVENT_CLEARED = { image: '' };

export function eventParams(event: SourceRecord, local: LocalIds): Record<string, unknown> {
  // TEC shows the event's own URL as its website when it has none (events.md 1.4).
  const website = text(event.website) === text(event.url) ? '' : text(event.website);
  return {
    title: text(event.title),
    description: text(event.description),
    excerpt: text(event.excerpt),
    slug: text(event.slug),
    ...pick(event, ['status', 'date_utc', 'timezone', 'start_date', 'end_date'], 'string'),
    ...pick(event, EVENT_FLAGS, 'boolean'),
    cost: costOf(event),
    website,
    ...(imageUrl(event.image) ? { image: imageUrl(event.image) } : {}),
    categories: localIds(event.categories, local.category),
    tags: localIds(event.tags, local.tag),
    venue: localIds(event.venue, local.venue),
    organizer: localIds(event.organizer, local.organizer),
  };
}
