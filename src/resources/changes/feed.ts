import { canReadRecord } from '../../auth/capabilities.js';
import type { Selectable } from 'kysely';
import type { ChangeAction, ChangeType, RecordChangesTable, Trx } from '../../db/tables.js';
import { nowUtcWall, shiftUtcWall } from '../../time/format.js';
import type { RequestContext } from '../../http/route.js';

/**
 * The changes feed: reads of `record_changes`, which triggers fill in each write's own transaction
 * (migration 16a). Its tokens follow commit order on both backends, so a page that ends at token N
 * is followed by exactly the changes committed after every change it holds.
 */

/** What a client is told of one change: `hidden` when it may not read the record as it now stands. */
export type VisibleAction = ChangeAction | 'hidden';

export type ChangeRow = Omit<Selectable<RecordChangesTable>, 'id' | 'token' | 'changed_utc'> & { token: number };

/** Collections of the REST routes, by change type. */
const COLLECTIONS: Record<ChangeType, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};

/** The highest token the retention purge removed: a client behind it may have missed changes. */
export async function purgedUpTo(db: Trx): Promise<number> {
  const row = await db.selectFrom('record_changes_purged').select('token').executeTakeFirst();
  return Number(row?.token ?? 0);
}

/** The newest committed position: a new client's starting point. */
export async function currentPosition(db: Trx): Promise<number> {
  const row = await db
    .selectFrom('record_changes')
    .select((eb) => eb.fn.max('token').as('token'))
    .executeTakeFirst();
  const newest = row?.token === null || row?.token === undefined ? 0 : Number(row.token);
  return Math.max(newest, await purgedUpTo(db));
}

/** Up to `limit` changes after `since`, oldest first. */
export async function readChangesAfter(db: Trx, since: number, limit: number): Promise<ChangeRow[]> {
  const rows = await db
    .selectFrom('record_changes')
    .select(['token', 'type', 'record_id', 'action', 'status', 'author', 'modified_utc'])
    .where('token', '>', since)
    .orderBy('token')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, token: Number(row.token) }));
}

/**
 * A change as the caller may see it (common.md 7.3): a record it could not read after the change
 * (a draft, a private record, the trash) is `hidden`, so that a client drops what it held. A
 * deletion is told to everyone: it names only an ID that no longer exists. A trashed record is
 * judged by the stricter rule (edit rights), its previous status not being kept here.
 */
export function visibleAction(ctx: RequestContext, row: ChangeRow): VisibleAction {
  if (row.action === 'deleted' || row.type === 'category' || row.type === 'tag') return row.action;
  const record = { author: row.author, status: row.status, trashed_status: 'draft' };
  return canReadRecord(ctx.user, record) ? row.action : 'hidden';
}

export function representChange(ctx: RequestContext, row: ChangeRow) {
  return {
    type: row.type,
    id: row.record_id,
    action: visibleAction(ctx, row),
    modified_utc: row.modified_utc,
    rest_url: `${ctx.urls.root}/${COLLECTIONS[row.type]}/${row.record_id}`,
  };
}

/**
 * Removes the changes older than `days` and remembers the highest token removed, so that a token
 * before it is refused instead of silently skipping what was removed.
 */
export async function purgeChanges(trx: Trx, days: number): Promise<number> {
  const row = await trx
    .selectFrom('record_changes')
    .select((eb) => eb.fn.max('token').as('token'))
    .where('changed_utc', '<', shiftUtcWall(nowUtcWall(), -24 * days))
    .executeTakeFirst();
  if (row?.token === null || row?.token === undefined) return 0;
  const upTo = Number(row.token);
  const removed = await trx.deleteFrom('record_changes').where('token', '<=', upTo).executeTakeFirst();
  // Two processes may purge at once: the horizon only moves forward.
  await trx.updateTable('record_changes_purged').set({ token: upTo }).where('token', '<', upTo).execute();
  return Number(removed.numDeletedRows);
}
