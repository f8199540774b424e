import type SQLite from 'better-sqlite3';
import {
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type QueryResult,
} from 'kysely';
import { boundedMemo, byText } from '../memo.js';
import { searchQueueIndexer } from './search-queue.js';

export interface RequestDriverOptions {
  /** Prepared statements kept by SQL text. */
  statementLimit: number;
  /** Records queued for the full-text index before they are indexed (search-queue.ts). */
  searchQueueLimit?: number;
}

/**
 * Kysely's dialect for the request thread's connection to an SQLite file or database in memory,
 * driven by `SearchIndexingDriver`.
 */
export function sqliteRequestDialect(sqlite: SQLite.Database, options: RequestDriverOptions): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new SearchIndexingDriver(sqlite, options),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
}

/**
 * Kysely's SQLite driver, which also keeps the full-text index up to date (search-queue.ts): the
 * records queued for it are indexed, once there are enough of them, in each transaction just
 * before it commits, and right after each write that committed by itself (outside a
 * transaction). So fewer than the queue's limit of committed records are ever waiting.
 *
 * Statements are prepared once per SQL text and kept: the same queries run over and over (with
 * other parameters), and preparing costs as much as running a small one. Statements run
 * synchronously, so one is never in use twice at a time.
 */
class SearchIndexingDriver extends SqliteDriver {
  private readonly statements: (sql: string) => SQLite.Statement;
  private readonly indexQueued: () => void;
  private readonly indexAfterAutocommit: () => void;
  private connection: DatabaseConnection | undefined;

  constructor(
    private readonly sqlite: SQLite.Database,
    { statementLimit, searchQueueLimit }: RequestDriverOptions,
  ) {
    const statements = boundedMemo(statementLimit, byText, (sql: string) => sqlite.prepare(sql));
    super({ database: { close: () => sqlite.close(), prepare: statements } });
    this.statements = statements;
    this.indexQueued = searchQueueIndexer(sqlite, searchQueueLimit);
    this.indexAfterAutocommit = sqlite.transaction(this.indexQueued);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return (this.connection ??= new IndexingAfterAutocommit(connection, (sql) => this.afterStatement(sql)));
  }

  /** Indexes the queued records, then commits them with the rest of the transaction. */
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.indexQueued();
    await super.commitTransaction(connection);
  }

  /**
   * SQLite ends the whole transaction by itself when a statement fails with SQLITE_FULL,
   * SQLITE_IOERR, SQLITE_BUSY or SQLITE_NOMEM. Kysely's rollback that follows would then fail
   * ("cannot rollback - no transaction is active"), and its error would replace the statement's,
   * the one that says what went wrong: the rollback is skipped when there is nothing left to roll
   * back.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }

  private afterStatement(sql: string): void {
    // Transaction control counts as read-only too; an insert with `returning` is a reader that writes.
    if (!this.statements(sql).readonly && !this.sqlite.inTransaction) this.indexAfterAutocommit();
  }
}

/** The driver's connection, which reports each statement it ran to `afterStatement`. */
class IndexingAfterAutocommit implements DatabaseConnection {
  constructor(
    private readonly connection: DatabaseConnection,
    private readonly afterStatement: (sql: string) => void,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.connection.executeQuery<R>(compiled);
    this.afterStatement(compiled.sql);
    return result;
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(compiled, chunkSize);
  }
}
