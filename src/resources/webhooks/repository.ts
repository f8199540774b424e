import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Trx, WebhooksTable } from '../../db/tables.js';
import { restErrors } from '../../http/errors.js';
import { nowUtcWall, shiftUtcWall } from '../../time/format.js';
import { currentPosition } from '../changes/feed.js';

export type WebhookRow = Selectable<WebhooksTable>;

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export async function listWebhookRows(trx: Trx): Promise<WebhookRow[]> {
  return trx.selectFrom('webhooks').selectAll().orderBy('id').execute();
}

export async function getWebhookById(trx: Trx, id: number): Promise<WebhookRow> {
  const row = await trx.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw restErrors.webhookNotFound(id);
  return row;
}

/** Inserts a subscription; returns it with its secret, the only time the secret is shown. */
export async function insertWebhook(trx: Trx, url: string, events: string[]): Promise<WebhookRow> {
  const from_token = await currentPosition(trx);
  return trx
    .insertInto('webhooks')
    .values({
      from_token,
      url,
      events: events.join(','),
      secret: newSecret(),
      status: 'enabled',
      created_utc: nowUtcWall(),
      failing_since: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface WebhookChanges {
  url?: string;
  events?: string[];
  /** `enabled` also forgets the failures that disabled it. */
  status?: 'enabled' | 'disabled';
}

export async function updateWebhook(trx: Trx, id: number, changes: WebhookChanges): Promise<void> {
  const set: Partial<WebhookRow> = {};
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.events !== undefined) set.events = changes.events.join(',');
  if (changes.status === 'enabled') Object.assign(set, { status: 'enabled', disabled_reason: '', failing_since: null });
  if (changes.status === 'disabled')
    Object.assign(set, { status: 'disabled', disabled_reason: 'disabled by an administrator' });
  if (Object.keys(set).length) await trx.updateTable('webhooks').set(set).where('id', '=', id).execute();
}

export async function rotateWebhookSecret(trx: Trx, id: number): Promise<string> {
  const secret = newSecret();
  await trx.updateTable('webhooks').set({ secret }).where('id', '=', id).execute();
  return secret;
}

export async function deleteWebhook(trx: Trx, id: number): Promise<void> {
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await trx.deleteFrom('webhooks').where('id', '=', id).execute();
}

/** A delivery of the subscription, newest first. */
export async function listDeliveries(trx: Trx, webhookId: number, limit: number, offset: number) {
  return trx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countDeliveries(trx: Trx, webhookId: number): Promise<number> {
  const row = await trx
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Makes a delivery due now, with another day of retries (`POST …/deliveries/{id}/retry`). */
export async function retryDelivery(trx: Trx, webhookId: number, deliveryId: number) {
  const now = nowUtcWall();
  const row = await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_utc: now, created_utc: now })
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw restErrors.webhookDeliveryNotFound(deliveryId);
  return row;
}

/**
 * Removes settled deliveries (delivered, or given up) made more than `days` ago: the log otherwise
 * grows by a row per change and subscription. Pending ones stay, whatever their age.
 */
export async function pruneDeliveries(trx: Trx, days: number): Promise<number> {
  const removed = await trx
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_utc', '<', shiftUtcWall(nowUtcWall(), -24 * days))
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}
