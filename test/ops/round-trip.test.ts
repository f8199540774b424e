import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, startTestServer, type TestServer } from '../support/server.js';
import { assertSameAnswers, calendarOk, derivedState, nextEventId, seedSite, type Seeded } from './support.js';

const noPostgres =
  !backends.includes('postgres') && 'needs PostgreSQL as well as SQLite, and this run has no PostgreSQL';

/** Settings are re-read every half second by a running server (settings.ts). */
const settingsSeen = () => new Promise((resolve) => setTimeout(resolve, 600));

describe('a site moved SQLite → PostgreSQL → SQLite with calendar export and import', { skip: noPostgres }, () => {
  let dir: string;
  let sqlite: TestServer;
  let postgres: TestServer;
  let back: TestServer;
  let seeded: Seeded;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-move-'));
    sqlite = await startTestServer('sqlite');
    seeded = await seedSite(sqlite);
    postgres = await startTestServer('postgres');
    back = await startTestServer('sqlite');
    await calendarOk(sqlite.databaseUrl, 'export', join(dir, 'from-sqlite.jsonl'));
    await calendarOk(postgres.databaseUrl, 'import', join(dir, 'from-sqlite.jsonl'));
    await calendarOk(postgres.databaseUrl, 'export', join(dir, 'from-postgres.jsonl'));
    await calendarOk(back.databaseUrl, 'import', join(dir, 'from-postgres.jsonl'));
    await settingsSeen();
  });
  after(async () => {
    await Promise.all([sqlite?.close(), postgres?.close(), back?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('PostgreSQL answers every read as SQLite did: bodies, totals and links', async () => {
    await assertSameAnswers(sqlite, postgres, seeded);
  });

  it('SQLite, back from PostgreSQL, answers every read as the original', async () => {
    await assertSameAnswers(sqlite, back, seeded);
  });

  it('term counts, listing copies and day counts are rebuilt exactly on both', async () => {
    const original = await derivedState(sqlite.db);
    assert.ok(original.terms.length && original.eventTerms.length && original.dayCounts.length);
    assert.deepEqual(await derivedState(postgres.db), original);
    assert.deepEqual(await derivedState(back.db), original);
  });

  it('each site hands out the same next ID, past the one deleted for good', async () => {
    const ids = [
      await nextEventId(sqlite, seeded.admin),
      await nextEventId(postgres, seeded.admin),
      await nextEventId(back, seeded.admin),
    ];
    assert.deepEqual(ids, [seeded.purged + 1, seeded.purged + 1, seeded.purged + 1]);
  });
});
