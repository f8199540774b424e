import { Type, type TSchema } from '@sinclair/typebox';
import { PARAM_REASON_CODES } from './errors.js';

/**
 * Wire formats of the records, list envelopes and errors (events.md 1, venues-organizers.md 1.1/1.2,
 * terms.md 1.2, common.md 4.1 and 6.1). `/doc` publishes them under `components.schemas` with
 * TEC's names (common.md 3.2); routes may declare them as their `response`.
 */

const WALL_TIME = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
const wall = (description: string) => Type.String({ description, pattern: WALL_TIME });
const str = (description: string) => Type.String({ description });
const int = (description: string) => Type.Integer({ description });
/** Booleans that a password-protected event in a list shows as `null` (events.md 1.12). */
const blankableBoolean = (description: string) => Type.Union([Type.Boolean(), Type.Null()], { description });
const strict = { additionalProperties: false };

export const PostStatus = Type.Union(
  ['publish', 'future', 'draft', 'pending', 'private', 'trash'].map((s) => Type.Literal(s)),
  { description: 'Publication status of the record.' },
);

export const ImageSize = Type.Object(
  {
    width: int('Width in pixels.'),
    height: int('Height in pixels.'),
    'mime-type': str('MIME type of the file.'),
    filesize: Type.Optional(int('File size in bytes.')),
    url: str('URL of the file.'),
  },
  { ...strict, description: 'One generated size of an image.' },
);

export const Image = Type.Object(
  {
    url: str('URL of the full-size image.'),
    id: int('ID of the image record.'),
    extension: Type.Optional(str('File extension, e.g. jpg.')),
    width: Type.Optional(int('Width in pixels.')),
    height: Type.Optional(int('Height in pixels.')),
    filesize: Type.Optional(int('File size in bytes.')),
    sizes: Type.Optional(Type.Record(Type.String(), ImageSize, { description: 'Generated sizes keyed by size name.' })),
  },
  { ...strict, description: 'A featured image; keys without a value are left out.' },
);

const two = (description: string) => Type.String({ description, pattern: '^\\d{2}$' });
export const DateDetails = Type.Object(
  {
    year: Type.String({ description: 'Four-digit year.', pattern: '^\\d{4}$' }),
    month: two('Two-digit month.'),
    day: two('Two-digit day of the month.'),
    hour: two('Two-digit hour (24-hour clock).'),
    minutes: two('Two-digit minutes.'),
    seconds: two('Two-digit seconds.'),
  },
  { ...strict, description: 'A date split into zero-padded strings.' },
);

export const CostDetails = Type.Object(
  {
    currency_symbol: str('Currency symbol inferred from the cost.'),
    currency_code: str('Currency code.'),
    currency_position: Type.Union([Type.Literal(''), Type.Literal('prefix'), Type.Literal('postfix')], {
      description: 'Where the currency symbol goes.',
    }),
    values: Type.Array(Type.String(), { description: 'The cost values found, as strings, lowest first.' }),
  },
  { ...strict, description: 'The parts of an event cost.' },
);

const TermUrls = Type.Object(
  {
    self: str('REST URL of the term.'),
    collection: str('REST URL of the term collection.'),
    up: Type.Optional(str('REST URL of the parent category.')),
  },
  { ...strict, description: 'REST URLs of the term.' },
);

const Taxonomy = Type.Union([Type.Literal('tribe_events_cat'), Type.Literal('post_tag')], {
  description: 'Taxonomy: tribe_events_cat for categories, post_tag for tags.',
});

const LinkList = Type.Array(Type.Object({ href: Type.String(), embeddable: Type.Optional(Type.Boolean()) }, strict));

/** A category or tag as the term routes return it (terms.md 1.2). */
export const Term = Type.Object(
  {
    id: int('Term ID.'),
    count: int('Number of published events carrying the term.'),
    description: str('Term description (HTML).'),
    name: str('Term name.'),
    slug: str('Term slug.'),
    taxonomy: Taxonomy,
    parent: Type.Optional(int('Parent category ID, 0 at the top level (categories only).')),
    meta: Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty.' }),
    url: str('Public archive URL of the term.'),
    urls: TermUrls,
    _links: Type.Optional(
      Type.Object(
        { self: LinkList, collection: LinkList, up: Type.Optional(LinkList) },
        { ...strict, description: 'Hypermedia links (single-term responses only).' },
      ),
    ),
  },
  { ...strict, description: 'An event category or tag.' },
);

/** A category or tag embedded in an event (events.md 1.6). */
export const EventTerm = Type.Object(
  {
    name: str('Term name.'),
    slug: str('Term slug.'),
    term_group: Type.Literal(0, { description: 'Always 0.' }),
    term_taxonomy_id: int('Equals the term ID.'),
    taxonomy: Taxonomy,
    description: str('Term description (HTML).'),
    parent: int('Parent category ID, 0 at the top level.'),
    count: int('Number of published events carrying the term.'),
    filter: Type.Literal('raw', { description: 'Always raw.' }),
    id: int('Term ID.'),
    urls: TermUrls,
  },
  { ...strict, description: 'A category or tag as shown inside an event.' },
);

