import type { Insertable, Updateable } from 'kysely';
import { can } from '../../auth/capabilities.js';
import { preparedInsert } from '../../db/prepared.js';
import type { EventsTable, PostsTable, Trx } from '../../db/tables.js';
import type { RequestContext } from '../../http/route.js';
import { sanitizeInline, sanitizePost } from '../../text/html.js';
import { sanitizeSlug } from '../../text/slug.js';
import { normalizeZone } from '../../time/zone.js';
import { organizerKind, publishLinkedOfEvent, resolveLinkedInput, setEventLinks, venueKind } from '../linked/index.js';
import { publicationDates, type Now } from '../post-like/dates.js';
import { resolveImageInput } from '../post-like/images.js';
import { insertPost } from '../post-like/insert.js';
import { uniqueSlug } from '../post-like/slug.js';
import { requestedStatus, scheduledStatus } from '../post-like/status.js';
import { restoreFromTrash } from '../post-like/trash.js';
import { categoryTaxonomy, resolveTermInput, setEventTerms, tagTaxonomy } from '../terms/index.js';
import { NO_COST, parseCostInput, serializeCosts } from './cost.js';
import { eventTimes, wallTime, type EventDateInput, type EventTimes } from './dates.js';
import type { EventRow } from './repository.js';

/** Whether the request sent the field at all (an explicit `null` included: decisions.md principle 3). */
const sent = (ctx: RequestContext, name: string) => Object.prototype.hasOwnProperty.call(ctx.given, name);

/** Stored HTML is sanitized unless the site lets this caller store it verbatim (decisions.md X 16). */
function storeHtml(ctx: RequestContext, html: string, inline: boolean): string {
  if (ctx.settings.unfiltered_html && can(ctx.user, 'unfiltered_html')) return inline ? html.trim() : html;
  return inline ? sanitizeInline(html) : sanitizePost(html);
}

/** The zone an event's dates are read in: the request's `timezone`, else the stored one, else the site's (4.3, E34). */
function eventZone(ctx: RequestContext, current: EventRow | undefined): string {
  const given = ctx.params.timezone as string | null | undefined;
  if (typeof given === 'string' && given !== '') return normalizeZone(given)!;
  if (given === undefined && current?.timezone) return current.timezone;
  return normalizeZone(ctx.settings.timezone) ?? 'UTC';
}

/**
 * Start, end, zone and all-day flag of a write (events.md 4.3, 4.4, decisions.md E27, E34): given
 * dates are read in the event zone; on update a missing bound keeps its stored wall clock, a new
 * zone alone keeps the wall clocks and recomputes UTC. `undefined` when nothing date-related changes.
 */
function nextTimes(
  ctx: RequestContext,
  current: EventRow | undefined,
): (EventTimes & { timezone: string }) | undefined {
  const touched = ['start_date', 'end_date', 'timezone', 'all_day'].some((name) => sent(ctx, name));
  if (current && !touched) return undefined;
  const zone = eventZone(ctx, current);
  const read = (name: 'start_date' | 'end_date') => {
    const date: EventDateInput | null | undefined = ctx.params[name];
    if (date !== undefined && date !== null) return date(zone)!;
    return wallTime(current![name], zone);
  };
  const allDay = typeof ctx.params.all_day === 'boolean' ? ctx.params.all_day : current?.all_day === 1;
  return { ...eventTimes(read('start_date'), read('end_date'), allDay, zone), timezone: zone };
}

const flag = (value: unknown) => (value === true ? 1 : 0);

const insertEvent = preparedInsert('events');

/**
 * Writes an event from a validated create or update request inside `trx` (events.md 4, 5,
 * decisions.md E25: everything it resolves or creates — image, terms, venues, organizers — lives
 * in the same transaction). Returns the event ID.
 */
