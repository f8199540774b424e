import { sql } from 'kysely';
import type { Backend } from './connect.js';
import type { Db } from './tables.js';

/**
 * Rows of each index that SQLite's ANALYZE samples (`PRAGMA analysis_limit`). With a limit, ANALYZE
 * keeps the per-index averages of `sqlite_stat1` and writes no `sqlite_stat4` histogram.
 *
 * Why no histogram: when an index has one, SQLite marks every prepared statement whose plan could
 * depend on a bound value to be compiled again each time it runs with new values. That costs in
 * proportion to the statement, not to what it reads: a venue looked up by name (26 columns, no row
 * found) took 45 µs with histograms and 2.5 µs without, and an event create ran a dozen such
 * statements. The plans of the service's queries rest on the indexes it declares, and the
 * averages are enough to choose among them.
 */
const ANALYSIS_LIMIT = 1000;

/** How often a running server refreshes the statistics, as SQLite advises for long-lived connections. */
const REFRESH_EVERY_MS = 3_600_000;

/**
 * Brings the planner's statistics up to date, cheaply. SQLite: `PRAGMA optimize`, which analyzes
 * (sampled, see ANALYSIS_LIMIT) the tables never analyzed or much changed since; when histograms
 * are present (a full ANALYZE run by another program), one sampled ANALYZE replaces them.
 * PostgreSQL's autovacuum keeps its statistics, so nothing is done there.
 */
export async function refreshStatistics(db: Db, backend: Backend): Promise<void> {
  if (backend !== 'sqlite') return;
  await sql.raw(`pragma analysis_limit = ${ANALYSIS_LIMIT}`).execute(db);
  await sql.raw((await hasHistograms(db)) ? 'analyze' : 'pragma optimize = 0x10002').execute(db);
}

async function hasHistograms(db: Db): Promise<boolean> {
  const table = await sql<{ n: number }>`select count(*) as n from sqlite_schema where name = 'sqlite_stat4'`.execute(db);
  if (!table.rows[0]?.n) return false;
  const rows = await sql<{ n: number }>`select exists (select 1 from sqlite_stat4) as n`.execute(db);
  return Boolean(rows.rows[0]?.n);
}

/** Refreshes the statistics hourly in a running server (buildApp does it at start); returns the stop function. */
export function startStatisticsRefresh(db: Db, backend: Backend): () => void {
  if (backend !== 'sqlite') return () => undefined;
  const timer = setInterval(() => void refreshStatistics(db, backend).catch(() => undefined), REFRESH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
