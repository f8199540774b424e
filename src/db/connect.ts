import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import { DatabaseStartError } from './faults.js';
import { NamedStatementClient } from './named-statement-client.js';
import { sqliteRequestDialect } from './sqlite-request-driver.js';
import { startSqliteWorkers, type SqliteWorkers } from './sqlite-worker.js';
import type { Database } from './tables.js';

export type Backend = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * For list queries, which may read many rows: an SQLite file's run on connections of their own
   * in worker threads (sqlite-worker.ts), so that they do not hold up the other requests;
   * otherwise `db`. Never for a transaction.
   */
  reads: Kysely<Database>;
  backend: Backend;
  /** The URL the handle was opened with (for logs; credentials are not printed by callers). */
  url: string;
  /** How busy the connections are now (metrics). */
  load(): DatabaseLoad;
  close(): Promise<void>;
}

export interface DatabaseLoad {
  /** Queries waiting: for a connection of the PostgreSQL pool, or in an SQLite file's read workers. */
  waiting: number;
  /** PostgreSQL: the pool's open connections, and how many of them are idle. */
  pool?: { total: number; idle: number };
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/calendar.sqlite';
/** How the service's PostgreSQL connections are named in `pg_stat_activity`. */
export const DEFAULT_APPLICATION_NAME = 'calendar-server';

export function backendOf(url: string): Backend {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres';
  if (/^sqlite:/i.test(url)) return 'sqlite';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url}")`);
}

/** Whether a handle (the database, a transaction, the list reads) speaks to PostgreSQL. */
export const onPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

// pg returns bigint columns as strings by default; our bigints (timestamps, versions) fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
// double precision columns come back as numbers already; numeric is not used.

export interface OpenOptions {
  /** PostgreSQL schema to use (tests give each run its own). */
  schema?: string;
  poolSize?: number;
  /** SQLite: records queued for the full-text index before they are indexed (search-queue.ts). */
  searchQueueLimit?: number;
  /**
   * PostgreSQL: the `application_name` of the pool's connections, which `pg_stat_activity` shows
   * (an `application_name` in the URL wins).
   */
  applicationName?: string;
  /**
   * PostgreSQL: called when a connection of the pool fails (the server restarted, or ended it). The
   * pool drops that connection and opens new ones as queries need them.
   */
  onConnectionError?: (err: Error) => void;
}

/** Prepared statements kept by SQL text, per connection (this one and each worker's). */
const STATEMENT_CACHE_LIMIT = 1000;
/**
 * SQLite's own cache of database pages, per connection (KiB; the driver's default is 16 MB). The
 * operating system caches the file already, so list misses read as fast with the smaller cache,
 * and the memory goes to the response cache.
 */
const PAGE_CACHE_KIB = 4096;
/**
 * Worker threads of the list reads (sqlite-worker.ts): reads that pile up in the first spill over
 * to the second, on the second core. Each holds a connection with its page and statement caches.
 */
const READ_THREADS = 2;
/**
 * Log size (pages of 4 kB) at which a commit checkpoints by itself, a fallback when the
 * worker (sqlite-worker.ts) has not kept up; SQLite's default is 1,000.
 */
const FALLBACK_CHECKPOINT_PAGES = 16_000;
/** Size a log left larger than this is truncated to once checkpointed (bytes). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/**
 * How long a query waits for a PostgreSQL connection (a new one, or a free one of a full pool)
 * before it fails as unavailable (db/faults.ts), rather than hanging on a server that does not
 * answer.
 */
const CONNECT_TIMEOUT_MS = 5000;

/** One line for an SQLite file that cannot be opened or created, instead of the driver's bare message. */
export function cannotOpenSqlite(file: string, url: string, err: unknown): DatabaseStartError {
  const reason = err instanceof Error ? err.message : String(err);
  return new DatabaseStartError(
    `cannot open the SQLite database ${file} (DATABASE_URL=${url}): ${reason}; its directory must exist or be creatable, and be writable by this user`,
  );
}

function openSqliteFile(file: string, url: string): SQLite.Database {
  try {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    // The first statement that needs the log and its index files beside the database.
    sqlite.pragma('journal_mode = WAL');
    return sqlite;
  } catch (err) {
    throw cannotOpenSqlite(file, url, err);
  }
}

export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  const backend = backendOf(url);
  if (backend === 'sqlite') {
    const named = url.replace(/^sqlite:/i, '');
    const file = named === ':memory:' ? named : resolve(named);
    const sqlite = openSqliteFile(file, url);
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    // Every write of a group commit runs in a savepoint, and a statement that fires triggers opens
    // one too: SQLite keeps the pages they change in a statement journal, a temporary file written
    // page by page, with system calls of its own for each. Held in memory, it is only there to roll
    // a savepoint back.
    sqlite.pragma('temp_store = MEMORY');
    sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    const db = new Kysely<Database>({
      dialect: sqliteRequestDialect(sqlite, {
        statementLimit: STATEMENT_CACHE_LIMIT,
        searchQueueLimit: options.searchQueueLimit,
      }),
    });
    // A file's list reads and checkpoints are the workers' (sqlite-worker.ts); a database in
    // memory has neither.
    let workers: SqliteWorkers | null = null;
    if (file !== ':memory:') {
      sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
      sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
      workers = startSqliteWorkers(file, {
        threads: READ_THREADS,
        statementLimit: STATEMENT_CACHE_LIMIT,
        pageCacheKib: PAGE_CACHE_KIB,
      });
    }
    const close = async () => {
      await workers?.stop();
      await db.destroy();
    };
    return { db, reads: workers?.reads ?? db, backend, url, load: () => ({ waiting: workers?.waiting() ?? 0 }), close };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    application_name: options.applicationName ?? DEFAULT_APPLICATION_NAME,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    Client: NamedStatementClient,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // A connection that fails emits 'error': on the pool while idle, on the client while a query has
  // it. Unhandled, that event would end the process; handled, the pool drops the connection, the
  // query using it fails (db/faults.ts makes that a 503), and new connections replace it. Each
  // client reports its first failure; the pool's event repeats an idle client's.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.once('error', (err) => options.onConnectionError?.(err));
    client.on('error', () => undefined);
    // No parallel plans: PostgreSQL would start worker processes for a request's count or page,
    // which under concurrent requests only compete with the other requests' connections for the
    // same cores (docs/architecture.md, What makes lists fast). Set on each new connection, so that an `options`
    // of the URL does not undo it.
    client.query('set max_parallel_workers_per_gather = 0').catch(() => undefined);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const load = () => ({ waiting: pool.waitingCount, pool: { total: pool.totalCount, idle: pool.idleCount } });
  return { db, reads: db, backend, url, load, close: () => db.destroy() };
}