export async function writeEvent(trx: Trx, ctx: RequestContext, now: Now, current?: EventRow): Promise<number> {
  const p = ctx.params;
  const site = ctx.settings.timezone;

  let status = requestedStatus(ctx.user, p.status ?? undefined, current?.status);
  const publication = publicationDates({ date: p.date, date_utc: p.date_utc }, status, site, now, current);
  status = scheduledStatus(status, publication.date_utc, now.ms);

  const imageId = sent(ctx, 'image')
    ? await resolveImageInput(trx, p.image, ctx, now)
    : current
      ? current.image_id
      : null;
  const categories = sent(ctx, 'categories')
    ? await resolveTermInput(trx, categoryTaxonomy, p.categories ?? '', ctx)
    : undefined;
  const tags = sent(ctx, 'tags') ? await resolveTermInput(trx, tagTaxonomy, p.tags ?? '', ctx) : undefined;
  const venues = sent(ctx, 'venue') ? await resolveLinkedInput(trx, venueKind, p.venue, ctx, now) : undefined;
  const organizers = sent(ctx, 'organizer')
    ? await resolveLinkedInput(trx, organizerKind, p.organizer, ctx, now)
    : undefined;

  const post: Updateable<PostsTable> = {
    status,
    date: publication.date,
    date_utc: publication.date_utc,
    image_id: imageId,
  };
  if (typeof p.title === 'string') post.title = storeHtml(ctx, p.title, true);
  for (const name of ['description', 'excerpt'] as const)
    if (sent(ctx, name)) post[name] = storeHtml(ctx, p[name] ?? '', false);
  if (typeof p.author === 'number') post.author = p.author;
  if (sent(ctx, 'post_password')) post.password = p.post_password ?? '';

  // A slug for every status, unique among events (common.md 9.8, E33): the given one, else the
  // title's, else the ID. A new event gets it with its row unless only the ID yields one.
  const wantsSlug = typeof p.slug === 'string' && p.slug !== ctx.path.slug;
  const slugBase =
    (wantsSlug && sanitizeSlug(p.slug)) || sanitizeSlug((post.title as string | undefined) ?? current?.title ?? '');
  if (!current && slugBase) post.slug = await uniqueSlug(trx, 'event', slugBase);

  const times = nextTimes(ctx, current);
  const event: Updateable<EventsTable> = { ...times };
  if (sent(ctx, 'cost')) {
    const cost = p.cost === null ? NO_COST : parseCostInput(p.cost);
    Object.assign(event, { cost: serializeCosts(cost.costs), cost_symbol: cost.symbol, cost_position: cost.position });
  }
  if (sent(ctx, 'website')) event.website = p.website ?? '';
  for (const name of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const) {
    if (sent(ctx, name)) event[name] = flag(p[name]);
  }

  let id: number;
  if (current) {
    id = current.id;
    if (current.status === 'trash' && status !== 'trash') post.slug = await restoreFromTrash(trx, 'event', current);
    await trx
      .updateTable('posts')
      .set({ ...post, modified: now.local, modified_utc: now.utc })
      .where('id', '=', id)
      .execute();
    if (Object.keys(event).length) await trx.updateTable('events').set(event).where('post_id', '=', id).execute();
  } else {
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
        modified: publication.date,
        modified_utc: publication.date_utc,
        ...post,
        status,
        date: publication.date,
        date_utc: publication.date_utc,
      } satisfies Insertable<PostsTable>,
    ]);
    id = inserted!.id;
    await insertEvent(trx, [
      {
        post_id: id,
        cost: '',
        website: null,
        show_map: 0,
        show_map_link: 0,
        hide_from_listings: 0,
        sticky: 0,
        featured: 0,
        ...event,
        ...times!,
      } satisfies Insertable<EventsTable>,
    ]);
  }

  if (current ? wantsSlug : !slugBase) {
    const slug = await uniqueSlug(trx, 'event', slugBase || String(id), id);
    await trx.updateTable('posts').set({ slug }).where('id', '=', id).execute();
  }

  // Saving a published event publishes the drafts already linked to it (VO-28), before the links
  // of this request replace them: records linked in the same request are not linked yet.
  if (current && status === 'publish') {
    for (const kind of [venueKind, organizerKind]) await publishLinkedOfEvent(trx, kind, id, ctx, now);
  }
  const created = !current;
  if (categories) await setEventTerms(trx, categoryTaxonomy, id, categories, created);
  if (tags) await setEventTerms(trx, tagTaxonomy, id, tags, created);
  if (venues) await setEventLinks(trx, venueKind, id, venues, created);
  if (organizers) await setEventLinks(trx, organizerKind, id, organizers, created);
  return id;
}
