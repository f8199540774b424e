import { timingSafeEqual } from 'node:crypto';
import { DateTime } from 'luxon';
import { can, canDeleteRecord, canEditRecord, canReadRecord } from '../../auth/capabilities.js';
import { recordTag, typeTag } from '../../db/cache-tags.js';
import type { Trx } from '../../db/tables.js';
import { readsFrom } from '../../http/cache.js';
import { restErrors } from '../../http/errors.js';
import { listResponse, resolvePaging } from '../../http/pagination.js';
import {
  UPDATE_METHODS,
  defineRoute,
  endpoint,
  everyone,
  type Permission,
  type RequestContext,
  type RouteDef,
} from '../../http/route.js';
import { formatWall } from '../../time/format.js';
import { mayChooseAuthor } from '../post-like/author.js';
import { nowIn } from '../post-like/dates.js';
import { publishDueForRead } from '../post-like/schedule.js';
import { jsonLdVisible } from '../post-like/visibility.js';
import { EventJson, EventListJson } from './json.js';
import { FEED_MEDIA_TYPE, listFeedUrl } from './feeds.js';
import { listConditions, listLinkParams, listReads, pageReads, readListPage, type ListPage } from './list.js';
import { representEvent } from './representation.js';
import { findEventBySlug, getEventById, loadRelated, type EventRow, type Unlinked } from './repository.js';
import { createEventOrSeries, trashEventOrSeries, updateEventOrSeries, type SeriesScope } from './series-edits.js';
import {
  EventBySlugArgs,
  EventCreateArgs,
  EventDeleteArgs,
  EventListArgs,
  EventReadArgs,
  EventUpdateArgs,
  EventUpdateBySlugArgs,
  type EventBySlugInput,
  type EventDeleteInput,
  type EventListInput,
  type EventReadInput,
  type EventUpdateInput,
  type EventWriteInput,
} from './schema.js';

/** Exactly equal, compared in constant time (events.md 3.2 step 5). */
function samePassword(given: unknown, stored: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Access to a protected event's content: no password, `context=edit` by an editor of it, or the password (common.md
 * 8.7).
 */
function hasPasswordAccess(row: EventRow, ctx: RequestContext): boolean {
  if (row.password === '') return true;
  if (ctx.raw.context === 'edit' && canEditRecord(ctx.user, row)) return true;
  return samePassword(ctx.raw.password, row.password);
}

const nowUtc = () => formatWall(DateTime.utc());

/** `jsonLd`: the event's own; `linkedJsonLd`: the embedded venues' and organizers' (single reads). */
async function represent(
  trx: Trx,
  row: EventRow,
  ctx: RequestContext,
  view: { jsonLd: boolean; linkedJsonLd: boolean; unlinked?: Unlinked },
) {
  const related = await loadRelated(trx, [row], ctx, { jsonLd: view.linkedJsonLd, unlinked: view.unlinked });
  return representEvent(row, related, {
    urls: ctx.urls,
    settings: ctx.settings,
    jsonLd: view.jsonLd,
    blankProtected: false,
  });
}

/**
 * `GET /events` (events.md 2): the page and its total (list.ts), one query per relation, then the
 * envelope, with a `Link` to the iCalendar feed of the same filters (feeds.ts). Cached while what
 * the list reads (`listReads`) and the records it shows keep their versions; its page is kept apart
 * (`listItems`).
 */
async function listEvents(ctx: RequestContext, input: EventListInput) {
  const paging = resolvePaging(input, ctx.settings);
  const conditions = listConditions(ctx, input);
  const reads = listReads(conditions);
  if (reads) readsFrom(ctx, reads);
  const page = await readListPage(ctx, conditions, paging);
  return listResponse({
    ctx,
    collection: 'events',
    items: await listItems(ctx, page, paging.perPage),
    total: page.total,
    paging,
    linkParams: listLinkParams(ctx, input, paging.perPage),
    shape: { kind: 'post', pastEnd: restErrors.eventArchivePageNotFound },
    alternate: { url: listFeedUrl(ctx, input), type: FEED_MEDIA_TYPE },
  });
}

/** A list's page as kept for the next build of its answer (as JSON text): the records' JSON and the tags they added. */
interface KeptPage {
  items: ReturnType<typeof representEvent>[];
  records: string[];
}

/**
 * The page's records as JSON. A full page of a list read again is kept (`ctx.answerPart`) under the
 * tags of what it was built from (`pageReads`): a write that moves the list's total alone (an event
 * created after the page's last record) leaves it to the next build, which counts the total again
 * and takes the page.
 */
