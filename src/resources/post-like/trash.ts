import { sql } from 'kysely';
import type { AppContext } from '../../http/route.js';
import type { Trx } from '../../db/tables.js';
import type { PostType } from '../../db/tables.js';
import type { Now } from './dates.js';
import { uniqueSlug } from './slug.js';

/** Utc 'YYYY-MM-DD HH:MM:SS' of `days` ago. */
function cutoff(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Permanently removes post-like records and everything that hangs on them: links, series rows,
 * and the image reference of records that showed one of them.
 */
export async function deletePostRows(trx: Trx, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await trx
      .deleteFrom('event_venues')
      .where((eb) => eb.or([eb('event_id', 'in', chunk), eb('venue_id', 'in', chunk)]))
      .execute();
    await trx
      .deleteFrom('event_organizers')
      .where((eb) => eb.or([eb('event_id', 'in', chunk), eb('organizer_id', 'in', chunk)]))
      .execute();
    await trx.deleteFrom('event_terms').where('event_id', 'in', chunk).execute();
    await trx.deleteFrom('event_series_members').where('event_id', 'in', chunk).execute();
    await trx.deleteFrom('event_series').where('post_id', 'in', chunk).execute();
    await trx.updateTable('posts').set({ image_id: null }).where('image_id', 'in', chunk).execute();
    for (const table of ['events', 'venues', 'organizers', 'images'] as const) {
      await trx.deleteFrom(table).where('post_id', 'in', chunk).execute();
    }
    await trx.deleteFrom('posts').where('id', 'in', chunk).execute();
  }
}

/**
 * Permanently removes trashed post-like records (decisions.md X 12): those trashed more than
 * `olderThanDays` ago, or all of them when `olderThanDays` is 0. Links cascade with the rows.
 */
export async function purgeTrash(trx: Trx, olderThanDays: number): Promise<number> {
  let query = trx.selectFrom('posts').select('id').where('status', '=', 'trash');
  if (olderThanDays > 0) query = query.where('trashed_at', '<', cutoff(olderThanDays));
  const ids = (await query.execute()).map((r) => r.id);
  if (!ids.length) return 0;
  await deletePostRows(trx, ids);
  return ids.length;
}

/** Runs the purge hourly in a running server, with the `trash_days` setting read each time. */
export function startTrashPurge(app: AppContext): () => void {
  const run = async () => {
    const { trash_days } = await app.settings.get();
    if (trash_days > 0) await app.db.transaction().execute((trx) => purgeTrash(trx, trash_days));
  };
  const timer = setInterval(() => void run().catch(() => undefined), 3_600_000);
  timer.unref();
  void run().catch(() => undefined);
  return () => clearInterval(timer);
}

/** WordPress keeps at most 191 characters of the slug before the suffix (common.md 8.5). */
const TRASHED_SLUG_KEEP = 191;

/**
 * Moves records to the trash (common.md 8.5): status `trash`, slug renamed with `__trashed` (so
 * the original is free again), the previous slug and status remembered for a restore. Returns how
 * many moved: records in the trash already stay as they are, and of concurrent deletes exactly one
 * moves a record (the condition is judged on the row as it is when the update runs, not as the
 * caller read it).
 */
export async function trashRecords(trx: Trx, ids: readonly number[], now: Now): Promise<number> {
  let moved = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const result = await trx
      .updateTable('posts')
      .set((eb) => ({
        status: 'trash',
        slug: sql<string>`substr(${eb.ref('slug')}, 1, ${TRASHED_SLUG_KEEP}) || '__trashed'`,
        trashed_slug: eb.ref('slug'),
        trashed_status: eb.ref('status'),
        trashed_at: now.utc,
        modified: now.local,
        modified_utc: now.utc,
      }))
      .where('id', 'in', ids.slice(i, i + 500))
      .where('status', '<>', 'trash')
      .executeTakeFirst();
    moved += Number(result.numUpdatedRows);
  }
  return moved;
}

/** `trashRecords` of one record: `false` when it was in the trash already. */
export async function trashRecord(trx: Trx, record: { id: number }, now: Now): Promise<boolean> {
  return (await trashRecords(trx, [record.id], now)) > 0;
}

/**
 * The slug a trashed record gets back when an update moves it out of the trash: the remembered
 * one, unique again among records of its type (common.md 8.4). The caller writes it with the new
 * status; the trash markers are cleared here.
 */
export async function restoreFromTrash(
  trx: Trx,
  type: PostType,
  record: { id: number; slug: string; trashed_slug: string | null },
): Promise<string> {
  const original = record.trashed_slug ?? record.slug.replace(/__trashed$/, '');
  const slug = original ? await uniqueSlug(trx, type, original, record.id) : original;
  await trx
    .updateTable('posts')
    .set({ slug, trashed_slug: null, trashed_status: null, trashed_at: null })
    .where('id', '=', record.id)
    .execute();
  return slug;
}
