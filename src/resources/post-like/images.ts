import { Type } from '@sinclair/typebox';
import { can } from '../../auth/capabilities.js';
import { paddedIds } from '../../db/id-lists.js';
import { preparedQuery, slotItems } from '../../db/prepared.js';
import { coerceInteger } from '../../http/args.js';
import { parseHttpUrl } from '../../text/url.js';
import type { ArgDef, RequestContext } from '../../http/route.js';
import type { ImagesTable, Trx } from '../../db/tables.js';
import type { Now } from './dates.js';
import { isRecordId } from './ids.js';

/** Image records (decisions.md E7): URL, MIME type, extension, width/height when known. */
export type ImageRow = ImagesTable;

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
};

/** `true` for an empty `image` value: `""`, `0`, `null` (decisions.md E7: removes the image on update). */
function isEmptyImage(value: unknown): boolean {
  return value === null || value === '' || value === 0 || value === '0';
}

/** The last path segment without its extension, as the image's title; kept encoded when it does not decode. */
function fileName(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    // A stray `%` is a client's typo, not a reason to refuse the image.
  }
  return name.replace(/\.[^.]*$/, '');
}

function extensionOf(url: URL): string {
  const m = /\.([a-z0-9]+)$/i.exec(url.pathname);
  return m ? m[1]!.toLowerCase() : '';
}

/** HEAD check of an image URL: 200 with an image content type (setting `image_url_check`, E7). */
async function answersWithImage(url: URL): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(5000) });
    return res.status === 200 && /^image\//i.test(res.headers.get('content-type') ?? '');
  } catch {
    return false;
  }
}

async function isImageRecord(trx: Trx, id: number): Promise<boolean> {
  const row = await trx
    .selectFrom('posts')
    .innerJoin('images', 'images.post_id', 'posts.id')
    .select('posts.id')
    .where('posts.id', '=', id)
    .where('posts.type', '=', 'image')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The `image` argument (common.md 5.3, decisions.md E7): the ID of an image record, or an absolute
 * URL from a caller who may upload files (checked with HEAD when `image_url_check` is on).
 * `allowEmpty` lets `""`, `0` or `null` through (updates, where they remove the image).
 */
export function imageArg(noun: string, { allowEmpty }: { allowEmpty: boolean }): ArgDef<string | number> {
  return {
    schema: Type.String({ description: `The ${noun}'s featured image: an image ID or an image URL.` }),
    validate: async (value, ctx) => {
      if (isEmptyImage(value)) return allowEmpty;
      const id = coerceInteger(value);
      if (id !== undefined) return isRecordId(id) && (await isImageRecord(ctx.app.db, id));
      if (typeof value !== 'string' || !can(ctx.user, 'upload_files')) return false;
      const url = parseHttpUrl(value);
      if (url === undefined) return false;
      return ctx.settings.image_url_check ? answersWithImage(new URL(url)) : true;
    },
    // A URL travels on cleaned (text/url.ts): that is the form stored, echoed and matched for reuse.
    parse: (value) => {
      if (typeof value === 'number') return value;
      const text = String(value);
      return coerceInteger(text) === undefined ? (parseHttpUrl(text) ?? text) : text;
    },
  };
}

/**
 * The image ID an `image` value names, inside the write's transaction: an ID as is; a URL reuses the
 * image record with that URL or creates one pointing at it; an empty value is `null`.
 */
export async function resolveImageInput(
  trx: Trx,
  value: string | number | null,
  ctx: RequestContext,
  now: Now,
): Promise<number | null> {
  if (isEmptyImage(value)) return null;
  const id = coerceInteger(value);
  if (id !== undefined) return id;
  const text = String(value).trim();
  const existing = await trx
    .selectFrom('images')
    .select('post_id')
    .where('url', '=', text)
    .orderBy('post_id')
    .limit(1)
    .executeTakeFirst();
  if (existing) return existing.post_id;
  const url = new URL(text);
  const extension = extensionOf(url);
  const name = fileName(url);
  const inserted = await trx
    .insertInto('posts')
    .values({
      type: 'image',
      author: ctx.user?.id ?? 0,
      status: 'inherit',
      slug: '',
      title: name,
      description: '',
      excerpt: '',
      password: '',
      parent_id: 0,
      date: now.local,
      date_utc: now.utc,
      modified: now.local,
      modified_utc: now.utc,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('images')
    .values({
      post_id: inserted.id,
      url: text,
      mime_type: MIME_BY_EXTENSION[extension] ?? '',
      extension,
      width: null,
      height: null,
    })
    .execute();
  return inserted.id;
}

const imagesByIds = preparedQuery((trx, v: { ids: number[] }, shape: string) =>
  trx
    .selectFrom('images')
    .select(['post_id', 'url', 'mime_type', 'extension', 'width', 'height'])
    .where('post_id', 'in', slotItems(v.ids, Number(shape))),
);

/** Image records by ID, one query for a whole page. */
export async function loadImages(trx: Trx, ids: Array<number | null>): Promise<Map<number, ImageRow>> {
  const wanted = paddedIds(ids.filter((id): id is number => id !== null));
  if (!wanted.length) return new Map();
  const rows = (await imagesByIds(trx, { ids: wanted }, String(wanted.length))) as ImageRow[];
  return new Map(rows.map((row) => [row.post_id, row]));
}

/** The `image` field (common.md 9.5): `false` without an image, else its known keys in order. */
export function representImage(row: ImageRow | undefined): false | Record<string, unknown> {
  if (!row) return false;
  const out: Record<string, unknown> = { url: row.url, id: row.post_id };
  if (row.extension) out.extension = row.extension;
  if (row.width) out.width = row.width;
  if (row.height) out.height = row.height;
  return out;
}
