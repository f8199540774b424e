import { sql, type SqlBool } from 'kysely';
import { onPostgres } from '../../db/connect.js';
import { can, type Requester } from '../../auth/capabilities.js';
import type { Role } from '../../auth/roles.js';
import { paddedIds } from '../../db/id-lists.js';
import { preparedInsert, preparedQuery, slotItems } from '../../db/prepared.js';
import type { Trx } from '../../db/tables.js';
import { coerceBySchema, coerceInteger, parseList } from '../../http/args.js';
import { paramReasons, restErrors } from '../../http/errors.js';
import type { Args, RequestContext, Validation } from '../../http/route.js';
import { boundedMemo } from '../../memo.js';
import type { Now } from '../post-like/dates.js';
import { nowIn } from '../post-like/dates.js';
import { isRecordId } from '../post-like/ids.js';
import { REGISTERED_STATUSES } from '../post-like/status.js';
import { visibleRecords } from '../post-like/visibility.js';
import { createArgs, isPhpEmpty } from './args.js';
import { byKind, type LinkedKind, type LinkedRow } from './kind.js';
import { selectLinked, untyped } from './repository.js';
import { representRows } from './routes.js';
import { createOrReuseLinked, type LinkedInput } from './write.js';

/**
 * What events need from venues and organizers (team contract; venues-organizers.md 7, events.md
 * 4.7, decisions.md E31/VO-17): the `venue`/`organizer` write input, the list filters, the links,
 * and the embedded records.
 */

type Item = { id: number } | { data: Record<string, unknown> } | null;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A numeric ID from a number or digit string; `undefined` for anything else. */
function numericId(value: unknown): number | undefined {
  if (typeof value === 'number') return isRecordId(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value))
    return isRecordId(Number(value)) ? Number(value) : undefined;
  return undefined;
}

/**
 * The input as a list of items (7.2, E31): PHP-empty → none; a scalar → its comma-separated IDs;
 * one object → one item; a list → its elements. `undefined` when some element is not usable.
 */
function itemsOf(value: unknown): Item[] | undefined {
  if (isPhpEmpty(value)) return [];
  if (typeof value === 'number' || typeof value === 'string') {
    const pieces = parseList(String(value)) ?? [];
    const ids = pieces.map(numericId);
    return ids.every((id) => id !== undefined) ? ids.map((id) => ({ id: id! })) : undefined;
  }
  const elements = Array.isArray(value) ? value : [value];
  const items: Item[] = [];
  for (const element of elements) {
    if (isPhpEmpty(element)) items.push(null);
    else if (isObject(element)) {
      if (isPhpEmpty(element.id)) items.push({ data: element });
      else {
        const id = numericId(element.id);
        if (id === undefined) return undefined;
        items.push({ id });
      }
    } else {
      const id = numericId(element);
      if (id === undefined) return undefined;
      items.push({ id });
    }
  }
  return items;
}

