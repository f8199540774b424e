import type { FastifyBaseLogger } from 'fastify';
import { classifyDatabaseError, type DatabaseFault } from '../db/faults.js';
import { restErrors, type RestError } from './errors.js';

/** A fault repeats for every request of an outage: logged when it changes, and again at most this often. */
const FAULT_LOG_EVERY_MS = 10_000;

/** The answer to a database fault (db/faults.ts). */
function faultError(fault: DatabaseFault): RestError {
  if (fault.kind === 'unavailable') return restErrors.databaseUnavailable();
  if (fault.kind === 'storage_full') return restErrors.insufficientStorage();
  return restErrors.databaseWriteFailed();
}

/** The dispatcher's database faults: each one answered with its RestError, the log kept to one line per change. */
export class FaultLog {
  private last = { code: '', at: 0 };

  /** A database fault as its RestError (logged); anything else unchanged. */
  asRestError(log: FastifyBaseLogger, err: unknown): unknown {
    const fault = classifyDatabaseError(err);
    if (!fault) return err;
    const now = Date.now();
    if (fault.code !== this.last.code || now - this.last.at >= FAULT_LOG_EVERY_MS) {
      this.last = { code: fault.code, at: now };
      log.warn({ err, fault: fault.kind }, `database fault ${fault.code}: ${fault.message}`);
    }
    return faultError(fault);
  }
}
