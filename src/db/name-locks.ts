import { sql } from 'kysely';
import { onPostgres } from './connect.js';
import type { Trx } from './tables.js';

/**
 * Writes that decide by reading whether a name is free (a term's name, a venue's name for reuse, a
 * slug) serialize on that name, so the second of two concurrent writes reads what the first wrote
 * and reaches the serial answer (`term_exists`, reuse of the record, slug `-2`) instead of a
 * duplicate or a unique-key failure.
 *
 * PostgreSQL: a transaction-scoped advisory lock per name (a 64-bit hash of it; a collision only
 * serializes two writes that did not need it), held until commit or rollback. A call takes its
 * names in sorted order and writes take kinds in one order (terms, venues, organizers, the event's
 * slug); two writes that name several venues in opposite orders can still wait for each other,
 * which PostgreSQL detects as a deadlock, and the write is run again (group-commit.ts). SQLite runs
 * one write at a time already (group-commit.ts), so nothing is taken there.
 */
export async function lockNames(trx: Trx, names: string[]): Promise<void> {
  if (!onPostgres(trx)) return;
  for (const name of [...new Set(names)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
  }
}