const JsonLd = Type.Record(Type.String(), Type.Unknown(), { description: 'schema.org data (single reads only).' });

const GlobalId = str('Global ID: site host and path plus ?id= and the record ID.');
const GlobalIdLineage = Type.Array(Type.String(), {
  description: 'The global ID followed by any imported lineage IDs.',
});

/** Post-like fields shared by venues and organizers, in their key order (venues-organizers.md 1.1). */
const linkedHead = {
  id: int('Record ID.'),
  author: Type.Optional(Type.String({ description: 'Author user ID, as a string.', pattern: '^\\d+$' })),
  status: PostStatus,
  date: wall('Publication date, site time zone.'),
  date_utc: wall('Publication date, UTC.'),
  modified: wall('Last change, site time zone.'),
  modified_utc: wall('Last change, UTC.'),
  url: str('Public page URL.'),
};
const linkedText = {
  description: Type.Optional(str('Description (HTML).')),
  excerpt: Type.Optional(str('Excerpt (HTML).')),
  slug: Type.Optional(str('URL slug.')),
  image: Type.Optional(Image),
};
const opt = (description: string) => Type.Optional(str(description));

export const Venue = Type.Object(
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

export const Organizer = Type.Object(
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

export const Event = Type.Object(
  {
    id: int('Record ID.'),
    global_id: GlobalId,
    global_id_lineage: GlobalIdLineage,
    author: Type.String({ description: 'Author user ID, as a string.', pattern: '^\\d+$' }),
    status: PostStatus,
    date: wall('Publication date, site time zone.'),
    date_utc: wall('Publication date, UTC.'),
    modified: wall('Last change, site time zone.'),
    modified_utc: wall('Last change, UTC.'),
    url: str('Public page URL.'),
    rest_url: str('REST URL of the event.'),
    title: str('Event title.'),
    description: str('Description (HTML).'),
    excerpt: str('Excerpt (HTML).'),
    slug: str('URL slug.'),
    image: Type.Union([Image, Type.Literal(false)], { description: 'Featured image, or false.' }),
    all_day: blankableBoolean('Whether the event lasts the whole day.'),
    start_date: wall('Start, in the event time zone.'),
    start_date_details: DateDetails,
    end_date: wall('End, in the event time zone.'),
    end_date_details: DateDetails,
    utc_start_date: wall('Start, UTC.'),
    utc_start_date_details: DateDetails,
    utc_end_date: wall('End, UTC.'),
    utc_end_date_details: DateDetails,
    timezone: str('Time zone of the event.'),
    timezone_abbr: str('Time zone abbreviation at the start.'),
    cost: str('Display cost.'),
    cost_details: CostDetails,
    website: str('Event website.'),
    show_map: blankableBoolean('Whether to show a map.'),
    show_map_link: blankableBoolean('Whether to show a map link.'),
    hide_from_listings: blankableBoolean('Whether the event is hidden from listings.'),
    sticky: blankableBoolean('Whether the event is sticky in month view.'),
    featured: blankableBoolean('Whether the event is featured.'),
    categories: Type.Array(EventTerm, { description: 'Event categories.' }),
    tags: Type.Array(EventTerm, { description: 'Event tags.' }),
    venue: Type.Union([Venue, Type.Array(Venue)], {
      description: 'The venue; a list when there are several, an empty list when none.',
    }),
    organizer: Type.Array(Organizer, { description: 'Organizers, in link order.' }),
    custom_fields: Type.Union([Type.Array(Type.Unknown()), Type.Record(Type.String(), Type.Unknown())], {
      description: 'Additional fields (always empty).',
    }),
    json_ld: Type.Optional(JsonLd),
  },
  { ...strict, description: 'An event.' },
);

const links = {
  rest_url: str('REST URL of this page.'),
  next_rest_url: Type.Optional(str('REST URL of the next page.')),
  previous_rest_url: Type.Optional(str('REST URL of the previous page.')),
};
const totals = {
  total: int('Number of matching records over all pages.'),
  total_pages: int('Number of pages.'),
};
/** Post-like envelope (common.md 6.1). */
const postList = (key: string, item: TSchema, description: string) =>
  Type.Object({ [key]: Type.Array(item), ...links, ...totals }, { ...strict, description });
/** Term envelope (common.md 6.1). */
const termList = (key: string, description: string) =>
  Type.Object({ ...links, ...totals, [key]: Type.Array(Term) }, { ...strict, description });

export const EventList = postList('events', Event, 'A page of events.');
export const VenueList = postList('venues', Venue, 'A page of venues.');
export const OrganizerList = postList('organizers', Organizer, 'A page of organizers.');
export const CategoryList = termList('categories', 'A page of event categories.');
export const TagList = termList('tags', 'A page of event tags.');

/**
 * Why one parameter was refused: `data.details.{name}` of `rest_invalid_param` (README "Why a parameter was refused").
 */
export const ParamErrorDetail = Type.Object(
  {
    code: str(
      `Stable code of the reason: ${PARAM_REASON_CODES.join(', ')}; or the code of an error such as event-tickets-not-active.`,
    ),
    message: str('The parameter, its value and what would be accepted (English).'),
    data: Type.Unknown(),
  },
  { ...strict, description: 'Why a parameter of a rest_invalid_param error was refused.' },
);

/** The WordPress error body (common.md 4.1). */
export const ErrorBody = Type.Object(
  {
    code: str('Machine-readable error code.'),
    message: str('Human-readable message (English).'),
    data: Type.Union(
      [
        Type.Object(
          {
            status: int('HTTP status.'),
            // WordPress sends an empty list when no parameter has a detail.
            details: Type.Optional(
              Type.Union([Type.Record(Type.String(), ParamErrorDetail), Type.Array(Type.Unknown(), { maxItems: 0 })], {
                description: 'rest_invalid_param: why each refused parameter was refused, by parameter name.',
              }),
            ),
          },
          { additionalProperties: true },
        ),
        Type.Null(),
      ],
      { description: 'Error data; holds at least the HTTP status.' },
    ),
    additional_data: Type.Optional(Type.Array(Type.Unknown())),
    additional_errors: Type.Optional(Type.Array(Type.Unknown())),
  },
  { ...strict, description: 'An error in the WordPress shape.' },
);

type Json = Record<string, unknown>;

/**
 * A TypeBox schema as plain JSON Schema: sub-schemas found in `refs` (by identity) become
 * `$ref`s, and unions of literals become `enum` with their common `type`, so that discovery and
 * `/doc` show the values the validator accepts (common.md 2.1, 3.2).
 */
export function jsonSchemaOf(schema: TSchema, refs?: Map<TSchema, string>): Json {
  return convert(schema, refs, true) as Json;
}

function convert(node: unknown, refs: Map<TSchema, string> | undefined, top: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, refs, false));
  if (node === null || typeof node !== 'object') return node;
  const ref = top ? undefined : refs?.get(node as TSchema);
  if (ref) return { $ref: ref };
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = convert(value, refs, false);
  const members = out.anyOf;
  if (Array.isArray(members) && members.length > 0 && members.every(isLiteral)) {
    const types = new Set(members.map((m) => (m as Json).type));
    delete out.anyOf;
    const [type] = types;
    if (types.size === 1 && typeof type === 'string') out.type = type;
    out.enum = members.map((m) => (m as Json).const);
  }
  return out;
}

