import { Type } from '@sinclair/typebox';
import { postListJson } from '../../http/pagination.js';
import { int, str, strict } from '../../http/schemas.js';
import { GlobalId, GlobalIdLineage, ImageJson, JsonLd, PostStatus, PublicationDates } from '../post-like/json.js';

/** Wire formats of venues and organizers (venues-organizers.md 1.1/1.2). */

/** Post-like fields shared by venues and organizers, in their key order (venues-organizers.md 1.1). */
const linkedHead = {
  id: int('Record ID.'),
  author: Type.Optional(Type.String({ description: 'Author user ID, as a string.', pattern: '^\\d+$' })),
  status: PostStatus,
  ...PublicationDates,
  url: str('Public page URL.'),
};
const linkedText = {
  description: Type.Optional(str('Description (HTML).')),
  excerpt: Type.Optional(str('Excerpt (HTML).')),
  slug: Type.Optional(str('URL slug.')),
  image: Type.Optional(ImageJson),
};
const opt = (description: string) => Type.Optional(str(description));

export const VenueJson = Type.Object(
  {
    ...linkedHead,
    venue: opt('Venue name.'),
    ...linkedText,
    address: opt('Street address.'),
    city: opt('City.'),
    country: opt('Country.'),
    province: opt('Province.'),
    state: opt('State.'),
    zip: opt('Postal code.'),
    phone: opt('Phone number.'),
    website: opt('Website URL.'),
    stateprovince: opt('State or province.'),
    geo_lat: Type.Optional(Type.Number({ description: 'Latitude in decimal degrees.', minimum: -90, maximum: 90 })),
    geo_lng: Type.Optional(Type.Number({ description: 'Longitude in decimal degrees.', minimum: -180, maximum: 180 })),
    json_ld: Type.Optional(JsonLd),
    show_map: Type.Boolean({ description: 'Whether to show a map.' }),
    show_map_link: Type.Boolean({ description: 'Whether to show a map link.' }),
    global_id: GlobalId,
    global_id_lineage: GlobalIdLineage,
  },
  { ...strict, description: 'A venue; empty values are left out.' },
);

export const OrganizerJson = Type.Object(
  {
    ...linkedHead,
    organizer: opt('Organizer name.'),
    ...linkedText,
    phone: opt('Phone number.'),
    website: opt('Website URL.'),
    email: opt('E-mail address.'),
    json_ld: Type.Optional(JsonLd),
    global_id: GlobalId,
    global_id_lineage: GlobalIdLineage,
  },
  { ...strict, description: 'An organizer; empty values are left out.' },
);

export const VenueListJson = postListJson('venues', VenueJson, 'A page of venues.');
export const OrganizerListJson = postListJson('organizers', OrganizerJson, 'A page of organizers.');
