import { Type } from '@sinclair/typebox';
import type { OwnedRecord } from '../../auth/capabilities.js';
import { args, coerceInteger, coerceNumber, isNonEmptyString, isTruthy, parseList } from '../../http/args.js';
import { paramReasons, restErrors } from '../../http/errors.js';
import { pagingArgs } from '../../http/pagination.js';
import { Valid, type ArgDef, type ArgValues, type RequiredArg, type Validation } from '../../http/route.js';
import { parseRecurrence, type Recurrence } from '../../time/recurrence.js';
import { normalizeZone } from '../../time/zone.js';
import { organizerKind, validateLinkedFilter, validateLinkedInput, venueKind } from '../linked/index.js';
import { authorArg } from '../post-like/author.js';
import { dateArg, publicationArgs } from '../post-like/dates.js';
import { imageArg } from '../post-like/images.js';
import { isRecordId } from '../post-like/ids.js';
import { modifiedArgs } from '../post-like/modified.js';
import { listStatusArg, statusArg } from '../post-like/status.js';
import { categoryTaxonomy, resolveTermFilter, tagTaxonomy } from '../terms/index.js';
import { eventDateArg } from './dates.js';
import { givenDate } from './list-conditions.js';
import { findEventById, findEventBySlug, findRecordOwner, type EventRow } from './repository.js';

/** A date bound of the list, read in UTC (events.md 2.2.6, E15). */
const listDate = (description: string) => dateArg(description, givenDate);

const text = (description: string): ArgDef<string> =>
  args.string(description, { validate: (v) => typeof v === 'string' });

/** `timezone`: empty (the site's), an IANA name, `UTC`, or `UTC±H`, `UTC±H:MM`, `UTC±H.5` (decisions.md E22). */
function isEventZone(value: unknown): Validation {
  if (value === '') return true;
  const known = typeof value === 'string' && /^[A-Za-z]/.test(value.trim()) && normalizeZone(value) !== null;
  return known || paramReasons.unknownTimezone(value);
}

/**
 * The event fields of create (`required` marks title and dates) and update (nothing required, no
 * defaults: decisions.md X 18), in the reference's order, plus the write-only `post_password` (E10).
 */
function fieldArgs(mode: 'create' | 'update') {
  const required = mode === 'create';
  return {
    author: authorArg('event'),
    ...publicationArgs('event'),
    title: args.string('The event title.', { required, nonEmpty: true }),
    description: text('The event description (HTML); an empty string clears it.'),
    slug: args.string('The event slug.', { nonEmpty: true, ...(mode === 'update' ? { in: 'body' as const } : {}) }),
    excerpt: text('The event excerpt (HTML); an empty string clears it.'),
    status: statusArg('event'),
    timezone: args.string(
      'The event time zone: an IANA name (America/New_York), UTC, or an offset such as UTC+5 or UTC-3.5; empty for the site time zone.',
      {
        validate: isEventZone,
      },
    ),
    all_day: args.boolean('Whether the event lasts the whole day.', {}, mode === 'create' ? { default: false } : {}),
    start_date: eventDateArg('The event start date and time, in the event time zone.', required),
    end_date: eventDateArg('The event end date and time, in the event time zone.', required),
    image: imageArg('event', { allowEmpty: mode === 'update' }),
    cost: args.any('The event cost: a text such as "10", "10-20", "Free" or "$5.50", a number, or a list of them.'),
    website: args.url('The event website: an http or https URL, or empty.'),
    show_map: args.boolean('Whether to show a map of the venue.'),
    show_map_link: args.boolean('Whether to show a link to a map of the venue.'),
    hide_from_listings: args.boolean('Whether to hide the event from event listings.'),
    sticky: args.boolean('Whether the event sticks in calendar views.'),
    featured: args.boolean('Whether the event is featured.'),
    categories: args.any(
      'Event categories: IDs or names, as a list or a comma-separated string; unknown names create categories.',
    ),
    tags: args.any('Event tags: IDs or names, as a list or a comma-separated string; unknown names create tags.'),
    venue: args.any(
      'Venues: IDs, or venue data objects to create venues from, as one value, a list or a comma-separated string.',
      { validate: (v, ctx) => validateLinkedInput(venueKind, v, ctx) },
    ),
    organizer: args.any(
      'Organizers: IDs, or organizer data objects to create organizers from, as a list or a comma-separated string.',
      { validate: (v, ctx) => validateLinkedInput(organizerKind, v, ctx) },
    ),
    post_password: args.string('A password that protects the event (write-only); an empty string removes it.'),
    recurrence: recurrenceArg,
  };
}

