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

/** Statistics rows of a table: per-index averages (stat1) and histogram samples (stat4). */
async function statistics(handle: DatabaseHandle, tbl = 'notes'): Promise<{ averages: number; samples: number }> {
  const count = async (table: string) => {
    const exists = await sql<{ n: number }>`select count(*) as n from sqlite_schema where name = ${table}`.execute(
      handle.db,
    );
    if (!exists.rows[0]?.n) return 0;
    const rows = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where tbl = ${tbl}`.execute(
      handle.db,
    );
    return Number(rows.rows[0]?.n);
  };
  return { averages: await count('sqlite_stat1'), samples: await count('sqlite_stat4') };
}

/**
 * A migrated SQLite file with 2,000 rows in an indexed table of its own and in the day counts, analyzed in full or not
 * at all; the app is built on it.
 */
async function startOn(fullAnalyze: boolean, check: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-statistics-'));
  const handle = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
  try {
    await migrateToLatest(handle.db);
    await sql`create table notes (id integer primary key, tag text not null)`.execute(handle.db);
    await sql`create index notes_tag on notes (tag)`.execute(handle.db);
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 2000; i++) {
        await sql`insert into notes (tag) values (${`tag ${i % 37}`})`.execute(trx);
        await sql`insert into event_day_counts (clock, status, hide_from_listings, featured, start_day, end_day, n)
          values ('utc', ${i % 9 ? 'publish' : 'draft'}, 0, 0, ${`2026-01-${String(1 + (i % 28)).padStart(2, '0')}`}, ${`day ${i}`}, 1)`.execute(
          trx,
        );
      }
    });
    if (fullAnalyze) {
      await sql`analyze`.execute(handle.db);
      const before = await statistics(handle);
      assert.equal(before.averages, 1);
      assert.ok(before.samples > 0, 'a full ANALYZE keeps histogram samples');
    } else {
      assert.deepEqual(await statistics(handle), { averages: 0, samples: 0 });
    }
    const built = await buildApp(loadConfig({ LOG_LEVEL: 'silent', PORT: '0' }), {
      database: handle,
      skipMigrations: true,
    });
    await check(handle);
    await built.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('an SQLite database never analyzed is analyzed at start, with histograms of the listing tables alone', async () => {
  await startOn(false, async (handle) => {
    assert.deepEqual(await statistics(handle), { averages: 1, samples: 0 });
    const counts = await statistics(handle, 'event_day_counts');
    assert.equal(counts.averages, 1);
    assert.ok(counts.samples > 0, 'the day counts keep their histogram');
  });
});

it('histograms of a full ANALYZE are dropped at start, but for the listing tables', async () => {
  await startOn(true, async (handle) => {
    assert.deepEqual(await statistics(handle), { averages: 1, samples: 0 });
    assert.ok((await statistics(handle, 'event_day_counts')).samples > 0);
  });
});
