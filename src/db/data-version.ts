import { PostgresAdapter, sql, type ExpressionBuilder } from 'kysely';
import type { Database, Trx } from './tables.js';

/**
 * A counter every write bumps inside its transaction, so that caches of serialized reads (in this
 * process or another one on the same database) can tell whether they are still current.
 *
 * The version is the sum of the rows of `data_version` (migration 13). On PostgreSQL each
 * transaction bumps the row its transaction ID picks, so concurrent writes rarely wait for one
 * another, and a reader's sum still grows only once a write has committed: never a version that
 * stands for a write it cannot see yet (which a sequence, advanced before commit, would give).
 * SQLite has one writer at a time: there every write bumps row 1.
 */
export async function bumpDataVersion(trx: Trx): Promise<void> {
  const row =
    trx.getExecutor().adapter instanceof PostgresAdapter
      ? sql`1 + txid_current() % (select count(*) from data_version)`
      : sql`1`;
  await sql`update data_version set version = version + 1 where id = ${row}`.execute(trx);
}

/** The version as a selection of a query on `data_version` (one row, without a where clause). */
export const dataVersionSum = (eb: ExpressionBuilder<Database, 'data_version'>) =>
  eb.fn.sum<number | string>('version').as('version');

export async function readDataVersion(trx: Trx): Promise<number> {
  const row = await trx.selectFrom('data_version').select(dataVersionSum).executeTakeFirst();
  return Number(row?.version ?? 0);
}
