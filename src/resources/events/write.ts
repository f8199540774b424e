import type { Insertable, Updateable } from 'kysely';
import { can } from '../../auth/capabilities.js';
import { preparedInsert } from '../../db/prepared.js';
import type { EventsTable, PostsTable, Trx } from '../../db/tables.js';
import type { RequestContext } from '../../http/route.js';
import { sanitizeInline, sanitizePost } from '../../text/html.js';
import { sanitizeSlug } from '../../text/slug.js';
import { normalizeZone } from '../../time/zone.js';
import { organizerKind, publishLinkedOfEvent, resolveLinkedInput, setEventLinks, venueKind } from '../linked/index.js';
import { publicationDates, type Now, type Publication } from '../post-like/dates.js';
import { resolveImageInput } from '../post-like/images.js';
import { insertPost } from '../post-like/insert.js';
import { uniqueSlug } from '../post-like/slug.js';
import { requestedStatus, scheduledStatus } from '../post-like/status.js';
import { restoreFromTrash } from '../post-like/trash.js';
import { categoryTaxonomy, resolveTermInput, setEventTerms, tagTaxonomy } from '../terms/index.js';
import { NO_COST, parseCostInput, serializeCosts } from './cost.js';
import { eventTimes, wallTime, type EventTimes } from './dates.js';
import type { EventRow, Unlinked } from './repository.js';
import type { EventWriteInput } from './schema.js';

/** Stored HTML is sanitized unless the site lets this caller store it verbatim (decisions.md X 16). */
function storeHtml(ctx: RequestContext, html: string, inline: boolean): string {
  if (ctx.settings.unfiltered_html && can(ctx.user, 'unfiltered_html')) return inline ? html.trim() : html;
  return inline ? sanitizeInline(html) : sanitizePost(html);
}

/** The zone an event's dates are read in: the request's `timezone`, else the stored one, else the site's (4.3, E34). */
function eventZone(given: string | null | undefined, ctx: RequestContext, current: EventRow | undefined): string {
  if (typeof given === 'string' && given !== '') return normalizeZone(given)!;
  if (given === undefined && current?.timezone) return current.timezone;
  return normalizeZone(ctx.settings.timezone) ?? 'UTC';
}

/** What a write stores of the event's times, and the zone they are in. */
type ZonedTimes = EventTimes & { timezone: string };

/**
 * Start, end, zone and all-day flag of a write (events.md 4.3, 4.4, decisions.md E27, E34): given
 * dates are read in the event zone; on update a missing bound keeps its stored wall clock, a new
 * zone alone keeps the wall clocks and recomputes UTC. `undefined` when nothing date-related changes.
 */
function nextTimes(input: EventWriteInput, ctx: RequestContext, current: EventRow | undefined): ZonedTimes | undefined {
  const touched = [input.start_date, input.end_date, input.timezone, input.all_day].some((v) => v !== undefined);
  if (current && !touched) return undefined;
  const zone = eventZone(input.timezone, ctx, current);
  const read = (name: 'start_date' | 'end_date') => {
    const date = input[name];
    if (date !== undefined && date !== null) return date(zone)!;
    return wallTime(current![name], zone);
  };
  const allDay = typeof input.all_day === 'boolean' ? input.all_day : current?.all_day === 1;
  return { ...eventTimes(read('start_date'), read('end_date'), allDay, zone), timezone: zone };
}

/**
 * What the event links, resolved (and created) before the event is written, in this order;
 * `undefined` where the request leaves the links as they are.
 */
interface Related {
  imageId: number | null;
  categories?: number[];
  tags?: number[];
  venues?: number[];
  organizers?: number[];
}