function isLiteral(member: unknown): boolean {
  return (
    member !== null &&
    typeof member === 'object' &&
    'const' in member &&
    Object.keys(member).every((k) => k === 'const' || k === 'type')
  );
}

const RouteLinks = Type.Object({ self: LinkList }, strict);

/** One route of the namespace index (common.md 2.1). */
export const DiscoveryRoute = Type.Object(
  {
    namespace: Type.String(),
    methods: Type.Array(Type.String()),
    endpoints: Type.Array(
      Type.Object(
        {
          methods: Type.Array(Type.String()),
          // WordPress serializes an empty argument list as [] (common.md 2.1).
          args: Type.Union([
            Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())),
            Type.Array(Type.Unknown(), { maxItems: 0 }),
          ]),
        },
        strict,
      ),
    ),
    _links: Type.Optional(RouteLinks),
  },
  { ...strict, description: 'A route with its methods and endpoint arguments.' },
);

export const NamespaceIndex = Type.Object(
  {
    namespace: Type.String(),
    routes: Type.Record(Type.String(), DiscoveryRoute),
    _links: Type.Object({ up: LinkList }, strict),
  },
  { ...strict, description: 'Every route of the namespace with its arguments.' },
);

export const ApiDocument = Type.Object(
  {
    openapi: Type.String(),
    info: Type.Object({ version: Type.String(), title: Type.String(), description: Type.String() }),
    servers: Type.Array(Type.Object({ url: Type.String() }), { minItems: 1 }),
    paths: Type.Record(Type.String(), Type.Unknown()),
    components: Type.Record(Type.String(), Type.Unknown()),
  },
  { description: 'An OpenAPI 3.1 document of the interface.' },
);

/**
 * Components of `/doc`, in TEC's order followed by the additions (common.md 3.1, 3.2). Schemas
 * are recognised by identity wherever a route's response uses them, and referenced by name.
 */
export const namedSchemas: Record<string, TSchema> = {
  ImageSize,
  CostDetails,
  Term,
  Image,
  DateDetails,
  Event,
  Venue,
  Organizer,
  EventTerm,
  EventList,
  VenueList,
  OrganizerList,
  CategoryList,
  TagList,
  Error: ErrorBody,
  ParamErrorDetail,
  DiscoveryRoute,
  NamespaceIndex,
  ApiDocument,
};

/** The record and list shapes of each collection, for endpoints that declare no `response`. */
export const collectionSchemas: Record<string, { record: TSchema; list: TSchema }> = {
  events: { record: Event, list: EventList },
  venues: { record: Venue, list: VenueList },
  organizers: { record: Organizer, list: OrganizerList },
  categories: { record: Term, list: CategoryList },
  tags: { record: Term, list: TagList },
};
