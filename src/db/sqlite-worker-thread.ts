import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { boundedMemo, byText } from '../memo.js';

/**
 * What runs in each worker thread of an SQLite file (sqlite-worker.ts): a connection of its own,
 * which answers the read queries it is sent one after the other, and checkpoints the write-ahead
 * log every `checkpointEveryMs` when that is not 0.
 */

export interface WorkerData {
  file: string;
  /** Prepared statements kept by SQL text. */
  statementLimit: number;
  /** SQLite's page cache of the connection, in KiB. */
  pageCacheKib: number;
  /** 0: no checkpoints. */
  checkpointEveryMs: number;
}

export interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** A read to run, or `'stop'`: close the connection and end, once the reads sent before are answered. */
export type WorkerMessage = ReadRequest | 'stop';

export interface Reply {
  id: number;
  rows?: unknown[];
  error?: { message: string; code?: string };
}

function serve(port: MessagePort, { file, statementLimit, pageCacheKib, checkpointEveryMs }: WorkerData): void {
  const db = new SQLite(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${pageCacheKib}`);
  const timer = checkpointEveryMs ? setInterval(() => checkpoint(db), checkpointEveryMs) : undefined;
  const statement = boundedMemo(statementLimit, byText, (sql: string) => db.prepare(sql));
  port.on('message', (message: WorkerMessage) => {
    if (message === 'stop') {
      clearInterval(timer);
      db.close();
      port.close();
      return;
    }
    port.postMessage(read(statement, message));
  });
}

function checkpoint(db: SQLite.Database): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Locked or busy: the next tick tries again; the opening connection's own limit bounds the log.
  }
}

function read(statement: (sql: string) => SQLite.Statement, { id, sql, parameters }: ReadRequest): Reply {
  try {
    const prepared = statement(sql);
    if (!prepared.reader) throw new Error('The read connection runs only statements that return rows.');
    return { id, rows: prepared.all(parameters) };
  } catch (err) {
    const { message, code } = Object(err) as { message?: unknown; code?: unknown };
    return { id, error: { message: String(message), ...(typeof code === 'string' ? { code } : {}) } };
  }
}

serve(parentPort!, workerData as WorkerData);