async function resolveRelated(
  trx: Trx,
  input: EventWriteInput,
  ctx: RequestContext,
  now: Now,
  current: EventRow | undefined,
): Promise<Related> {
  const imageId =
    input.image !== undefined ? await resolveImageInput(trx, input.image, ctx, now) : (current?.image_id ?? null);
  const categories =
    input.categories !== undefined
      ? await resolveTermInput(trx, categoryTaxonomy, input.categories ?? '', ctx)
      : undefined;
  const tags = input.tags !== undefined ? await resolveTermInput(trx, tagTaxonomy, input.tags ?? '', ctx) : undefined;
  const venues =
    input.venue !== undefined ? await resolveLinkedInput(trx, venueKind, input.venue, ctx, now) : undefined;
  const organizers =
    input.organizer !== undefined ? await resolveLinkedInput(trx, organizerKind, input.organizer, ctx, now) : undefined;
  return { imageId, categories, tags, venues, organizers };
}

/**
 * The relations a write leaves the event without: those it replaced with none, and on a new event
 * every one it named nothing for.
 */
function unlinkedAfter(related: Related, created: boolean): Unlinked {
  const none = (ids: number[] | undefined) => (ids ? ids.length === 0 : created);
  return {
    terms: none(related.categories) && none(related.tags),
    venues: none(related.venues),
    organizers: none(related.organizers),
  };
}

/** Replaces the links the request names; `created`: the event is new, so it has none to remove. */
async function linkRelated(trx: Trx, id: number, related: Related, created: boolean): Promise<void> {
  if (related.categories) await setEventTerms(trx, categoryTaxonomy, id, related.categories, created);
  if (related.tags) await setEventTerms(trx, tagTaxonomy, id, related.tags, created);
  if (related.venues) await setEventLinks(trx, venueKind, id, related.venues, created);
  if (related.organizers) await setEventLinks(trx, organizerKind, id, related.organizers, created);
}

/** The `posts` columns of a write: status, publication dates and image always. */
type PostChanges = Updateable<PostsTable> & Publication & { status: string };

/** The `posts` columns a write sets besides status, dates and image: on update only those sent. */
function postFields(input: EventWriteInput, ctx: RequestContext, post: PostChanges): PostChanges {
  if (typeof input.title === 'string') post.title = storeHtml(ctx, input.title, true);
  for (const name of ['description', 'excerpt'] as const)
    if (input[name] !== undefined) post[name] = storeHtml(ctx, input[name] ?? '', false);
  if (typeof input.author === 'number') post.author = input.author;
  if (input.post_password !== undefined) post.password = input.post_password ?? '';
  return post;
}

const flag = (value: unknown) => (value === true ? 1 : 0);

/** The `events` columns a write sets, its times included: on update only those sent. */
function eventFields(input: EventWriteInput, times: ZonedTimes | undefined): Updateable<EventsTable> {
  const event: Updateable<EventsTable> = { ...times };
  if (input.cost !== undefined) {
    const cost = input.cost === null ? NO_COST : parseCostInput(input.cost);
    Object.assign(event, { cost: serializeCosts(cost.costs), cost_symbol: cost.symbol, cost_position: cost.position });
  }
  if (input.website !== undefined) event.website = input.website ?? '';
  for (const name of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const) {
    if (input[name] !== undefined) event[name] = flag(input[name]);
  }
  return event;
}

const insertEvent = preparedInsert('events');

/** What an `events` row needs besides the fields with defaults. */
type NewEventRow = Updateable<EventsTable> & ZonedTimes & { post_id: number };

/** Inserts `events` rows (one per new event or occurrence), the fields not given at their defaults. */
export async function insertEventRows(trx: Trx, rows: readonly NewEventRow[]): Promise<void> {
  await insertEvent(
    trx,
    rows.map(
      (row) =>
        ({
          cost: '',
          website: null,
          show_map: 0,
          show_map_link: 0,
          hide_from_listings: 0,
          sticky: 0,
          featured: 0,
          ...row,
        }) satisfies Insertable<EventsTable>,
    ),
  );
}

