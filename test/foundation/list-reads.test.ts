import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.js';

async function withFile(run: (handle: ReturnType<typeof openDatabase>, file: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-reads-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase(`sqlite:${file}`);
  try {
    await run(handle, file);
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const count = async (db: ReturnType<typeof openDatabase>['db']) =>
  (await sql<{ n: number }>`select count(*) as n from notes`.execute(db)).rows[0]!.n;

it('SQLite list reads see every commit of the request connection as soon as it is made', async () => {
  await withFile(async (handle) => {
    assert.notEqual(handle.reads, handle.db);
    await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
    for (let i = 1; i <= 30; i++) {
      await handle.db
        .transaction()
        .execute((trx) => sql`insert into notes (body) values (${`note ${i}`})`.execute(trx));
      assert.equal(await count(handle.reads), i);
    }
    const last = await sql<{ body: string }>`select body from notes order by id desc limit 1`.execute(handle.reads);
    assert.deepEqual(last.rows, [{ body: 'note 30' }]);
  });
});

it('SQLite list reads run beside the request thread: a quick query on the request connection answers while a long read is running', async () => {
  await withFile(async (handle) => {
    const order: string[] = [];
    // A recursive count to two million: a long read (a few hundred milliseconds) that touches no table.
    const long = sql<{
      n: number;
    }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 2000000) select count(*) as n from c`
      .execute(handle.reads)
      .then((result) => order.push(`long ${result.rows[0]!.n}`));
    const quick = sql<{ x: number }>`select 1 as x`
      .execute(handle.db)
      .then((result) => order.push(`quick ${result.rows[0]!.x}`));
    await Promise.all([long, quick]);
    assert.deepEqual(order, ['quick 1', 'long 2000000']);
  });
});

it('SQLite list reads that pile up run two at a time: a short read given after four long ones is answered first', async () => {
  await withFile(async (handle) => {
    const order: string[] = [];
    const countTo = (n: number) =>
      sql<{
        n: number;
      }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < ${n}) select count(*) as n from c`
        .execute(handle.reads)
        .then((result) => order.push(`counted to ${result.rows[0]!.n}`));
    // Given one after the other: the long ones fill the first worker's queue, and on one worker
    // the short read would wait for all four.
    const long = [1, 2, 3, 4].map(() => countTo(1_500_000));
    const short = countTo(1_000);
    await Promise.all([...long, short]);
    assert.equal(order[0], 'counted to 1000');
    assert.equal(order.length, 5);
  });
});

it('the SQLite read connection refuses writes and transactions, and returns SQLite errors with their code', async () => {
  await withFile(async (handle) => {
    await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
    await assert.rejects(
      sql`insert into notes (body) values ('x')`.execute(handle.reads),
      /only statements that return rows/,
    );
    await assert.rejects(
      handle.reads.transaction().execute(async () => undefined),
      /runs no transactions/,
    );
    await assert.rejects(sql`select * from missing_table`.execute(handle.reads), (err: Error & { code?: string }) => {
      assert.match(err.message, /no such table: missing_table/);
      assert.equal(err.code, 'SQLITE_ERROR');
      return true;
    });
    assert.equal(await count(handle.db), 0);
    // The connection still answers after the errors.
    assert.equal(await count(handle.reads), 0);
  });
});

it('closing the database ends the worker: the last connection to close removes the log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-reads-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase(`sqlite:${file}`);
  await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
  await sql`insert into notes (body) values ('x')`.execute(handle.db);
  assert.equal(await count(handle.reads), 1);
  await handle.close();
  assert.equal(existsSync(`${file}-wal`), false);
  rmSync(dir, { recursive: true, force: true });
});

it('both SQLite connections of a file keep a page cache of 4 MB, not the driver default of 16 MB', async () => {
  await withFile(async (handle) => {
    const cacheSize = async (db: ReturnType<typeof openDatabase>['db']) =>
      (await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]!.cache_size;
    assert.equal(await cacheSize(handle.db), -4096);
    assert.equal(await cacheSize(handle.reads), -4096);
  });
});
