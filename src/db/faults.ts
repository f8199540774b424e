/**
 * Database errors that are not the request's fault, sorted by what a client and an operator can do
 * about them. Everything else a query throws stays an internal error.
 *
 * - `unavailable`: the database cannot be reached or dropped the connection (a restart, a
 *   failover, an idle-connection killer, a full pool). The pool opens new connections by itself,
 *   so the same request is likely to succeed a moment later.
 * - `storage_full`: the disk (or a quota) has no room for the change.
 * - `write_failed`: the database refuses or cannot complete writes (an I/O error, a read-only file
 *   or directory, a standby promoted late after a failover) while reads may still work.
 */
export type DatabaseFaultKind = 'unavailable' | 'storage_full' | 'write_failed';

export interface DatabaseFault {
  kind: DatabaseFaultKind;
  /** The driver's code (`57P01`, `ECONNREFUSED`, `SQLITE_FULL`), or a name for a coded-less message. */
  code: string;
  /** The driver's message. */
  message: string;
}

/** PostgreSQL connection exceptions are class 08 (SQLSTATE appendix A). */
const PG_CONNECTION_CLASS = /^08/;

const UNAVAILABLE_CODES = new Set([
  // Sockets
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // Another process holds the SQLite file's lock for longer than the busy timeout.
  'SQLITE_BUSY',
]);

/** Errors node-postgres raises without a code, for a connection that ended or never came. */
const UNAVAILABLE_MESSAGES: [RegExp, string][] = [
  [/^Connection terminated/, 'connection_terminated'],
  [/not queryable/, 'connection_terminated'],
  [/timeout exceeded when trying to connect/i, 'connect_timeout'],
];

const STORAGE_FULL_CODES = new Set(['SQLITE_FULL', '53100']);

/** PostgreSQL: io_error, read_only_sql_transaction (a standby). SQLite's extended codes share a prefix. */
const WRITE_FAILED_CODES = new Set(['58030', '25006']);
const WRITE_FAILED_PREFIXES = ['SQLITE_IOERR', 'SQLITE_READONLY'];

function kindOf(code: string): DatabaseFaultKind | undefined {
  if (UNAVAILABLE_CODES.has(code) || PG_CONNECTION_CLASS.test(code)) return 'unavailable';
  if (STORAGE_FULL_CODES.has(code)) return 'storage_full';
  if (WRITE_FAILED_CODES.has(code) || WRITE_FAILED_PREFIXES.some((prefix) => code.startsWith(prefix)))
    return 'write_failed';
  return undefined;
}

/** The fault an error of a query stands for, or `undefined` for any other error. */
export function classifyDatabaseError(err: unknown): DatabaseFault | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    const kind = kindOf(code);
    if (kind) return { kind, code, message: err.message };
    // A coded error of another kind (a constraint, a syntax error) is the query's own.
    if (code !== '') return undefined;
  }
  for (const [pattern, name] of UNAVAILABLE_MESSAGES) {
    if (pattern.test(err.message)) return { kind: 'unavailable', code: name, message: err.message };
  }
  return undefined;
}

export interface WriteFailure extends DatabaseFault {
  /** When the first of the failing writes failed. */
  since: Date;
}

/**
 * Whether the service's writes are failing now: the last write that ended either succeeded, or
 * failed with a storage fault (remembered from the first of such a run until a write succeeds).
 * A database that cannot be reached is not a write failure: the read of `/healthz` finds it.
 */
export class WriteHealth {
  private failure: WriteFailure | null = null;

  constructor(
    private readonly onChange: (failure: WriteFailure | null, previous: WriteFailure | null) => void = () => undefined,
  ) {}

  current(): WriteFailure | null {
    return this.failure;
  }

  succeeded(): void {
    if (!this.failure) return;
    const previous = this.failure;
    this.failure = null;
    this.onChange(null, previous);
  }

  /** Remembers a failed write when its error is a storage fault; other errors are the write's own. */
  failed(err: unknown): void {
    const fault = classifyDatabaseError(err);
    if (!fault || fault.kind === 'unavailable') return;
    if (this.failure && this.failure.code === fault.code) return;
    const previous = this.failure;
    this.failure = { ...fault, since: previous?.since ?? new Date() };
    this.onChange(this.failure, previous);
  }

  /** Remembers how a write ends (a transactor's promise), passing its outcome on. */
  async watch<T>(write: Promise<T>): Promise<T> {
    try {
      const value = await write;
      this.succeeded();
      return value;
    } catch (err) {
      this.failed(err);
      throw err;
    }
  }
}

/**
 * The database cannot be used at start (a file that cannot be opened, migrations that cannot be applied): one line for
 * the operator.
 */
export class DatabaseStartError extends Error {}