/** Inserts a new event's `posts` row (its `events` row goes in once it is linked); returns its ID. */
async function insertNewPost(trx: Trx, ctx: RequestContext, post: PostChanges): Promise<number> {
  const [inserted] = await insertPost(trx, [
    {
      type: 'event',
      author: ctx.user!.id,
      title: '',
      description: '',
      excerpt: '',
      password: '',
      slug: '',
      parent_id: 0,
      // On creation the modification dates are copied from the publication dates (events.md 1.1).
      modified: post.date,
      modified_utc: post.date_utc,
      ...post,
    } satisfies Insertable<PostsTable>,
  ]);
  return inserted!.id;
}

/** Writes the changed rows of a stored event; leaving the trash gives it its slug back (common.md 8.4). */
async function updateStored(
  trx: Trx,
  current: EventRow,
  post: Updateable<PostsTable>,
  event: Updateable<EventsTable>,
  now: Now,
): Promise<void> {
  if (current.status === 'trash' && post.status !== 'trash') post.slug = await restoreFromTrash(trx, 'event', current);
  await trx
    .updateTable('posts')
    .set({ ...post, modified: now.local, modified_utc: now.utc })
    .where('id', '=', current.id)
    .execute();
  // Every update counts, so that calendar clients see the newer version (RFC 5545 3.8.7.4).
  await trx
    .updateTable('events')
    .set((eb) => ({ ...event, sequence: eb('sequence', '+', 1) }))
    .where('post_id', '=', current.id)
    .execute();
}

/**
 * Writes an event from a validated create or update request inside `trx` (events.md 4, 5,
 * decisions.md E25: everything it resolves or creates — image, terms, venues, organizers — lives
 * in the same transaction). Returns the event ID. A field of `input` is sent when it is not
 * `undefined`, and sent empty when it is `null` (decisions.md principle 3). Returns the event's ID
 * and the relations it is now known to lack.
 */
export async function writeEvent(
  trx: Trx,
  input: EventWriteInput,
  ctx: RequestContext,
  now: Now,
  current?: EventRow,
): Promise<{ id: number; unlinked: Unlinked }> {
  const requested = requestedStatus(ctx.user, input.status ?? undefined, current?.status);
  const publication = publicationDates(input, requested, ctx.settings.timezone, now, current);
  const status = scheduledStatus(requested, publication.date_utc, now.ms);
  const related = await resolveRelated(trx, input, ctx, now, current);
  const { date, date_utc } = publication;
  const post = postFields(input, ctx, { status, date, date_utc, image_id: related.imageId });

  // A slug for every status, unique among events (common.md 9.8, E33): the given one, else the
  // title's, else the ID. A new event gets it with its row unless only the ID yields one.
  const wanted = typeof input.slug === 'string' && input.slug !== ctx.path.slug ? input.slug : undefined;
  const slugBase = (wanted !== undefined && sanitizeSlug(wanted)) || sanitizeSlug(post.title ?? current?.title ?? '');
  if (!current && slugBase) post.slug = await uniqueSlug(trx, 'event', slugBase);

  const times = nextTimes(input, ctx, current);
  const event = eventFields(input, times);
  if (current) await updateStored(trx, current, post, event, now);
  const id = current ? current.id : await insertNewPost(trx, ctx, post);

  if (current ? wanted !== undefined : !slugBase) {
    const slug = await uniqueSlug(trx, 'event', slugBase || String(id), id);
    await trx.updateTable('posts').set({ slug }).where('id', '=', id).execute();
  }

  // Saving a published event publishes the drafts already linked to it (VO-28), before the links
  // of this request replace them: records linked in the same request are not linked yet.
  if (current && status === 'publish') await publishLinkedOfEvent(trx, [venueKind, organizerKind], id, ctx, now);
  await linkRelated(trx, id, related, !current);
  // After its links: an event without its row is new to every cached answer (migration 22).
  if (!current) await insertEventRows(trx, [{ post_id: id, ...event, ...times! }]);
  return { id, unlinked: unlinkedAfter(related, !current) };
}
