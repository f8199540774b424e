import { sql, type Transaction } from 'kysely';
import type { Backend } from './connect.js';
import { RestError, restErrors } from '../http/errors.js';
import { classifyDatabaseError } from './faults.js';
import type { Database, Db } from './tables.js';

/** A write of one request: everything it does, or nothing (style.md rule 7). */
export type Write<T> = (trx: Transaction<Database>) => Promise<T>;

/** Runs a request's write in a transaction of its own, or with others (`transactor`). */
export type Transact = <T>(write: Write<T>) => Promise<T>;

interface Queued {
  write: Write<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Writes one transaction takes at most: the last of them waits for all the others. */
const MAX_GROUP = 64;

/**
 * Writes of one SQLite file share transactions. Each commit costs the log pages it writes, and
 * concurrent writes touch many of the same pages (the newest end of every ID and date index, the
 * full-text index's new segment), so committing them together writes each page once.
 *
 * Writes that arrive while the event loop handles the same batch of sockets are queued, and run
 * one after the other at its end (`setImmediate`) in one transaction, each inside a savepoint of
 * its own. A write that fails is rolled back to its savepoint and fails alone; the others succeed
 * once the transaction commits, or all fail with the commit. Every write of a group is answered
 * once its transaction has ended. So each write is still all or nothing, sees the writes before
 * it as a serial order would, and a success is answered only once it is visible to the read
 * connection. The connection is held for the whole group, as for a single transaction, so no
 * other query of this connection sees a write before it commits.
 *
 * PostgreSQL commits concurrent transactions by itself: there, each write is a transaction.
 */
export function transactor(db: Db, backend: Backend): Transact {
  if (backend === 'postgres') return (write) => retryOnConflict(() => db.transaction().execute(write));
  const group = new GroupCommit(db);
  return (write) => group.run(write);
}

class GroupCommit {
  private queue: Queued[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => void this.commitGroup());
  }

  private async commitGroup(): Promise<void> {
    const group = this.queue.splice(0, MAX_GROUP);
    const done: { queued: Queued; value: unknown }[] = [];
    const failed: { queued: Queued; err: unknown }[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const queued of group) {
          await sql`savepoint request`.execute(trx);
          try {
            done.push({ queued, value: await queued.write(trx) });
            await sql`release request`.execute(trx);
          } catch (err) {
            // A full disk or an I/O error ends SQLite's whole transaction, savepoint included: the
            // group then fails with that error, not with this rollback's.
            await sql`rollback to request`
              .execute(trx)
              .catch((failed: unknown) => Promise.reject(classifyDatabaseError(err) ? err : failed));
            await sql`release request`.execute(trx);
            failed.push({ queued, err });
          }
        }
      });
      for (const { queued, value } of done) queued.resolve(value);
    } catch (err) {
      // The transaction itself failed (begin, a savepoint or the commit): nothing of it was kept,
      // and the writes it had not reached yet fail with it.
      const ownFailures = new Set(failed.map(({ queued }) => queued));
      for (const queued of group) if (!ownFailures.has(queued)) queued.reject(err);
    }
    for (const { queued, err } of failed) queued.reject(err);
    this.scheduled = false;
    this.schedule();
  }
}

/**
 * PostgreSQL errors after which the same write, run again from the start, sees what the other
 * transaction committed and can reach the answer a serial order gives: serialization failure,
 * deadlock, a unique key another transaction took first, a row it removed that this one links.
 */
const CONFLICTS = new Set(['40001', '40P01', '23505', '23503']);
/** Runs of one write before the caller is asked to try again later. */
const MAX_ATTEMPTS = 5;

function isConflict(err: unknown): boolean {
  if (err instanceof RestError) return false;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICTS.has(code);
}

/**
 * A PostgreSQL write runs as one transaction; one that conflicts with a concurrent one is run
 * again whole (its transaction was rolled back, so nothing of it is left), after a short random
 * pause that spreads the contenders. Past `MAX_ATTEMPTS` the request is answered 503 with
 * `Retry-After` rather than 500: the write was valid, the moment was not.
 */
async function retryOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isConflict(err)) throw err;
      if (attempt === MAX_ATTEMPTS) throw restErrors.writeConflict();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
