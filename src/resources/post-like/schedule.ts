import { sql } from 'kysely';
import { dataVersionSum, readDataVersion } from '../../db/data-version.js';
import { preparedQuery } from '../../db/prepared.js';
import { nowUtcWall } from '../../time/format.js';
import type { Db } from '../../db/tables.js';
import type { RequestContext } from '../../http/route.js';

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
  await db
    .updateTable('posts')
    .set({ status: 'publish' })
    .where('status', '=', 'future')
    .where('date_utc', '<=', nowUtc)
    .execute();
}

/** Run before nearly every read: prepared, so that it is not built and compiled each time. */
const versionAndDue = preparedQuery((db, v: { nowUtc: string }) =>
  db
    .selectFrom('data_version')
    .select((eb) => [
      dataVersionSum(eb),
      eb
        .exists(
          eb
            .selectFrom('posts')
            .select(sql.lit(1).as('one'))
            .where('status', '=', 'future')
            .where('date_utc', '<=', v.nowUtc),
        )
        .as('due'),
    ]),
);

/**
 * The `data_version` a cached read is built under (http/cache.ts), after publishing the scheduled
 * records whose time has come, which is a write that bumps it: one statement when nothing is due.
 */
export async function versionAfterSchedule(db: Db): Promise<number> {
  const nowUtc = nowUtcWall();
  const [row] = await versionAndDue(db, { nowUtc });
  if (row && !Number(row.due)) return Number(row.version);
  await publishDueRecords(db, nowUtc);
  return readDataVersion(db);
}

/**
 * For a read handler: publishes what is due unless the response cache already did for this
 * request (it reads the version through `versionAfterSchedule`, setting `ctx.dataVersion`).
 */
export async function publishDueForRead(ctx: RequestContext, nowUtc: string): Promise<void> {
  if (ctx.dataVersion === undefined) await publishDueRecords(ctx.app.db, nowUtc);
}
