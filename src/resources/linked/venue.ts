import type { JsonLdInput, LinkedKind } from './kind.js';

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * `stateprovince` when the request gives none: the state for United States addresses, else the
 * province (venues-organizers.md 4.4), computed from the stored values merged with the request (VO-9).
 */
function deriveStateProvince(merged: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  if (nonEmpty(given.stateprovince)) return {};
  const country = typeof merged.country === 'string' ? merged.country : '';
  if (nonEmpty(merged.state) && ['', 'US', 'United States'].includes(country)) return { stateprovince: merged.state };
  if (nonEmpty(merged.province)) return { stateprovince: merged.province };
  return { stateprovince: '' };
}

/** schema.org `Place` (1.6 with VO-21: plain-text name and description, `url` = the record url). */
function placeJsonLd({ row, name, description, imageUrl, url }: JsonLdInput): Record<string, unknown> {
  const text = (key: string) => (typeof row[key] === 'string' ? (row[key] as string) : '');
  const region = text('stateprovince') || (text('country') === 'United States' ? text('state') : text('province'));
  const address: Record<string, unknown> = { '@type': 'PostalAddress' };
  const parts: Array<[string, string]> = [
    ['streetAddress', text('address')],
    ['addressLocality', text('city')],
    ['addressRegion', region],
    ['postalCode', text('zip')],
    ['addressCountry', text('country')],
  ];
  for (const [key, value] of parts) if (value !== '' && value !== '0') address[key] = value;
  const out: Record<string, unknown> = { '@type': 'Place', name, description };
  if (imageUrl) out.image = imageUrl;
  out.url = url;
  out.address = address;
  if (typeof row.geo_lat === 'number' && typeof row.geo_lng === 'number') {
    out.geo = { '@type': 'GeoCoordinates', latitude: row.geo_lat, longitude: row.geo_lng };
  }
  out.telephone = text('phone');
  out.sameAs = text('website');
  return out;
}

/** Venues: the attribute table of venues-organizers.md 1.1 / 4.2, plus native coordinates (E19). */
export const venueKind: LinkedKind = {
  type: 'venue',
  collection: 'venues',
  table: 'venues',
  linkTable: 'event_venues',
  linkColumn: 'venue_id',
  fields: [
    { name: 'address', kind: 'text', description: 'The venue street address.', searchable: true },
    { name: 'city', kind: 'text', description: 'The venue city.', searchable: true },
    { name: 'country', kind: 'text', description: 'The venue country (free text).' },
    { name: 'province', kind: 'text', description: 'The venue province.', searchable: true },
    { name: 'state', kind: 'text', description: 'The venue state.', searchable: true },
    { name: 'zip', kind: 'text', description: 'The venue ZIP or postal code.', searchable: true },
    { name: 'phone', kind: 'text', description: 'The venue phone number.', searchable: true },
    { name: 'website', kind: 'url', description: 'The venue website (an http or https URL).' },
    {
      name: 'stateprovince',
      kind: 'text',
      description: 'The venue state or province; derived from state/province when not given.',
      searchable: true,
    },
    {
      name: 'geo_lat',
      kind: 'coordinate',
      description: 'The venue latitude in decimal degrees (-90 to 90).',
      range: [-90, 90],
    },
    {
      name: 'geo_lng',
      kind: 'coordinate',
      description: 'The venue longitude in decimal degrees (-180 to 180).',
      range: [-180, 180],
    },
    {
      name: 'show_map',
      kind: 'flag',
      description: 'Whether to show a map of the venue (a truthy string or a boolean; default true).',
    },
    {
      name: 'show_map_link',
      kind: 'flag',
      description: 'Whether to show a link to a map of the venue (a truthy string or a boolean; default true).',
    },
  ],
  extensionFields: ['geo_lat', 'geo_lng'],
  nullDefaults: [
    'description',
    'show_map',
    'show_map_link',
    'address',
    'city',
    'country',
    'province',
    'state',
    'zip',
    'phone',
    'stateprovince',
    'website',
    'image',
  ],
  derive: { inputs: ['stateprovince', 'state', 'province', 'country'], apply: deriveStateProvince },
  jsonLd: placeJsonLd,
};
