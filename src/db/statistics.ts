import { sql } from 'kysely';
import type { Backend } from './connect.js';
import type { Db } from './tables.js';

/**
 * The tables whose SQLite histograms (`sqlite_stat4` samples) are kept: what list queries filter
 * on, where a status, a term or a day range can hold a few events or most of them.
 *
 * Histograms of the other tables are dropped. When an index has them, SQLite compiles a statement
 * again each time it runs with new values, whenever its plan could depend on a bound value, at a
 * cost that grows with the statement, not with what it reads: a write's lookups on `posts`,
 * `terms` and `users` would spend more on compiling than on reading. List queries need the
 * histograms of these tables, though, to choose their plans well on a large database.
 */
const HISTOGRAM_TABLES = ['events', 'event_terms', 'event_day_counts'];

/** How often a running server refreshes the statistics, as SQLite advises for long-lived connections. */
const REFRESH_EVERY_MS = 3_600_000;

/**
 * Brings the planner's statistics up to date. SQLite: `PRAGMA optimize`, which analyzes the tables
 * never analyzed or much changed since, then drops the histograms of tables other than
 * HISTOGRAM_TABLES (and reloads the statistics when it dropped some). PostgreSQL's autovacuum keeps
 * its statistics, so nothing is done there.
 */
export async function refreshStatistics(db: Db, backend: Backend): Promise<void> {
  if (backend !== 'sqlite') return;
  await sql`pragma optimize = 0x10002`.execute(db);
  const table = await sql<{ n: number }>`select count(*) as n from sqlite_schema where name = 'sqlite_stat4'`.execute(
    db,
  );
  if (!table.rows[0]?.n) return;
  const dropped = await sql`delete from sqlite_stat4 where tbl not in (${sql.join(HISTOGRAM_TABLES)})`.execute(db);
  if (Number(dropped.numAffectedRows ?? 0) > 0) await sql`analyze sqlite_schema`.execute(db);
}

/** Refreshes the statistics hourly in a running server (buildApp does it at start); returns the stop function. */
export function startStatisticsRefresh(db: Db, backend: Backend): () => void {
  if (backend !== 'sqlite') return () => undefined;
  const timer = setInterval(() => void refreshStatistics(db, backend).catch(() => undefined), REFRESH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
