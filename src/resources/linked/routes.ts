import { can, canDeleteRecord, canEditRecord, canReadRecord } from '../../auth/capabilities.js';
import { recordTag, typeTag } from '../../db/cache-tags.js';
import type { Trx } from '../../db/tables.js';
import { isTruthy } from '../../http/args.js';
import { readsFrom } from '../../http/cache.js';
import { restErrors } from '../../http/errors.js';
import { listResponse, resolvePaging } from '../../http/pagination.js';
import {
  UPDATE_METHODS,
  defineRoute,
  endpoint,
  everyone,
  type ArgValues,
  type Args,
  type Endpoint,
  type Permission,
  type Reply,
  type RequestContext,
  type RouteDef,
} from '../../http/route.js';
import { mayChooseAuthor } from '../post-like/author.js';
import { modifiedOrder } from '../post-like/modified.js';
import { nowIn, type Now } from '../post-like/dates.js';
import { loadImages } from '../post-like/images.js';
import { publishDueForRead } from '../post-like/schedule.js';
import { listStatuses } from '../post-like/status.js';
import { createArgs, idArg, listArgs, slugArg, updateArgs, type LinkedListInput } from './args.js';
import type { LinkedKind, LinkedRow } from './kind.js';
import { listLinkParams, listWhere } from './list.js';
import { countLinked, getLinkedById, listLinkedPage } from './repository.js';
import { representLinked } from './represent.js';
import { createOrReuseLinked, trashLinked, updateLinked, type LinkedInput } from './write.js';

/** Represents rows with their images loaded in one query (style.md rule 5). */
export async function representRows(
  trx: Trx,
  kind: LinkedKind,
  rows: LinkedRow[],
  ctx: RequestContext,
  options: { jsonLd: boolean },
) {
  for (const row of rows) {
    ctx.readFrom?.add(recordTag(row.id));
    if (row.image_id !== null) ctx.readFrom?.add(recordTag(row.image_id));
  }
  const images = await loadImages(
    trx,
    rows.map((row) => row.image_id),
  );
  return rows.map((row) =>
    representLinked(kind, row, row.image_id === null ? undefined : images.get(row.image_id), ctx, options),
  );
}

/**
 * The answer to a write: the record as this request's transaction left it, read inside that
 * transaction, so that a concurrent write committed after it never shows in it.
 */
async function representWritten(trx: Trx, kind: LinkedKind, id: number, ctx: RequestContext) {
  const [item] = await representRows(trx, kind, [await getLinkedById(trx, kind, id)], ctx, { jsonLd: false });
  return item;
}

/**
 * The fields of `fields` the client sent, from the values of the endpoint's arguments. On create an
 * explicit `null` is the same as absent; on update it is an empty value that clears the field
 * (VO-20, decisions.md principle 3).
 */
function inputOf(fields: Args, values: Record<string, unknown>, { create }: { create: boolean }): LinkedInput {
  const input: LinkedInput = {};
  for (const name of Object.keys(fields)) {
    const value = values[name];
    if (value === undefined || (value === null && create)) continue;
    input[name] = value;
  }
  return input;
}

/** Creating needs "edit posts"; naming another author "edit others' posts" (decisions.md X 9). */
const mayCreate: Permission<{ author?: unknown }> = (ctx, input) =>
  can(ctx.user, 'edit_posts') && mayChooseAuthor(ctx.user, input?.author);

/**
 * Record-level checks once the record is resolved, by ID or by slug alike (decisions.md X 2, VO-12);
 * `Allow` is decided before it is, on the general rights.
 */
function mayEdit(ctx: RequestContext, row: LinkedRow | undefined, author: unknown): boolean {
  return (row ? canEditRecord(ctx.user, row) : can(ctx.user, 'edit_posts')) && mayChooseAuthor(ctx.user, author);
}

function mayDelete(ctx: RequestContext, row: LinkedRow | undefined): boolean {
  return row ? canDeleteRecord(ctx.user, row) : can(ctx.user, 'delete_posts');
}

async function listLinked(kind: LinkedKind, ctx: RequestContext, input: LinkedListInput): Promise<Reply> {
  const db = ctx.app.reads;
  const now = nowIn(ctx.settings.timezone);
  await publishDueForRead(ctx, now.utc);
  // Only `only_with_upcoming` compares with the clock (to the second).
  if (!isTruthy(input.only_with_upcoming)) ctx.freshUntil = Infinity;
  const paging = resolvePaging(input, ctx.settings);
  const where = listWhere(kind, ctx.user, input, { statuses: listStatuses(ctx.user, input.status), nowUtc: now.utc });
  const [total, rows] = await Promise.all([
    countLinked(db, kind, where),
    listLinkedPage(db, kind, where, paging.perPage, paging.offset, modifiedOrder(input, 'p')),
  ]);
  const items = await representRows(db, kind, rows, ctx, { jsonLd: false });
  return listResponse({
    ctx,
    collection: kind.collection,
    items,
    total,
    paging,
    linkParams: listLinkParams(ctx, input, paging.perPage),
    shape: { kind: 'post', pastEnd: () => restErrors.linkedArchivePageNotFound(kind.type) },
  });
}

