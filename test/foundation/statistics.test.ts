import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** Index statistics rows of `notes_tag`: per-index averages (stat1) and histogram samples (stat4). */
async function statistics(handle: DatabaseHandle): Promise<{ averages: number; samples: number }> {
  const count = async (table: string) => {
    const exists = await sql<{ n: number }>`select count(*) as n from sqlite_schema where name = ${table}`.execute(handle.db);
    if (!exists.rows[0]?.n) return 0;
    const rows = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where idx = 'notes_tag'`.execute(handle.db);
    return Number(rows.rows[0]?.n);
  };
  return { averages: await count('sqlite_stat1'), samples: await count('sqlite_stat4') };
}

/** A migrated SQLite file with a 2,000-row indexed table, analyzed in full or not at all; the app is built on it. */
async function startOn(fullAnalyze: boolean, check: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-statistics-'));
  const handle = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
  try {
    await migrateToLatest(handle.db);
    await sql`create table notes (id integer primary key, tag text not null)`.execute(handle.db);
    await sql`create index notes_tag on notes (tag)`.execute(handle.db);
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 2000; i++) await sql`insert into notes (tag) values (${`tag ${i % 37}`})`.execute(trx);
    });
    if (fullAnalyze) {
      await sql`analyze`.execute(handle.db);
      const before = await statistics(handle);
      assert.equal(before.averages, 1);
      assert.ok(before.samples > 0, 'a full ANALYZE keeps histogram samples');
    } else {
      assert.deepEqual(await statistics(handle), { averages: 0, samples: 0 });
    }
    const built = await buildApp(loadConfig({ LOG_LEVEL: 'silent', PORT: '0' }), { database: handle, skipMigrations: true });
    await check(handle);
    await built.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('an SQLite database never analyzed gets sampled statistics at start, without histograms', async () => {
  await startOn(false, async (handle) => {
    assert.deepEqual(await statistics(handle), { averages: 1, samples: 0 });
  });
});

it('histograms of a full ANALYZE are replaced at start by sampled statistics', async () => {
  await startOn(true, async (handle) => {
    assert.deepEqual(await statistics(handle), { averages: 1, samples: 0 });
  });
});
