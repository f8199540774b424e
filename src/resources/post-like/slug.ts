import { sql, type Kysely } from 'kysely';
import { onPostgres } from '../../db/connect.js';
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

/**
 * The slugs of other records of the type from `from` (included) to `to` (excluded) in code-point
 * order, whatever the database's collation (migration 2026-11-28-19).
 */
export function slugRangeQuery(db: Kysely<any>, v: { type: PostType; from: string; to: string; excludeId: number }) {
  const slug = onPostgres(db) ? sql<string>`slug collate "C"` : sql<string>`slug`;
  return db
    .selectFrom('posts')
    .select('slug')
    .where('type', '=', v.type)
    .where(slug, '>=', v.from)
    .where(slug, '<', v.to)
    .where('id', '<>', v.excludeId);
}

const othersInRange = preparedQuery(slugRangeQuery);

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
  const taken = await takenSuffixes(trx, type, slug, excludeId);
  for (let n = 2; ; n++) {
    const candidate = withSuffix(slug, n);
    // A shortened base is another family, which `taken` does not cover: that candidate is asked for.
    const free = candidate === `${slug}-${n}` ? !taken.has(n) : !(await slugTaken(trx, type, candidate, excludeId));
    if (free) return candidate;
  }
}

/**
 * The numbers `n` for which another record holds `slug-n`, read as one index range: many records
 * of one title (a series, an import) would otherwise cost a query for every one before them.
 * `.` is the character after `-`.
 */
async function takenSuffixes(trx: Trx, type: PostType, slug: string, excludeId = 0): Promise<Set<number>> {
  const rows = await othersInRange(trx, { type, from: `${slug}-`, to: `${slug}.`, excludeId });
  const taken = new Set<number>();
  for (const row of rows) {
    const suffix = row.slug.slice(slug.length + 1);
    if (/^[1-9][0-9]*$/.test(suffix)) taken.add(Number(suffix));
  }
  return taken;
}

/** `slug-n`, the base shortened so that the whole stays within 200 characters (common.md 9.8). */
function withSuffix(slug: string, n: number): string {
  const suffix = `-${n}`;
  return `${slug.slice(0, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
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
