import { onPostgres } from './connect.js';
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

/** What a reader last read: each row's tag and version, in the key's order, and the sums by tag. */
interface TagRows {
  tags: string[];
  versions: number[];
  sums: TagVersions;
}

/**
 * Reads every tag's version, the sum of its shards, with statements compiled once. The first read
 * after each write does (http/cache.ts), over all the tags (about 1,400).
 *
 * On PostgreSQL the server sums the shards and sends one row a tag: sending every shard's row
 * took longer.
 *
 * On SQLite the statement runs in the process, where making the tags' strings was most of a read's
 * time. Rows of `cache_tags` are only ever added (a tag's or shard's first bump) and bumped, never
 * removed, so the reader keeps the rows it read in the key's order and then reads their versions
 * alone in that order: while their number holds, each position is the same row, and only the tags
 * whose versions moved are summed again. A number of rows that moved (a row added) reads the tags
 * again. Each read gives a map of its own, never changed afterwards: an answer built meanwhile
 * keeps the versions it was built under.
 */
export function tagVersionsReader(db: Db): () => Promise<TagVersions> {
  if (onPostgres(db)) {
    const summed = db
      .selectFrom('cache_tags')
      .select((eb) => ['tag', eb.fn.sum<number | string>('version').as('version')])
      .groupBy('tag')
      .compile();
    return () =>
      db
        .executeQuery<{ tag: string; version: number | string }>(summed)
        .then(({ rows }) => new Map(rows.map((row) => [row.tag, Number(row.version)])));
  }
  const inKeyOrder = db.selectFrom('cache_tags').orderBy('tag').orderBy('shard');
  const rowsQuery = inKeyOrder.select(['tag', 'version']).compile();
  const versionsQuery = inKeyOrder.select('version').compile();
  let known: TagRows | null = null;

  const readRows = async (): Promise<TagVersions> => {
    const { rows } = await db.executeQuery<{ tag: string; version: number }>(rowsQuery);
    const read: TagRows = { tags: [], versions: [], sums: new Map() };
    const sums = read.sums as Map<string, number>;
    for (const row of rows) {
      read.tags.push(row.tag);
      read.versions.push(row.version);
      sums.set(row.tag, (sums.get(row.tag) ?? 0) + row.version);
    }
    known = read;
    return read.sums;
  };

  return async () => {
    if (!known) return readRows();
    const { rows } = await db.executeQuery<{ version: number }>(versionsQuery);
    // Another read may have answered meanwhile: compared with the latest rows whichever it was.
    const last: TagRows | null = known;
    if (!last || rows.length !== last.tags.length) return readRows();
    let sums: Map<string, number> | null = null;
    for (let i = 0; i < rows.length; i++) {
      const version = rows[i]!.version;
      const before = last.versions[i]!;
      if (version === before) continue;
      sums ??= new Map(last.sums);
      const tag = last.tags[i]!;
      sums.set(tag, sums.get(tag)! + version - before);
      last.versions[i] = version;
    }
    if (sums) last.sums = sums;
    return last.sums;
  };
}
