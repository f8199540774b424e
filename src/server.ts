import { setFlagsFromString } from 'node:v8';
import { buildApp, type BuiltApp } from './app.js';
import type { Config } from './config.js';
import { startStatisticsRefresh } from './db/statistics.js';
import { startSeriesExtension } from './resources/events/series-horizon.js';
import { startTrashPurge } from './resources/post-like/trash.js';
import { startRetentionPurge } from './resources/changes/retention.js';
import { startWebhookWorker } from './resources/webhooks/delivery.js';

/** Starts the HTTP service; SIGTERM/SIGINT stop accepting, finish in-flight requests, close the database. */
export async function serve(config: Config): Promise<BuiltApp> {
  // Between full collections V8 lets the heap grow by a factor it derives from how fast it collects,
  // up to 4× the live size: under thousands of requests a second, most of that is garbage. A fixed
  // factor bounds the heap without costing throughput. V8 reads this flag at every collection, so
  // setting it now takes effect.
  if (config.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
  // V8 moves an allocation site's objects straight to the old generation once many of them have
  // outlived a young collection (pretenuring). Objects of a request die with it, yet a burst at
  // startup or under load can get such sites pretenured for good: every later request then fills
  // the old generation with garbage, and full collections come several times a second. Set before
  // the app's code runs, so no site is ever pretenured.
  setFlagsFromString('--no-allocation-site-pretenuring');
  const built = await buildApp(config);
  const stopPurge = startTrashPurge(built.app);
  const stopSeries = startSeriesExtension(built.app);
  const stopRetentionPurge = startRetentionPurge(built.app);
  const webhooks = startWebhookWorker(built.app);
  const stopStatistics = startStatisticsRefresh(built.database.db, built.database.backend);
  await built.fastify.listen({ port: config.port, host: config.host });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    built.fastify.log.info({ signal }, 'shutting down');
    stopPurge();
    stopSeries();
    stopRetentionPurge();
    await webhooks.stop();
    stopStatistics();
    await built.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return built;
}
