import { buildApp } from './app.js';
import type { Config } from './config.js';
import { startTrashPurge } from './resources/post-like/trash.js';

/** Starts the HTTP service; SIGTERM/SIGINT stop accepting, finish in-flight requests, close the database. */
export async function serve(config: Config): Promise<void> {
  const built = await buildApp(config);
  const stopPurge = startTrashPurge(built.app);
  await built.fastify.listen({ port: config.port, host: config.host });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    built.fastify.log.info({ signal }, 'shutting down');
    stopPurge();
    await built.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
