import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { backendOf } from '../db/connect.js';
import { OpsError } from './errors.js';
import { writeAtomically } from './files.js';

/** More pages than any database holds: the most better-sqlite3 copies in one step. */
const ALL_PAGES = 0x7fffffff;

export interface BackupSummary {
  source: string;
  pages: number;
}

function openSource(file: string): SQLite.Database {
  try {
    return new SQLite(file, { fileMustExist: true });
  } catch (err) {
    throw new OpsError(`cannot open the SQLite database ${file}: ${(err as Error).message}`);
  }
}

/**
 * Leaves the copy in rollback-journal mode, one self-contained file (the service switches it back
 * to WAL when it opens it), and checks its structure before it takes the backup's name.
 */
function finishCopy(file: string): void {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new OpsError(`the copy of the database fails SQLite's quick_check: ${String(check)}`);
  } finally {
    copy.close();
  }
}

/**
 * Copies the SQLite database `databaseUrl` names to `file` with SQLite's online backup API, which
 * reads the database (its write-ahead log included) as one snapshot while the service goes on
 * writing. The copy is made in one step: a copy in several steps starts again whenever another
 * connection writes between two of them, so under steady writes it might never end, while a WAL
 * reader neither blocks writers nor is blocked by them.
 */
export async function backupDatabase(databaseUrl: string, file: string): Promise<BackupSummary> {
  if (backendOf(databaseUrl) === 'postgres')
    throw new OpsError(
      'calendar backup copies SQLite databases; back up PostgreSQL with pg_dump (pg_dump -Fc -f FILE "$DATABASE_URL", see docs/operations.md)',
    );
  const source = resolve(databaseUrl.replace(/^sqlite:/i, ''));
  // The copy would be renamed over the database the service has open.
  if (resolve(file) === source) throw new OpsError(`${file} is the database itself: name another file for the backup`);
  const db = openSource(source);
  try {
    const pages = await writeAtomically(file, async (partial) => {
      const { totalPages } = await db.backup(partial, { progress: () => ALL_PAGES });
      finishCopy(partial);
      return totalPages;
    });
    return { source, pages };
  } finally {
    db.close();
  }
}