/** `recurrence` of writes: the event becomes (or stays) the first event of a series (issue 34). */
const recurrenceArg = args.any<Recurrence>(
  'Makes the event the first of a recurring series: {"rrule": RFC 5545 rule such as FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z, "rdates": extra dates, "exdates": dates left out}; dates as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS in the event time zone.',
  {
    validate: (v) => {
      const parsed = parseRecurrence(v);
      return 'problem' in parsed ? paramReasons.invalidRecurrence(parsed.problem) : new Valid(parsed);
    },
  },
  { type: 'object' },
);

/** `scope` of updates and deletes of series members (issue 34). */
const scopeArg = (choices: readonly string[], description: string) =>
  args.string<'all' | 'following'>(description, { validate: (v) => choices.includes(String(v)) }, { enum: choices });

export const EventCreateArgs = fieldArgs('create');

/** What an `{id}` names: a record of any type, judged by the permission, and the whole row when it is an event. */
export interface EventIdTarget {
  id: number;
  event: EventRow | undefined;
  record: OwnedRecord | undefined;
}

/** `{id}` of the ID routes: what it names is read once, for the permission and the handler (an unknown ID is a 404). */
const idArg: RequiredArg<EventIdTarget> = {
  schema: Type.Integer({ description: 'Unique identifier of the event.' }),
  required: true,
  in: 'path',
  validate: async (v, ctx) => {
    const id = coerceInteger(v);
    if (id === undefined) return false;
    const event = await findEventById(ctx.app.db, id);
    return new Valid({ id, event, record: event ?? (await findRecordOwner(ctx.app.db, id)) });
  },
};

const passwordArg = args.string('The password of a password-protected event.', { nonEmpty: true });

/** `{slug}` of the by-slug read and delete routes: the slug of an event, any status, else 400 (events.md 3.1). */
const slugPathArg: RequiredArg<EventRow> = {
  schema: Type.String({ description: 'The event slug.' }),
  required: true,
  in: 'path',
  validate: async (v, ctx) => {
    const row = typeof v === 'string' ? await findEventBySlug(ctx.app.db, v) : undefined;
    return row ? new Valid(row) : false;
  },
};

export const EventUpdateArgs = {
  id: idArg,
  password: passwordArg,
  ...fieldArgs('update'),
  scope: scopeArg(
    ['all', 'following'],
    'On a recurring series: all (the default on its first event) changes every occurrence not edited alone; following, on an occurrence, splits the series there into a new one. Without it an occurrence is edited alone.',
  ),
};
export const EventUpdateBySlugArgs = fieldArgs('update');
export const EventReadArgs = { id: idArg, password: passwordArg };
export const EventDeleteArgs = {
  id: idArg,
  password: passwordArg,
  scope: scopeArg(
    ['all'],
    'On a recurring series: all (the default on its first event) trashes the whole series. Without it an occurrence is trashed alone and its date added to the series exdates.',
  ),
};
export const EventBySlugArgs = { slug: slugPathArg };

/** The fields of a create or an update, as a write receives them (write.ts). */
export type EventWriteInput = ArgValues<typeof EventCreateArgs>;
export type EventUpdateInput = ArgValues<typeof EventUpdateArgs>;
export type EventReadInput = ArgValues<typeof EventReadArgs>;
export type EventDeleteInput = ArgValues<typeof EventDeleteArgs>;
export type EventBySlugInput = ArgValues<typeof EventBySlugArgs>;

