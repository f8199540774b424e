import { sql } from 'kysely';
import type { Trx } from './tables.js';

/**
 * A counter every write bumps inside its transaction, so that caches of serialized reads (in this
 * process or another one on the same database) can tell whether they are still current.
 */
export async function bumpDataVersion(trx: Trx): Promise<void> {
  await sql`update data_version set version = version + 1 where id = 1`.execute(trx);
}

export async function readDataVersion(trx: Trx): Promise<number> {
  const row = await trx.selectFrom('data_version').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}
