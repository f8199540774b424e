import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Write-ahead-log checkpoints of an SQLite file, made by a worker thread on its own connection.
 *
 * A checkpoint copies the committed pages of the log back into the database file and syncs the
 * file to disk: tens to hundreds of milliseconds (up to 245 ms seen on a 100k-event file). Made by
 * the connection that commits (SQLite's default: at the commit that takes the log past 1,000
 * pages), it stops every request of the process meanwhile. The worker checkpoints every `everyMs`
 * instead, in `PASSIVE` mode, which neither waits for nor blocks readers and writers; a commit only
 * appends to the log. The opening connection keeps an automatic checkpoint at a larger size
 * (connect.ts), so the log stays bounded even if the worker falls behind or stops.
 */

export interface Checkpointer {
  /** Stops the worker after its current checkpoint and closes its connection. */
  stop(): Promise<void>;
}

// CommonJS, evaluated in the worker: the driver comes by absolute path (workerData.driver).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Locked or busy: the next tick tries again; the opening connection's own limit bounds the log.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

export function startCheckpointer(file: string, everyMs = 100): Checkpointer {
  // No execArgv: the worker needs none of the parent's loaders (tsx in tests) and starts faster without.
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { driver, file, everyMs } });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A worker that fails (the file removed under it, say) leaves checkpoints to the opening connection.
  worker.on('error', () => undefined);
  return {
    stop: async () => {
      // Held by the closing caller until it has exited (unreferenced, it would not keep the process up).
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
