import { Type } from '@sinclair/typebox';
import { postListJson } from '../../http/pagination.js';
import { int, str, strict } from '../../http/schemas.js';
import { OrganizerJson, VenueJson } from '../linked/json.js';
import { GlobalId, GlobalIdLineage, ImageJson, JsonLd, PostStatus, PublicationDates, wall } from '../post-like/json.js';
import { EventTermJson } from '../terms/json.js';

/** Wire format of an event, as `representEvent` builds it (events.md 1). */

/** Booleans that a password-protected event in a list shows as `null` (events.md 1.12). */
const blankableBoolean = (description: string) => Type.Union([Type.Boolean(), Type.Null()], { description });

const two = (description: string) => Type.String({ description, pattern: '^\\d{2}$' });
export const DateDetailsJson = Type.Object(
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

export const CostDetailsJson = Type.Object(
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

const dateList = (description: string) =>
  Type.Array(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?$' }), { description });

/** The rule of a recurring series, on its first event (issue 34). */
export const RecurrenceJson = Type.Object(
  {
    rrule: str('The RFC 5545 recurrence rule, e.g. FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.'),
    rdates: dateList('Extra occurrence dates (YYYY-MM-DD at the series start time, or YYYY-MM-DD HH:MM:SS).'),
    exdates: dateList('Dates without an occurrence (YYYY-MM-DD, or the YYYY-MM-DD HH:MM:SS start).'),
  },
  { ...strict, description: 'How a series repeats; present on the first event of a recurring series only.' },
);

/** The series an occurrence belongs to. */
export const SeriesJson = Type.Object(
  {
    id: int('ID of the series: its first event.'),
    rest_url: str('REST URL of the first event of the series.'),
    detached: Type.Boolean({ description: 'Edited alone: series edits leave this occurrence as it is.' }),
  },
  { ...strict, description: 'The series of an occurrence; present on occurrences of a recurring series only.' },
);

export const EventJson = Type.Object(
  {
    id: int('Record ID.'),
    global_id: GlobalId,
    global_id_lineage: GlobalIdLineage,
    author: Type.String({ description: 'Author user ID, as a string.', pattern: '^\\d+$' }),
    status: PostStatus,
    ...PublicationDates,
    url: str('Public page URL.'),
    rest_url: str('REST URL of the event.'),
    title: str('Event title.'),
    description: str('Description (HTML).'),
    excerpt: str('Excerpt (HTML).'),
    slug: str('URL slug.'),
    image: Type.Union([ImageJson, Type.Literal(false)], { description: 'Featured image, or false.' }),
    all_day: blankableBoolean('Whether the event lasts the whole day.'),
    start_date: wall('Start, in the event time zone.'),
    start_date_details: DateDetailsJson,
    end_date: wall('End, in the event time zone.'),
    end_date_details: DateDetailsJson,
    utc_start_date: wall('Start, UTC.'),
    utc_start_date_details: DateDetailsJson,
    utc_end_date: wall('End, UTC.'),
    utc_end_date_details: DateDetailsJson,
    timezone: str('Time zone of the event.'),
    timezone_abbr: str('Time zone abbreviation at the start.'),
    cost: str('Display cost.'),
    cost_details: CostDetailsJson,
    website: str('Event website.'),
    show_map: blankableBoolean('Whether to show a map.'),
    show_map_link: blankableBoolean('Whether to show a map link.'),
    hide_from_listings: blankableBoolean('Whether the event is hidden from listings.'),
    sticky: blankableBoolean('Whether the event is sticky in month view.'),
    featured: blankableBoolean('Whether the event is featured.'),
    categories: Type.Array(EventTermJson, { description: 'Event categories.' }),
    tags: Type.Array(EventTermJson, { description: 'Event tags.' }),
    venue: Type.Union([VenueJson, Type.Array(VenueJson)], {
      description: 'The venue; a list when there are several, an empty list when none.',
    }),
    organizer: Type.Array(OrganizerJson, { description: 'Organizers, in link order.' }),
    custom_fields: Type.Union([Type.Array(Type.Unknown()), Type.Record(Type.String(), Type.Unknown())], {
      description: 'Additional fields (always empty).',
    }),
    recurrence: Type.Optional(RecurrenceJson),
    series: Type.Optional(SeriesJson),
    json_ld: Type.Optional(JsonLd),
  },
  { ...strict, description: 'An event.' },
);

export const EventListJson = postListJson('events', EventJson, 'A page of events.');