async function listItems(ctx: RequestContext, page: ListPage, perPage: number) {
  const text = ctx.readFrom && ctx.answerPart?.take();
  if (text) {
    const kept = JSON.parse(text) as KeptPage;
    for (const tag of kept.records) ctx.readFrom!.add(tag);
    return kept.items;
  }
  // What the list named before its page: the page's own tags are the ones added after.
  const listed = ctx.readFrom && ctx.answerPart?.keeps ? new Set(ctx.readFrom) : undefined;
  const rows = await page.rows();
  const related = await loadRelated(ctx.app.db, rows, ctx, { jsonLd: false });
  const base = { urls: ctx.urls, settings: ctx.settings, jsonLd: false };
  const items = rows.map((row) =>
    representEvent(row, related, { ...base, blankProtected: !hasPasswordAccess(row, ctx) }),
  );
  const position = listed && pageReads(listed, page, rows, perPage);
  if (position) {
    const records = [...ctx.readFrom!].filter((tag) => !listed.has(tag));
    const part: KeptPage = { items, records };
    ctx.answerPart?.keep(JSON.stringify(part), [...records, ...position], ctx.freshUntil);
  }
  return items;
}

/** Steps 3–6 of a single read (events.md 3.2). */
async function readResponse(row: EventRow, ctx: RequestContext) {
  if (row.status === 'trash') throw restErrors.eventNoLongerAvailable();
  if (row.status !== 'publish' && !canReadRecord(ctx.user, row)) throw restErrors.eventNotAccessible();
  if (!hasPasswordAccess(row, ctx)) throw restErrors.eventPasswordProtected();
  // A password-protected event carries no JSON-LD (events.md 1.11). The embedded records follow
  // their own rule (venues-organizers.md 1.6), so such an event read with its password keeps
  // theirs though it loses its own, as in TEC.
  const jsonLd = row.password === '' && jsonLdVisible(row.status, ctx.user);
  return { body: await represent(ctx.app.db, row, ctx, { jsonLd, linkedJsonLd: true }) };
}

/**
 * The event a read names, as its path argument loaded it, once the records whose time has come are
 * published; read again if it was scheduled (it may be among them), or if it is not an event (the
 * errors of `getEventById`).
 */
async function namedEvent(ctx: RequestContext, id: number, loaded: EventRow | undefined): Promise<EventRow> {
  await publishDueForRead(ctx, nowUtc());
  return loaded && loaded.status !== 'future' ? loaded : getEventById(ctx.app.db, id);
}

async function readEvent(ctx: RequestContext, { id }: EventReadInput) {
  const row = await namedEvent(ctx, id.id, id.event);
  readsFrom(ctx, [recordTag(row.id)]);
  return readResponse(row, ctx);
}

/** Any event's write may give the slug to another event. */
async function readEventBySlug(ctx: RequestContext, { slug: named }: EventBySlugInput) {
  const row = await namedEvent(ctx, named.id, named);
  readsFrom(ctx, [recordTag(row.id), typeTag('event')]);
  return readResponse(row, ctx);
}

/**
 * The answer to a write: the event as this request's transaction left it, read inside that
 * transaction, so that a concurrent write committed after it never shows in it.
 */
async function representWritten(trx: Trx, id: number, ctx: RequestContext, unlinked?: Unlinked) {
  return represent(trx, await getEventById(trx, id), ctx, { jsonLd: false, linkedJsonLd: false, unlinked });
}

/** `POST /events` (events.md 4): one transaction for the event and everything it creates. */
async function createEvent(ctx: RequestContext, input: EventWriteInput) {
  const now = nowIn(ctx.settings.timezone);
  const body = await ctx.app.transact(async (trx) => {
    const { id, unlinked } = await createEventOrSeries(trx, input, ctx, now);
    return representWritten(trx, id, ctx, unlinked);
  });
  return { status: 201, body };
}

/** Writes read the event again inside their transaction: what they change is the event as it is then. */
async function updateWith(
  ctx: RequestContext,
  input: EventWriteInput,
  find: (trx: Trx) => Promise<EventRow>,
  scope?: SeriesScope | null,
) {
  const now = nowIn(ctx.settings.timezone);
  const body = await ctx.app.transact(async (trx) => {
    const current = await find(trx);
    const unlinked = await updateEventOrSeries(trx, input, ctx, now, current, scope ?? undefined);
    return representWritten(trx, current.id, ctx, unlinked);
  });
  return { body };
}

/** Update by ID (events.md 5.1, E34): a true partial update. */
const updateEvent = (ctx: RequestContext, input: EventUpdateInput) =>
  updateWith(ctx, input, (trx) => getEventById(trx, input.id.id), input.scope);

/** Update by slug: the path slug names the event, a body `slug` renames it (decisions.md X 3, E35). */
const updateEventBySlug = (ctx: RequestContext, input: EventWriteInput) =>
  updateWith(ctx, input, async (trx) => {
    const row = await findEventBySlug(trx, ctx.path.slug ?? '');
    if (!row) throw restErrors.eventNotFound(0);
    return row;
  });

async function trashWith(ctx: RequestContext, find: (trx: Trx) => Promise<EventRow>, scope?: SeriesScope | null) {
  const now = nowIn(ctx.settings.timezone);
  const body = await ctx.app.transact(async (trx) => {
    const row = await find(trx);
    if (row.status === 'trash' || !(await trashEventOrSeries(trx, row, now, scope ?? undefined)))
      throw restErrors.eventIsInTrash();
    return representWritten(trx, row.id, ctx);
  });
  return { body };
}

