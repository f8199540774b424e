import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Reply, WorkerData, WorkerMessage } from './sqlite-worker-thread.js';
import type { Database } from './tables.js';

/**
 * Worker threads beside the request thread, each on a connection of its own to an SQLite file: they
 * run the list reads, and the first one checkpoints the write-ahead log.
 *
 * Reads. better-sqlite3 runs each statement on the calling thread: a list query that reads
 * thousands of index entries (a common search word, a wide term filter) would stop every other
 * request of the process until it ends, cached answers included. Queries given to `reads` are
 * compiled on the request thread and run in a worker instead, each worker running its queries one
 * after the other, while the request thread goes on serving. Only statements that return rows are
 * run. A query goes to the first worker unless `SPILL_AT` are waiting there already, and then to
 * the worker with the fewest waiting. After a commit each connection reads again the pages it
 * needs (SQLite drops a connection's page cache when the file has changed), so reads that come
 * together, the queries of one page or the answers of a group of writes, share one worker's
 * pages; reads that pile up, pages of a list built cold, spill over to the second worker and the
 * second core. The write-ahead log lets these connections read while the request thread's
 * connection writes, and each statement sees every transaction committed before it started, so a
 * read that follows a write sees it, whichever worker runs it.
 *
 * Checkpoints. A checkpoint copies the committed pages of the log back into the database file and
 * syncs the file to disk, which takes long on a large file. Made by the connection that commits
 * (SQLite's default: at the commit that takes the log past 1,000 pages), it would stop every
 * request of the process meanwhile. The first worker checkpoints every `CHECKPOINT_EVERY_MS`
 * instead, in `PASSIVE` mode, which neither waits for nor blocks readers and writers; a commit only
 * appends to the log. The opening connection keeps an automatic checkpoint at a larger size
 * (connect.ts), so the log stays bounded even if the worker falls behind or stops. A read that
 * comes to the first worker during a checkpoint waits for it; without writes a checkpoint finds
 * nothing to copy and costs next to nothing.
 */

const CHECKPOINT_EVERY_MS = 100;
/** Queries waiting in the first worker from which the next one may go to another. */
const SPILL_AT = 4;

/**
 * The module each worker thread runs, beside this one: compiled in dist/, or TypeScript when the
 * service runs from its sources under tsx (tests, `npm run calendar`, the benchmark's loader). On
 * Node 20, tsx registers its loader in the main thread only: a worker from the sources registers
 * it first (scripts/tsx-in-worker.mjs).
 */
const fromSources = import.meta.url.endsWith('.ts');
const WORKER_MODULE = new URL(`./sqlite-worker-thread.${fromSources ? 'ts' : 'js'}`, import.meta.url);
const WORKER_EXEC_ARGV = fromSources
  ? ['--import', new URL('../../scripts/tsx-in-worker.mjs', import.meta.url).href]
  : [];

interface Pending {
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

/** A worker and its queries in flight; the worker keeps the process alive only while one is. */
class WorkerThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;
  private stopping = false;
  private readonly exited: Promise<void>;

  /** `checkpointEveryMs` 0: no checkpoints. */
  constructor(file: string, { statementLimit, pageCacheKib }: WorkerOptions, checkpointEveryMs: number) {
    const workerData: WorkerData = { file, statementLimit, pageCacheKib, checkpointEveryMs };
    // None of the parent's options (beyond the loader of the sources): the worker needs none of
    // them and starts faster without. Its objects live no longer than one query: a small young
    // generation holds them.
    this.worker = new Worker(WORKER_MODULE, {
      execArgv: WORKER_EXEC_ARGV,
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.once('exit', () => this.fail(new Error('The SQLite worker stopped.')));
    // After the listeners: adding a 'message' listener refers the worker again.
    this.worker.unref();
  }

  /** Queries sent and not answered yet; a worker that failed comes last. */
  get waiting(): number {
    return this.failure ? Infinity : this.pending.size;
  }

  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, sql, parameters } satisfies WorkerMessage);
    });
  }

  /**
   * Closes the connection and ends the worker, once queries in flight are answered; again, it waits for the same end.
   */
  async stop(): Promise<void> {
    if (!this.failure && !this.stopping) {
      this.stopping = true;
      this.worker.ref();
      this.worker.postMessage('stop' satisfies WorkerMessage);
    }
    await this.exited;
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.error)
      waiting.reject(Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}));
    else waiting.resolve(reply.rows ?? []);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

/** One connection object for every caller: queries queue in the workers, none holds one. */
class ReadConnection implements DatabaseConnection {
  constructor(private readonly workers: readonly WorkerThread[]) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const first = this.workers[0]!;
    const worker =
      first.waiting < SPILL_AT
        ? first
        : this.workers.reduce((least, next) => (next.waiting < least.waiting ? next : least));
    return { rows: (await worker.query(compiled.sql, compiled.parameters)) as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The read connection does not stream.');
  }
}

const NO_TRANSACTIONS = 'The read connection runs no transactions: writes go through the request connection.';

class ReadDriver implements Driver {
  private readonly connection: ReadConnection;

  constructor(private readonly workers: readonly WorkerThread[]) {
    this.connection = new ReadConnection(workers);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTIONS);
  }

  async commitTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTIONS);
  }

  async rollbackTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTIONS);
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }
}

export interface SqliteWorkers {
  /** Runs its queries in the workers (reads only). */
  reads: Kysely<Database>;
  /** Queries sent and not answered yet, all workers together (Infinity once one has failed). */
  waiting(): number;
  /** Closes the workers' connections and ends them, once the queries in flight are answered. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  /** Worker threads, each with its connection. */
  threads: number;
  /** Prepared statements kept by SQL text. */
  statementLimit: number;
  /** SQLite's page cache of each worker's connection, in KiB. */
  pageCacheKib: number;
}

/**
 * The workers of an SQLite file; should the first fail, checkpoints are left to the opening
 * connection, and reads that it was given fail.
 */
export function startSqliteWorkers(file: string, options: WorkerOptions): SqliteWorkers {
  const workers = Array.from(
    { length: Math.max(1, options.threads) },
    (_, i) => new WorkerThread(file, options, i === 0 ? CHECKPOINT_EVERY_MS : 0),
  );
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReadDriver(workers),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
  const reads = new Kysely<Database>({ dialect });
  return {
    reads,
    waiting: () => workers.reduce((n, worker) => n + worker.waiting, 0),
    stop: async () => {
      await reads.destroy();
      await Promise.all(workers.map((worker) => worker.stop()));
    },
  };
}