const geolocCoordinate = (description: string, partner: string, limit: number) =>
  args.number(
    description,
    {
      // E19: both coordinates or neither.
      validate: (v, ctx) => {
        const n = coerceNumber(v);
        const other = ctx.raw[partner];
        return n !== undefined && Math.abs(n) <= limit && other !== undefined && other !== null && other !== '';
      },
    },
    { minimum: -limit, maximum: limit },
  );

/** `GET /events` parameters in the reference's order (events.md 2.1), plus `geoloc_radius` (E19). */
export const EventListArgs = {
  ...pagingArgs('events'),
  start_date: listDate('Only events starting on or after this date (whole days unless strict_dates).'),
  end_date: listDate('Only events ending on or before this date (whole days unless strict_dates).'),
  starts_before: listDate('Only events starting before this date.'),
  starts_after: listDate('Only events starting after this date.'),
  ends_before: listDate('Only events ending before this date.'),
  ends_after: listDate('Only events ending after this date.'),
  strict_dates: args.string(
    'When true (1, true, on, yes), the dates are used with their times; otherwise whole days are included.',
    {
      validate: (v) => isNonEmptyString(v),
      parse: (v) => ['1', 'true', 'on', 'yes'].includes(String(v).trim().toLowerCase()),
    },
    { default: 'false' },
  ),
  search: args.string(
    'Only events whose title, excerpt or description contain these words ("quoted phrases" kept together, -word excluded).',
    {
      validate: (v) => typeof v === 'string',
    },
  ),
  categories: args.any(
    'Only events in one of these categories (IDs or slugs; sub-categories included), as a list or a comma-separated string.',
    { validate: (v, ctx) => resolveTermFilter(categoryTaxonomy, v, ctx) },
    { type: 'array', items: { type: 'integer' } },
  ),
  tags: args.any(
    'Only events with one of these tags (IDs or slugs), as a list or a comma-separated string.',
    { validate: (v, ctx) => resolveTermFilter(tagTaxonomy, v, ctx) },
    { type: 'array', items: { type: 'integer' } },
  ),
  venue: args.idList('Only events at one of these venues (IDs).', {
    validate: (v, ctx) => validateLinkedFilter(venueKind, v, ctx),
  }),
  organizer: args.idList('Only events by one of these organizers (IDs).', {
    validate: (v, ctx) => validateLinkedFilter(organizerKind, v, ctx),
  }),
  featured: args.boolean('true: only featured events; false: only events that are not featured.'),
  status: listStatusArg('events'),
  geoloc: args.boolean('true: only events whose venue has coordinates; false: only events whose venue has none.'),
  geoloc_lat: geolocCoordinate(
    'Latitude of the centre of a venue distance search; needs geoloc_lng.',
    'geoloc_lng',
    90,
  ),
  geoloc_lng: geolocCoordinate(
    'Longitude of the centre of a venue distance search; needs geoloc_lat.',
    'geoloc_lat',
    180,
  ),
  geoloc_radius: args.number(
    'Radius of the venue distance search, in the unit of the geoloc_unit setting (default: the geoloc_radius setting).',
    {
      validate: (v) => {
        const n = coerceNumber(v);
        return n !== undefined && n > 0;
      },
    },
    { exclusiveMinimum: 0 },
  ),
  include: args.idList('Only events with these IDs (date filters then apply only through starts_*/ends_*).', {
    validate: (v) => {
      const list = parseList(v);
      return (
        !!list?.length &&
        list.every((x) => {
          const n = coerceInteger(x);
          return isRecordId(n) && !(typeof x === 'number' && !Number.isInteger(x));
        })
      );
    },
  }),
  post_parent: args.integer('Only events whose parent is this event.', {
    validate: async (v, ctx) => {
      const id = coerceInteger(v);
      return id !== undefined && id > 0 && (await findEventById(ctx.app.db, id)) !== undefined;
    },
  }),
  // Without a ticketing add-on `true` is refused with its own code (events.md 2.5, E18).
  ticketed: args.boolean('Filter by tickets; ticketing is not available, so only false is accepted.', {
    validate: (v) => (isTruthy(v) ? restErrors.eventTicketsNotActive() : true),
  }),
  ...modifiedArgs('events'),
};

export type EventListInput = ArgValues<typeof EventListArgs>;
