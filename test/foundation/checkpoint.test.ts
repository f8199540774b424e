import { it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.js';

/** Rows of `notes` in the database file alone, without its write-ahead log (a copy of the file is opened). */
function rowsInFile(file: string, dir: string): number {
  const copy = join(dir, `copy-${Date.now()}-${Math.random().toString(36).slice(2)}.sqlite`);
  copyFileSync(file, copy);
  const db = new SQLite(copy);
  try {
    const table = db.prepare(`select count(*) as n from sqlite_master where name = 'notes'`).get() as { n: number };
    return table.n ? (db.prepare('select count(*) as n from notes').get() as { n: number }).n : -1;
  } finally {
    db.close();
  }
}

it('an SQLite file is checkpointed beside the request thread: commits reach the database file without a checkpoint of their own', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-checkpoint-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase(`sqlite:${file}`);
  try {
    // The opening connection checkpoints by itself only past 16,000 log pages, far beyond these writes.
    const limit = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    assert.equal(limit.rows[0]?.wal_autocheckpoint, 16_000);
    // Savepoints' statement journals (one per write of a group commit) are kept in memory, not in a temporary file (2 =
    // MEMORY).
    const temp = await sql<{ temp_store: number }>`pragma temp_store`.execute(handle.db);
    assert.equal(temp.rows[0]?.temp_store, 2);
    await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
    for (let i = 0; i < 5; i++) {
      await handle.db.transaction().execute(async (trx) => {
        for (let j = 0; j < 20; j++) await sql`insert into notes (body) values (${`note ${i}.${j}`})`.execute(trx);
      });
    }
    const read = await sql<{ n: number }>`select count(*) as n from notes`.execute(handle.db);
    assert.equal(read.rows[0]?.n, 100);

    // Without the worker's checkpoints the rows would stay in the log and the file alone would never show them.
    const deadline = Date.now() + 5000;
    let inFile = rowsInFile(file, dir);
    while (inFile !== 100 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      inFile = rowsInFile(file, dir);
    }
    assert.equal(inFile, 100);
  } finally {
    await handle.close();
  }
  // Closing stops the worker first, so the last connection to close removes the log.
  assert.equal(existsSync(`${file}-wal`), false);
  rmSync(dir, { recursive: true, force: true });
});
