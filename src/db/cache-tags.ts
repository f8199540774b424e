import type { Db } from './tables.js';

/**
 * What a write changed, as tags whose versions triggers bump in the write's transaction
 * (migrations 18 and 20): a cached read built from a set of tags is current while none of their versions
 * moved (http/cache.ts). The names here are the ones the triggers write.
 *
 * A record's tag is shared by the records of its residue modulo `TAG_BUCKETS`, which bounds the
 * rows a reader reads; a shared tag only makes an answer stale sooner.
 */
const TAG_BUCKETS = 256;

/**
 * An event, venue, organizer or image: its rows; an event's links to venues, organizers and terms,
 * and the status and author of the venues and organizers it links (who may see them embedded).
 */
export const recordTag = (id: number) => `r:${id % TAG_BUCKETS}`;

/** A category or tag, but for its event count. */
export const termTag = (id: number) => `t:${id % TAG_BUCKETS}`;

/**
 * A category's or tag's event count (migration 22). An answer stale by these tags alone shows a
 * count that moved, which the response cache rewrites rather than building the answer again.
 */
export const countTag = (id: number) => `n:${id % TAG_BUCKETS}`;
export const isCountTag = (tag: string) => tag.startsWith('n:');

/**
 * The events carrying a category or tag: their links to it, and their `posts` and `events` rows
 * (what places them in a list filtered by it).
 */
export const memberTag = (termId: number) => `m:${termId % TAG_BUCKETS}`;

/**
 * Any record of a post type (`event`, `venue`, …), or any term of a taxonomy but for its event
 * count: what a lookup by slug or name depends on, and a term's ancestors.
 */
export const typeTag = (type: string) => `c:${type}`;

/**
 * The events starting (on their own wall clock) on a day of this month and day, of any year: their
 * `events` rows, their `posts` rows and their terms (migration 22). `day` is `YYYY-MM-DD`.
 */
export const startTag = (day: string) => `s:${day.slice(5, 10)}`;

export type TagVersions = ReadonlyMap<string, number>;

/** Reads every tag's version, the sum of its shards, with a statement compiled once. */
export function tagVersionsReader(db: Db): () => Promise<TagVersions> {
  const query = db
    .selectFrom('cache_tags')
    .select((eb) => ['tag', eb.fn.sum<number | string>('version').as('version')])
    .groupBy('tag')
    .compile();
  return () =>
    db
      .executeQuery<{ tag: string; version: number | string }>(query)
      .then(({ rows }) => new Map(rows.map((row) => [row.tag, Number(row.version)])));
}