/** DELETE moves the event to the trash (events.md 6, common.md 8.5); the purge removes it for good. */
const deleteEvent = (ctx: RequestContext, { id, scope }: EventDeleteInput) =>
  trashWith(ctx, (trx) => getEventById(trx, id.id), scope);
const deleteEventBySlug = (ctx: RequestContext, { slug }: EventBySlugInput) =>
  trashWith(ctx, (trx) => getEventById(trx, slug.id));

/** Creating needs "edit events"; naming another author "edit others' events" (common.md 7.4, E23). */
const canCreateEvent: Permission<EventWriteInput> = (ctx, input) =>
  can(ctx.user, 'edit_posts') && mayChooseAuthor(ctx.user, input?.author);

/** The record the ID names, any type, judged as such; an unknown ID needs only the general right (5.1, 6.1). */
const canUpdateById: Permission<EventUpdateInput> = (ctx, input) => {
  const record = input?.id.record;
  return (
    (record ? canEditRecord(ctx.user, record) : can(ctx.user, 'edit_posts')) && mayChooseAuthor(ctx.user, input?.author)
  );
};

/**
 * By slug: the per-event checks of the ID routes once the slug is resolved (decisions.md X 2). The
 * path slug is no argument of this endpoint (`slug` is the new slug, E35), so the event is read
 * here, for `Allow` as for the call.
 */
const canUpdateBySlug: Permission<EventWriteInput> = async (ctx, input) => {
  const row = await findEventBySlug(ctx.app.db, ctx.path.slug ?? '');
  return (row ? canEditRecord(ctx.user, row) : can(ctx.user, 'edit_posts')) && mayChooseAuthor(ctx.user, input?.author);
};

const canDeleteById: Permission<EventDeleteInput> = (ctx, input) => {
  const record = input?.id.record;
  return record ? canDeleteRecord(ctx.user, record) : can(ctx.user, 'delete_posts');
};

/** Judged on the event the slug names, which is known only once the arguments are validated (not for `Allow`). */
const canDeleteBySlug: Permission<EventBySlugInput> = (ctx, input) =>
  input !== undefined && canDeleteRecord(ctx.user, input.slug);

/** `/events`: the list and the create. */
const collectionEndpoints = () => [
  endpoint({
    methods: ['GET'],
    args: EventListArgs,
    permission: everyone,
    handler: listEvents,
    cache: 'clock',
    summary: 'List events',
    response: EventListJson,
    errorStatuses: [400, 404],
  }),
  endpoint({
    methods: ['POST'],
    args: EventCreateArgs,
    permission: canCreateEvent,
    handler: createEvent,
    summary: 'Create an event',
    response: EventJson,
    successStatus: 201,
    errorStatuses: [400, 401, 403],
  }),
];

/** `/events/{id}`. */
const byIdEndpoints = () => [
  endpoint({
    methods: ['GET'],
    args: EventReadArgs,
    permission: everyone,
    handler: readEvent,
    cache: 'data',
    summary: 'Read an event',
    response: EventJson,
    errorStatuses: [400, 403, 404],
  }),
  endpoint({
    methods: ['DELETE'],
    args: EventDeleteArgs,
    permission: canDeleteById,
    handler: deleteEvent,
    summary: 'Move an event to the trash',
    response: EventJson,
    errorStatuses: [400, 401, 403, 404, 410],
  }),
  endpoint({
    methods: UPDATE_METHODS,
    args: EventUpdateArgs,
    permission: canUpdateById,
    handler: updateEvent,
    summary: 'Update an event',
    response: EventJson,
    errorStatuses: [400, 401, 403, 404],
  }),
];

/** `/events/by-slug/{slug}`. */
const bySlugEndpoints = () => [
  endpoint({
    methods: ['GET'],
    args: EventBySlugArgs,
    permission: everyone,
    handler: readEventBySlug,
    cache: 'data',
    summary: 'Read an event by slug',
    response: EventJson,
    errorStatuses: [400, 403],
  }),
  endpoint({
    methods: ['DELETE'],
    args: EventBySlugArgs,
    permission: canDeleteBySlug,
    handler: deleteEventBySlug,
    summary: 'Move an event to the trash by slug',
    response: EventJson,
    errorStatuses: [400, 401, 403, 410],
  }),
  endpoint({
    methods: UPDATE_METHODS,
    args: EventUpdateBySlugArgs,
    permission: canUpdateBySlug,
    handler: updateEventBySlug,
    summary: 'Update an event by slug',
    response: EventJson,
    errorStatuses: [400, 401, 403, 404],
  }),
];

/** The events routes in registration order (common.md 1.2). */
export function eventRoutes(): RouteDef[] {
  return [
    defineRoute('/events', collectionEndpoints()),
    defineRoute('/events/(?P<id>\\d+)', byIdEndpoints()),
    defineRoute('/events/by-slug/(?P<slug>[^/]+)', bySlugEndpoints()),
  ];
}
