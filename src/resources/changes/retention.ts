import type { AppContext } from '../../http/route.js';
import { pruneDeliveries } from '../webhooks/repository.js';
import { purgeChanges } from './feed.js';

/**
 * What the sync features keep, for `changes_retention_days` (read each time): the changes feed's
 * rows and the webhook delivery log's settled entries. Runs at start and hourly in a running server.
 */
export function startRetentionPurge(app: AppContext): () => void {
  const run = async () => {
    const { changes_retention_days: days } = await app.settings.get();
    await app.db.transaction().execute(async (trx) => {
      await purgeChanges(trx, days);
      await pruneDeliveries(trx, days);
    });
  };
  const timer = setInterval(() => void run().catch(() => undefined), 3_600_000);
  timer.unref();
  void run().catch(() => undefined);
  return () => clearInterval(timer);
}
