import { can, canDeleteRecord, canEditRecord, canReadRecord } from '../../auth/capabilities.js';
import { bumpDataVersion } from '../../db/data-version.js';
import type { Trx } from '../../db/tables.js';
import { isTruthy } from '../../http/args.js';
import { restErrors } from '../../http/errors.js';
import { listResponse, resolvePaging } from '../../http/pagination.js';
import {
  UPDATE_METHODS,
  defineRoute,
  everyone,
  type Args,
  type Permission,
  type Reply,
  type RequestContext,
  type RouteDef,
} from '../../http/route.js';
import { mayChooseAuthor } from '../post-like/author.js';
import { nowIn } from '../post-like/dates.js';
import { loadImages } from '../post-like/images.js';
import { publishDueForRead } from '../post-like/schedule.js';
import { listStatuses } from '../post-like/status.js';
import { createArgs, idArg, listArgs, loadedRecord, slugArg, updateArgs } from './args.js';
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
 * The fields the client sent, coerced. On create an explicit `null` is the same as absent; on
 * update it is an empty value that clears the field (VO-20, decisions.md principle 3).
 */
function inputOf(fields: Args, ctx: RequestContext, { create }: { create: boolean }): LinkedInput {
  const input: LinkedInput = {};
  for (const name of Object.keys(fields)) {
    if (!(name in ctx.given)) continue;
    const value = ctx.params[name] ?? null;
    if (value === null && create) continue;
    input[name] = value;
  }
  return input;
}

export function linkedRoutes(kind: LinkedKind): RouteDef[] {
  const noun = kind.type;
  const plural = kind.collection;
  const aNoun = `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
  const create = createArgs(kind);
  const update = updateArgs(kind);

  const mayCreate: Permission = (ctx) => can(ctx.user, 'edit_posts') && mayChooseAuthor(ctx);
  // Record-level checks once the record is resolved, by ID or by slug alike (decisions.md X 2, VO-12).
  const mayEdit: Permission = (ctx) => {
    const row = loadedRecord(ctx);
    return (row ? canEditRecord(ctx.user, row) : can(ctx.user, 'edit_posts')) && mayChooseAuthor(ctx);
  };
  const mayDelete: Permission = (ctx) => {
    const row = loadedRecord(ctx);
    return row ? canDeleteRecord(ctx.user, row) : can(ctx.user, 'delete_posts');
  };

  const list = async (ctx: RequestContext): Promise<Reply> => {
    const db = ctx.app.reads;
    const now = nowIn(ctx.settings.timezone);
    await publishDueForRead(ctx, now.utc);
    // Only `only_with_upcoming` compares with the clock (to the second).
    if (!isTruthy(ctx.params.only_with_upcoming)) ctx.freshUntil = Infinity;
    const paging = resolvePaging({ page: ctx.params.page, per_page: ctx.params.per_page }, ctx.settings);
    const where = listWhere(kind, ctx, { statuses: listStatuses(ctx), nowUtc: now.utc });
    const [total, rows] = await Promise.all([
      countLinked(db, kind, where),
      listLinkedPage(db, kind, where, paging.perPage, paging.offset),
    ]);
    const items = await representRows(db, kind, rows, ctx, { jsonLd: false });
    return listResponse({
      ctx,
      collection: plural,
      items,
      total,
      paging,
      linkParams: listLinkParams(ctx, paging.perPage),
      shape: { kind: 'post', pastEnd: () => restErrors.linkedArchivePageNotFound(noun) },
    });
  };

  const read = async (ctx: RequestContext): Promise<Reply> => {
    const db = ctx.app.db;
    let row = loadedRecord(ctx)!;
    if (row.status === 'future') {
      await publishDueForRead(ctx, nowIn(ctx.settings.timezone).utc);
      row = await getLinkedById(db, kind, row.id);
    }
    if (!canReadRecord(ctx.user, row)) throw restErrors.linkedNotAccessible(noun);
    const [item] = await representRows(db, kind, [row], ctx, { jsonLd: true });
    return { body: item };
  };

  const post = async (ctx: RequestContext): Promise<Reply> => {
    const now = nowIn(ctx.settings.timezone);
    const body = await ctx.app.transact(async (trx) => {
      const written = await createOrReuseLinked(trx, kind, inputOf(create, ctx, { create: true }), ctx, now);
      await bumpDataVersion(trx);
      return representWritten(trx, kind, written.id, ctx);
    });
    return { status: 201, body };
  };

  const patch = async (ctx: RequestContext): Promise<Reply> => {
    const now = nowIn(ctx.settings.timezone);
    const row = loadedRecord(ctx)!;
    const body = await ctx.app.transact(async (trx) => {
      await updateLinked(trx, kind, row, inputOf(update, ctx, { create: false }), ctx, now);
      await bumpDataVersion(trx);
      return representWritten(trx, kind, row.id, ctx);
    });
    return { body };
  };

  const remove = async (ctx: RequestContext): Promise<Reply> => {
    const now = nowIn(ctx.settings.timezone);
    const row = loadedRecord(ctx)!;
    const body = await ctx.app.transact(async (trx) => {
      await trashLinked(trx, kind, row, now);
      await bumpDataVersion(trx);
      return representWritten(trx, kind, row.id, ctx);
    });
    return { body };
  };

  const single = (key: 'id' | 'slug', target: Args) => [
    {
      methods: ['GET' as const],
      args: target,
      permission: everyone,
      handler: read,
      cache: 'data' as const,
      summary: `Read ${aNoun}.`,
      errorStatuses: [400, 403],
    },
    {
      methods: ['DELETE' as const],
      args: target,
      permission: mayDelete,
      handler: remove,
      summary: `Move ${aNoun} to the trash.`,
      errorStatuses: [400, 401, 403, 410],
    },
    {
      methods: UPDATE_METHODS,
      args: { ...target, ...update },
      permission: mayEdit,
      handler: patch,
      summary: `Update ${aNoun} ${key === 'id' ? 'by ID' : 'by slug'}; only the fields sent change.`,
      errorStatuses: [400, 401, 403],
    },
  ];

  return [
    defineRoute(`/${plural}`, [
      {
        methods: ['GET'],
        args: listArgs(kind),
        permission: everyone,
        handler: list,
        cache: 'clock',
        summary: `List ${plural}.`,
        errorStatuses: [400, 404],
      },
      {
        methods: ['POST'],
        args: create,
        permission: mayCreate,
        handler: post,
        summary: `Create ${aNoun} (or reuse one with the same name).`,
        successStatus: 201,
        errorStatuses: [400, 401, 403],
      },
    ]),
    defineRoute(`/${plural}/(?P<id>\\d+)`, single('id', { id: idArg(kind) })),
    defineRoute(`/${plural}/by-slug/(?P<slug>[^/]+)`, single('slug', { slug: slugArg(kind) })),
  ];
}