/** `bySlug`: any write of the kind may give the slug to another record. */
async function readLinked(kind: LinkedKind, ctx: RequestContext, named: LinkedRow, bySlug: boolean): Promise<Reply> {
  const db = ctx.app.db;
  let row = named;
  if (row.status === 'future') {
    await publishDueForRead(ctx, nowIn(ctx.settings.timezone).utc);
    row = await getLinkedById(db, kind, row.id);
  }
  readsFrom(ctx, bySlug ? [typeTag(kind.type)] : []);
  if (!canReadRecord(ctx.user, row)) throw restErrors.linkedNotAccessible(kind.type);
  const [item] = await representRows(db, kind, [row], ctx, { jsonLd: true });
  return { body: item };
}

const aNounOf = (kind: LinkedKind) => `${/^[aeiou]/.test(kind.type) ? 'an' : 'a'} ${kind.type}`;

/** Runs a write in one transaction and answers the record it wrote, as the write left it. */
async function written(
  kind: LinkedKind,
  ctx: RequestContext,
  write: (trx: Trx, now: Now) => Promise<number>,
): Promise<unknown> {
  const now = nowIn(ctx.settings.timezone);
  return ctx.app.transact(async (trx) => {
    const id = await write(trx, now);
    return representWritten(trx, kind, id, ctx);
  });
}

/**
 * The read, delete and update endpoints of one record, named by `target` (its `{id}` or `{slug}`),
 * whose value `recordOf` reads. The update is typed by its target alone: its fields are read by
 * name (`inputOf`).
 */
function singleEndpoints<A extends Args>(
  kind: LinkedKind,
  target: A,
  recordOf: (input: ArgValues<A>) => LinkedRow,
  by: string,
): Endpoint[] {
  const aNoun = aNounOf(kind);
  const update = updateArgs(kind);
  return [
    endpoint({
      methods: ['GET'],
      args: target,
      permission: everyone,
      handler: (ctx, input) => readLinked(kind, ctx, recordOf(input), 'slug' in target),
      cache: 'data',
      summary: `Read ${aNoun}.`,
      errorStatuses: [400, 403],
    }),
    endpoint({
      methods: ['DELETE'],
      args: target,
      permission: (ctx, input) => mayDelete(ctx, input && recordOf(input)),
      handler: async (ctx, input) => {
        const row = recordOf(input);
        const body = await written(kind, ctx, async (trx, now) => {
          await trashLinked(trx, kind, row, now);
          return row.id;
        });
        return { body };
      },
      summary: `Move ${aNoun} to the trash.`,
      errorStatuses: [400, 401, 403, 410],
    }),
    endpoint<A>({
      methods: UPDATE_METHODS,
      args: { ...target, ...update },
      permission: (ctx, input) => mayEdit(ctx, input && recordOf(input), input?.author),
      handler: async (ctx, input) => {
        const row = recordOf(input);
        const changes = inputOf(update, input, { create: false });
        const body = await written(kind, ctx, async (trx, now) => {
          await updateLinked(trx, kind, row, changes, ctx, now);
          return row.id;
        });
        return { body };
      },
      summary: `Update ${aNoun} ${by}; only the fields sent change.`,
      errorStatuses: [400, 401, 403],
    }),
  ];
}

export function linkedRoutes(kind: LinkedKind): RouteDef[] {
  const plural = kind.collection;
  const create = createArgs(kind);
  return [
    defineRoute(`/${plural}`, [
      endpoint({
        methods: ['GET'],
        args: listArgs(kind),
        permission: everyone,
        handler: (ctx, input) => listLinked(kind, ctx, input),
        cache: 'clock',
        summary: `List ${plural}.`,
        errorStatuses: [400, 404],
      }),
      endpoint({
        methods: ['POST'],
        args: create,
        permission: mayCreate,
        handler: async (ctx, input) => {
          const changes = inputOf(create, input, { create: true });
          const body = await written(kind, ctx, async (trx, now) => {
            const outcome = await createOrReuseLinked(trx, kind, changes, ctx, now);
            return outcome.id;
          });
          return { status: 201, body };
        },
        summary: `Create ${aNounOf(kind)} (or reuse one with the same name).`,
        successStatus: 201,
        errorStatuses: [400, 401, 403],
      }),
    ]),
    defineRoute(
      `/${plural}/(?P<id>\\d+)`,
      singleEndpoints(kind, { id: idArg(kind) }, (input) => input.id, 'by ID'),
    ),
    defineRoute(
      `/${plural}/by-slug/(?P<slug>[^/]+)`,
      singleEndpoints(kind, { slug: slugArg(kind) }, (input) => input.slug, 'by slug'),
    ),
  ];
}
