import type { ExpressionBuilder } from 'kysely';
import type { Database, Trx } from './tables.js';

/**
 * A counter every write moves inside its transaction, so that caches of serialized reads (in this
 * process or another one on the same database) can tell whether they are still current. Triggers
 * move it with the cache tags (migration 21), so no write can forget it.
 *
 * The version is the sum of the rows of `data_version` (migration 13). On PostgreSQL each
 * transaction bumps the row its transaction ID picks, so concurrent writes rarely wait for one
 * another, and a reader's sum still grows only once a write has committed: never a version that
 * stands for a write it cannot see yet (which a sequence, advanced before commit, would give).
 * SQLite has one writer at a time: there every write bumps row 1.
 */

/** The version as a selection of a query on `data_version` (one row, without a where clause). */
export const dataVersionSum = (eb: ExpressionBuilder<Database, 'data_version'>) =>
  eb.fn.sum<number | string>('version').as('version');

export async function readDataVersion(trx: Trx): Promise<number> {
  const row = await trx.selectFrom('data_version').select(dataVersionSum).executeTakeFirst();
  return Number(row?.version ?? 0);
}
