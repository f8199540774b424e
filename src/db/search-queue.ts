import type SQLite from 'better-sqlite3';

/**
 * Records the full-text queue holds before they are indexed. Each indexing writes a segment of the
 * index and, over time, its share of merging segments, so indexing many records at once writes far
 * fewer of the index's pages to the log than indexing each commit's own. Searches read the queue
 * as well as the index (events/list-planner.ts), so a queued record is found all the same.
 */
export const SEARCH_QUEUE_LIMIT = 256;

/**
 * The records an SQLite connection has queued for the full-text index (migration 10), indexed
 * together once there are `limit` of them: with their text as it is then, in one segment of the
 * index. Called just before each commit and after each write made outside a transaction (the
 * request connection's driver, sqlite-request-driver.ts), so fewer than `limit` committed records
 * are ever waiting. Until that migration has run there is no queue, and nothing to do.
 */
export function searchQueueIndexer(sqlite: SQLite.Database, limit = SEARCH_QUEUE_LIMIT): () => void {
  let statements: { waiting: SQLite.Statement; index: SQLite.Statement; clear: SQLite.Statement } | null = null;
  return () => {
    try {
      // Counting stops at the limit: the queue is read only as far as needed.
      statements ??= {
        waiting: sqlite.prepare('select count(*) from (select 1 from post_search_queue limit ?)').pluck(),
        index: sqlite.prepare(`insert into post_search (rowid, title, excerpt, description)
          select p.id, p.title, p.excerpt, p.description from post_search_queue q cross join posts p on p.id = q.id`),
        clear: sqlite.prepare('delete from post_search_queue'),
      };
      if ((statements.waiting.get(limit) as number) < limit) return;
    } catch (err) {
      // No queue (yet, or any more after a migration down): the index is kept by the triggers alone.
      if (/no such table: post_search_queue/.test(String((err as Error).message))) {
        statements = null;
        return;
      }
      throw err;
    }
    statements.index.run();
    statements.clear.run();
  };
}
