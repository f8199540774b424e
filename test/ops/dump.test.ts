import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { forEachBackend, startTestServer, type TestServer } from '../support/server.js';
import { DUMPED_TABLES } from '../../src/ops/dump-tables.js';
import type { Db } from '../../src/db/tables.js';
import {
  assertSameAnswers,
  calendar,
  calendarOk,
  derivedState,
  nextEventId,
  seedSite,
  type Seeded,
} from './support.js';

/** Rows of every dumped table: what a refused import must leave as it was. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of DUMPED_TABLES) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

async function tableNames(srv: TestServer): Promise<string[]> {
  const query =
    srv.backend === 'postgres'
      ? sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema()`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table'`;
  return (await query.execute(srv.db)).rows.map((row) => row.name);
}

/** Tables a dump leaves out: kept by triggers, or bookkeeping of the migrations, of SQLite's sequences and planner. */
const NOT_DUMPED =
  /^(event_day_counts|data_version|cache_tags|record_changes(_purged)?|webhook_(deliveries|outbox)|kysely_migration(_lock)?|sqlite_sequence|sqlite_stat\d|post_search(_\w+)?)$/;

forEachBackend('calendar export / import', (srv) => {
  let dir: string;
  let seeded: Seeded;
  let dump: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-dump-'));
    seeded = await seedSite(srv());
    dump = join(dir, 'site.jsonl');
    await calendarOk(srv().databaseUrl, 'export', dump);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A server on an empty database of the same backend, closed after `use`. */
  async function withEmptyServer(use: (copy: TestServer) => Promise<void>): Promise<void> {
    const copy = await startTestServer(srv().backend);
    try {
      await use(copy);
    } finally {
      await copy.close();
    }
  }

  it('the dump holds every table with records, users or settings; only derived and bookkeeping tables are left out', async () => {
    const lines = readFileSync(dump, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines[0].format, 'calendar-server-dump');
    assert.equal(lines[0].version, 1);
    assert.match(lines[0].migration, /^\d{4}-\d{2}-\d{2}-\d{2}[a-z]?-/);
    const dumped = lines.filter((line) => line.table).map((line) => line.table);
    for (const table of await tableNames(srv()))
      assert.ok(
        dumped.includes(table) || NOT_DUMPED.test(table),
        `table ${table} is neither dumped nor known as derived`,
      );
    assert.deepEqual(dumped, DUMPED_TABLES);
    const passwords = lines.findIndex((line) => line.table === 'app_passwords');
    assert.match(JSON.stringify(lines[passwords + 1]), /"scrypt\$/);
    assert.deepEqual(lines.at(-1).end, await rowCounts(srv().db));
  });

  it('a dump imported into an empty database answers every read as the original, and hands out the next ID', async () => {
    await withEmptyServer(async (copy) => {
      const out = await calendarOk(copy.databaseUrl, 'import', dump);
      assert.match(out, /^imported .*: users 2, app_passwords 2, settings 2, posts \d+, /);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await assertSameAnswers(srv(), copy, seeded);
      assert.deepEqual(await derivedState(copy.db), await derivedState(srv().db));
      assert.equal(await nextEventId(copy, seeded.admin), seeded.purged + 1);
    });
  });

  it('import refuses a database that holds records, in one line, and changes nothing', async () => {
    const before = await rowCounts(srv().db);
    const res = await calendar(srv().databaseUrl, 'import', dump);
    assert.equal(res.code, 1);
    assert.equal(
      res.err,
      'calendar: the database is not empty (users, app_passwords, settings, posts, events, venues, organizers, images, event_venues, event_organizers, terms, event_terms hold rows): calendar import loads into an empty database only, such as a new SQLite file or a new PostgreSQL database\n',
    );
    assert.deepEqual(await rowCounts(srv().db), before);
  });

  it('import refuses a dump of an unknown format version before it reads the database', async () => {
    const [header, ...rest] = readFileSync(dump, 'utf8').split('\n');
    const future = join(dir, 'future.jsonl');
    writeFileSync(future, [JSON.stringify({ ...JSON.parse(header!), version: 2 }), ...rest].join('\n'));
    const res = await calendar(srv().databaseUrl, 'import', future);
    assert.equal(res.code, 1);
    assert.equal(res.err, `calendar: ${future} has dump format version 2; this calendar reads version 1\n`);
  });

  it('import refuses a dump cut short, and leaves the database empty', async () => {
    const lines = readFileSync(dump, 'utf8').trim().split('\n');
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, lines.slice(0, -3).join('\n') + '\n');
    await withEmptyServer(async (copy) => {
      const res = await calendar(copy.databaseUrl, 'import', cut);
      assert.equal(res.code, 1);
      assert.match(res.err, /^calendar: .*cut\.jsonl ends before its last line: the dump is incomplete/);
      assert.equal(res.err.split('\n').length, 2);
      assert.ok(Object.values(await rowCounts(copy.db)).every((n) => n === 0));
    });
  });

  it('import refuses a row whose column the database keeps itself, and leaves the database empty', async () => {
    const text = readFileSync(dump, 'utf8').replace(
      '"table":"terms","columns":["id"',
      '"table":"terms","columns":["event_count"',
    );
    const derived = join(dir, 'derived.jsonl');
    writeFileSync(derived, text);
    await withEmptyServer(async (copy) => {
      const res = await calendar(copy.databaseUrl, 'import', derived);
      assert.equal(res.code, 1);
      assert.match(res.err, /derived\.jsonl line \d+: terms\.event_count is kept by the database itself/);
      assert.ok(Object.values(await rowCounts(copy.db)).every((n) => n === 0));
    });
  });
});
