import type SQLite from 'better-sqlite3';

/**
 * The records an SQLite connection has queued for the full-text index (migration 10), indexed at
 * once: with their text as it is now, in one segment of the index. Called just before each commit
 * and after each write made outside a transaction (connect.ts), so no committed record is missing
 * from searches. Until that migration has run there is no queue, and nothing to do.
 */
export function searchQueueIndexer(sqlite: SQLite.Database): () => void {
  let statements: { waiting: SQLite.Statement; index: SQLite.Statement; clear: SQLite.Statement } | null = null;
  return () => {
    try {
      statements ??= {
        waiting: sqlite.prepare('select exists (select 1 from post_search_queue) as waiting').pluck(),
        index: sqlite.prepare(`insert into post_search (rowid, title, excerpt, description)
          select p.id, p.title, p.excerpt, p.description from post_search_queue q cross join posts p on p.id = q.id`),
        clear: sqlite.prepare('delete from post_search_queue'),
      };
      if (!statements.waiting.get()) return;
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
