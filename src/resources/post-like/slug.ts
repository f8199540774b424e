import { preparedQuery } from '../../db/prepared.js';
import { lockNames } from '../../db/name-locks.js';
import type { PostType, Trx } from '../../db/tables.js';
import { sanitizeSlugQuery } from '../../text/slug.js';

/** Words WordPress keeps for feeds and embeds; a slug equal to one gets a suffix (common.md 9.8). */
const RESERVED_SLUGS = new Set(['feed', 'rdf', 'rss', 'rss2', 'atom', 'embed']);
const MAX_SLUG_LENGTH = 200;

const otherWithSlug = preparedQuery((db, v: { type: PostType; slug: string; excludeId: number }) =>
  db
    .selectFrom('posts')
    .select('id')
    .where('type', '=', v.type)
    .where('slug', '=', v.slug)
    .where('id', '<>', v.excludeId)
    .limit(1),
);

/** IDs start at 1: excluding 0 excludes nothing. */
async function slugTaken(trx: Trx, type: PostType, slug: string, excludeId = 0): Promise<boolean> {
  return (await otherWithSlug(trx, { type, slug, excludeId })).length > 0;
}

/**
 * `slug` made unique among records of the same type, any status, `excludeId` excepted: `-2`, `-3`, …
 * appended (the base shortened so the whole stays within 200 characters) (common.md 9.8).
 */
export async function uniqueSlug(trx: Trx, type: PostType, slug: string, excludeId?: number): Promise<string> {
  // Concurrent records of one title get `-2`, `-3`, … as serial ones do (db/name-locks.ts).
  await lockNames(trx, [`${type}-slug:${slug}`]);
  if (!RESERVED_SLUGS.has(slug) && !(await slugTaken(trx, type, slug, excludeId))) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${slug.slice(0, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (!(await slugTaken(trx, type, candidate, excludeId))) return candidate;
  }
}

/** The ID of the record of `type` with the slug a by-slug path names, any status (common.md 9.8 lookup). */
export async function findIdBySlug(trx: Trx, type: PostType, pathSlug: string): Promise<number | undefined> {
  const slug = sanitizeSlugQuery(pathSlug);
  if (!slug) return undefined;
  const row = await trx
    .selectFrom('posts')
    .select('id')
    .where('type', '=', type)
    .where('slug', '=', slug)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