/** Which of `ids` are records of the kind (any status, trash included), in one query. */
async function existingIds(trx: Trx, kind: LinkedKind, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await trx
    .selectFrom('posts')
    .select('id')
    .where('type', '=', kind.type)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

const argTables = new WeakMap<LinkedKind, Args>();
function inlineArgs(kind: LinkedKind): Args {
  let table = argTables.get(kind);
  if (!table) argTables.set(kind, (table = createArgs(kind)));
  return table;
}

/**
 * The first field of inline data that fails the create validators of `POST /venues` /
 * `/organizers`, the name required (7.2 stage 1); `undefined` when the data passes.
 */
async function invalidInlineField(
  kind: LinkedKind,
  data: Record<string, unknown>,
  ctx: RequestContext,
): Promise<string | undefined> {
  for (const [name, arg] of Object.entries(inlineArgs(kind))) {
    const value = data[name];
    if (value === undefined || value === null) {
      if (arg.required) return name;
      continue;
    }
    if (arg.validate && (await arg.validate(value, ctx)) !== true) return name;
  }
  return undefined;
}

/** Inline data coerced like request arguments; PHP-empty values that are not strings read as empty. */
function inlineInput(kind: LinkedKind, data: Record<string, unknown>, ctx: RequestContext): LinkedInput {
  const input: LinkedInput = {};
  for (const [name, arg] of Object.entries(inlineArgs(kind))) {
    const value = data[name];
    if (value === undefined || value === null) continue;
    if (arg.parse) input[name] = arg.parse(value, ctx);
    else {
      const outcome = coerceBySchema(arg.schema, value);
      if (outcome.ok) input[name] = arg.normalize ? arg.normalize(outcome.value) : outcome.value;
      else if (isPhpEmpty(value)) input[name] = '';
    }
  }
  return input;
}

/**
 * Validator of the event `venue` / `organizer` write arguments (7.2 stage 1, E31): PHP-empty; IDs
 * (a scalar, a comma string or a list) of existing records of the kind; objects with such an `id`;
 * or data objects that pass the create validation. One ID query for the whole value.
 */
export async function validateLinkedInput(kind: LinkedKind, value: unknown, ctx: RequestContext): Promise<Validation> {
  const items = itemsOf(value);
  if (!items) return paramReasons.notAnId(kind.type, value, true);
  const ids = items.flatMap((item) => (item && 'id' in item ? [item.id] : []));
  const found = await existingIds(ctx.app.db, kind, ids);
  const unknown = ids.find((id) => !found.has(id));
  if (unknown !== undefined) return paramReasons.unknownLinked(kind.type, unknown);
  for (const item of items) {
    const field = item && 'data' in item ? await invalidInlineField(kind, item.data, ctx) : undefined;
    if (field !== undefined) return paramReasons.invalidLinkedData(kind.type, field);
  }
  return true;
}

/**
 * The record IDs an event write links, in order and without repeats, inside the event's
 * transaction (7.2 stage 2): IDs are checked, data objects create or reuse records through the
 * create path of `POST` (4.9, VO-11). `[]` for an empty value (unlink all, VO-16).
 */
export async function resolveLinkedInput(
  trx: Trx,
  kind: LinkedKind,
  value: unknown,
  ctx: RequestContext,
  now: Now = nowIn(ctx.settings.timezone),
): Promise<number[]> {
  const items = itemsOf(value);
  if (!items) throw restErrors.couldNotCreateLinked(kind.type);
  const ids = items.flatMap((item) => (item && 'id' in item ? [item.id] : []));
  const found = await existingIds(trx, kind, ids);
  const out: number[] = [];
  for (const item of items) {
    if (item === null) continue;
    if ('id' in item) {
      if (!found.has(item.id)) throw restErrors.invalidLinkedPostId();
      out.push(item.id);
      continue;
    }
    const input = inlineInput(kind, item.data, ctx);
    // Naming another author needs "edit others' posts", as on POST (decisions.md X 9).
    if (typeof input.author === 'number' && input.author !== ctx.user?.id && !can(ctx.user, 'edit_others_posts')) {
      throw restErrors.forbidden(ctx.user !== null);
    }
    out.push((await createOrReuseLinked(trx, kind, input, ctx, now)).id);
  }
  return [...new Set(out)];
}

/**
 * Replaces an event's links of the kind with `ids`, in that order (7.1). `created`: the event was
 * inserted in this transaction, so it has no links to remove.
 */
export async function setEventLinks(
  trx: Trx,
  kind: LinkedKind,
  eventId: number,
  ids: number[],
  created = false,
): Promise<void> {
  const db = untyped(trx);
  if (!created) await db.deleteFrom(kind.linkTable).where('event_id', '=', eventId).execute();
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  await insertLinks(kind)(
    trx,
    unique.map((id, position) => ({ event_id: eventId, [kind.linkColumn]: id, position })),
  );
}

const insertLinks = boundedMemo(8, byKind, (kind: LinkedKind) => preparedInsert(kind.linkTable));

/**
 * Validator of the events list `venue` / `organizer` filters: IDs (list or comma string) of existing records (events.md
 * 2.4).
 */
export async function validateLinkedFilter(kind: LinkedKind, value: unknown, ctx: RequestContext): Promise<Validation> {
  const list = parseList(value);
  const ids = (list ?? []).map((item) => coerceInteger(item));
  if (!ids.length || !ids.every(isRecordId)) return paramReasons.notAnId(kind.type, value, false);
  const found = await existingIds(ctx.app.db, kind, ids);
  const unknown = ids.find((id) => !found.has(id));
  return unknown === undefined || paramReasons.unknownLinked(kind.type, unknown);
}

/**
 * The records of a kind linked to each of the events, readable by `user`, with `event_id`, by event
 * and link order. The links are read first, then each record by its key. Left to join freely, both
 * planners read every record of the kind instead: PostgreSQL misjudges the links unless they are a
 * materialized common table expression, and SQLite keeps its join order only across CROSS JOIN.
 * Even from the expression, PostgreSQL may merge the records with `posts` in key order, and then
 * reads every post after the last record of the kind (organizers created before the events): there
 * the records' keys are also given as an array of the links' records, which it reads by key.
 */
export function linkedOfEventsQuery(trx: Trx, kind: LinkedKind, eventIds: readonly number[], user: Requester) {
  const links = untyped(trx)
    .with(
      (cte) => cte('l').materialized(),
      (db) =>
        db
          .selectFrom(kind.linkTable)
          .select(['event_id', `${kind.linkColumn} as record`, 'position'])
          .where('event_id', 'in', eventIds),
    )
    .selectFrom('l')
    .crossJoin('posts as p')
    .whereRef('p.id', '=', 'l.record')
    .$if(onPostgres(trx), (query) => query.where(sql<SqlBool>`${sql.ref('p.id')} = any(array(select record from l))`));
  return selectLinked(trx, kind, links)
    .select('l.event_id')
    .where(visibleRecords(user, REGISTERED_STATUSES, 'p'))
    .orderBy('l.event_id')
    .orderBy('l.position');
}

/** linkedOfEventsQuery prepared for a kind; the shape is the number of (padded) IDs and the caller's role. */
const linkedOfEventsPrepared = boundedMemo(8, byKind, (kind: LinkedKind) =>
  preparedQuery((trx, v: { ids: number[]; userId: number }, shape: string) => {
    const [size, role] = shape.split(':') as [string, Role | ''];
    return linkedOfEventsQuery(
      trx,
      kind,
      slotItems(v.ids, Number(size)),
      role ? { id: v.userId, login: '', role } : null,
    );
  }),
);

async function linkedOfEvents(trx: Trx, kind: LinkedKind, eventIds: number[], user: Requester) {
  const ids = paddedIds(eventIds);
  return (await linkedOfEventsPrepared(kind)(
    trx,
    { ids, userId: user?.id ?? 0 },
    `${ids.length}:${user?.role ?? ''}`,
  )) as Array<LinkedRow & { event_id: number }>;
}

/**
 * The records linked to each event, represented as embedded in events (1.10, events.md 1.7/1.8),
 * in link order, only those the caller may read (VO-29). One query for the links and records, one
 * for their images. `jsonLd` for single-event reads.
 */
export async function loadLinkedForEvents(
  trx: Trx,
  kind: LinkedKind,
  eventIds: number[],
  ctx: RequestContext,
  { jsonLd }: { jsonLd: boolean },
): Promise<Map<number, Record<string, unknown>[]>> {
  const out = new Map<number, Record<string, unknown>[]>(eventIds.map((id) => [id, []]));
  if (!eventIds.length) return out;
  const rows = await linkedOfEvents(trx, kind, eventIds, ctx.user);
  const items = await representRows(trx, kind, rows, ctx, { jsonLd });
  rows.forEach((row, i) => out.get(row.event_id)!.push(items[i]!));
  return out;
}

/**
 * The event's `venue` / `organizer` value (1.10, E31): organizers always a list; venues `[]` for
 * none, the object for one, the list for several.
 */
export function embeddedLinked(kind: LinkedKind, items: Record<string, unknown>[]): unknown {
  if (kind.type === 'organizer' || items.length !== 1) return items;
  return items[0];
}
