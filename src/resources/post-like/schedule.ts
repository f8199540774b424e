import { bumpDataVersion } from '../../db/data-version.js';
import type { Db } from '../../db/tables.js';

/**
 * Scheduled records become published once their publication time has passed (decisions.md X 12,
 * E29). Reads call this first: one indexed probe, and a write only when something is due, so
 * visibility and lists behave as published from that moment on.
 */
export async function publishDueRecords(db: Db, nowUtc: string): Promise<void> {
  const due = await db
    .selectFrom('posts')
    .select('id')
    .where('status', '=', 'future')
    .where('date_utc', '<=', nowUtc)
    .limit(1)
    .executeTakeFirst();
  if (!due) return;
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('posts')
      .set({ status: 'publish' })
      .where('status', '=', 'future')
      .where('date_utc', '<=', nowUtc)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) await bumpDataVersion(trx);
  });
}
