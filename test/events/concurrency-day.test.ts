import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { readDataVersion } from '../../src/db/data-version.js';
import { forEachBackend, type TestServer, type TestResponse } from '../support/server.js';
import { makeEvent } from './helpers.js';

// Writes of events on one date all meet on the same derived rows: the per-day counts
// (migration 08), the listing mirrors (04, 06) and `data_version`. However many run at once, none
// may fail, and the derived rows must stay exact.

const DAY = '2031-05-10';
const NEXT_DAY = '2031-05-11';

const at = (day: string, hour: number, minutes = 0) =>
  `${day} ${String(hour).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:00`;

/** Every key of `event_day_counts` with a non-zero count, as counted from the table and from `events` directly. */
async function dayCounts(srv: TestServer) {
  const key = sql.raw(
    `clock || ' ' || status || ' ' || hide_from_listings || ' ' || featured || ' ' || start_day || ' ' || end_day`,
  );
  const stored = await sql<{
    key: string;
    n: number | string;
  }>`select ${key} as key, sum(n) as n from event_day_counts group by 1`.execute(srv.db);
  const direct = await sql<{ key: string; n: number | string }>`select ${key} as key, count(*) as n from (
      select 'utc' as clock, status, hide_from_listings, featured, substr(utc_start_date, 1, 10) as start_day, substr(utc_end_date, 1, 10) as end_day from events where status <> ''
      union all
      select 'local', status, hide_from_listings, featured, substr(start_date, 1, 10), substr(end_date, 1, 10) from events where status <> ''
    ) as k group by 1`.execute(srv.db);
  const asMap = (rows: Array<{ key: string; n: number | string }>) =>
    new Map(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.key, Number(r.n)]));
  return { stored: asMap(stored.rows), direct: asMap(direct.rows) };
}

/** Counts every write made to `event_day_counts` from now on, whatever path makes it. */
async function countDayCountWrites(srv: TestServer): Promise<() => Promise<number>> {
  await sql`create table day_count_writes (n integer not null)`.execute(srv.db);
  await sql`insert into day_count_writes (n) values (0)`.execute(srv.db);
  if (srv.backend === 'postgres') {
    await sql`create function day_count_writes() returns trigger language plpgsql as $$
      begin update day_count_writes set n = n + 1; return null; end $$`.execute(srv.db);
    await sql`create trigger day_count_writes after insert or update or delete on event_day_counts for each row execute function day_count_writes()`.execute(
      srv.db,
    );
  } else {
    for (const op of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`day_count_writes_${op}`)} after ${sql.raw(op)} on event_day_counts begin update day_count_writes set n = n + 1; end`.execute(
        srv.db,
      );
    }
  }
  return async () => Number((await sql<{ n: number }>`select n from day_count_writes`.execute(srv.db)).rows[0]!.n);
}

async function listTotal(srv: TestServer, query: Record<string, string>, as?: 'administrator') {
  const res = await srv.get('/events', { query: { ...query, per_page: 50 }, as });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-tec-total'), String(res.body.total));
  assert.equal(res.body.total, (res.body.events as unknown[]).length, `total of ${JSON.stringify(query)}`);
  return res.body.total as number;
}

forEachBackend('Concurrent writes of events on one date', (srv) => {
  it('parallel creates, retitles and moves on one date all succeed and leave the counters exact', async () => {
    const seeded: number[] = [];
    for (let i = 0; i < 6; i++)
      seeded.push(
        (
          await makeEvent(srv(), {
            title: `Seed ${i}`,
            status: 'publish',
            start_date: at(DAY, 9 + i),
            end_date: at(DAY, 10 + i),
          })
        ).id,
      );
    const before = await readDataVersion(srv().db);

    const writes: Array<Promise<TestResponse>> = [];
    for (let i = 0; i < 24; i++) {
      const hour = 8 + (i % 12);
      writes.push(
        srv().post('/events', {
          as: 'administrator',
          json: {
            title: `Created ${i}`,
            status: 'publish',
            start_date: at(DAY, hour),
            end_date: at(DAY, hour, 45),
            featured: i % 3 === 0,
          },
        }),
      );
      const id = seeded[i % seeded.length]!;
      // Some updates move an event to the next day and back, in both directions at once.
      const move =
        i % 4 === 3
          ? { start_date: at(i % 8 === 3 ? NEXT_DAY : DAY, 9), end_date: at(i % 8 === 3 ? NEXT_DAY : DAY, 10) }
          : {};
      writes.push(srv().post(`/events/${id}`, { as: 'administrator', json: { title: `Retitled ${i}`, ...move } }));
    }
    const responses = await Promise.all(writes);

    const failures = responses.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.text}`);
    assert.deepEqual(failures, []);
    for (const res of responses) assert.ok(res.status === 200 || res.status === 201, `${res.status} ${res.text}`);

    const { stored, direct } = await dayCounts(srv());
    assert.deepEqual(stored, direct);
    const after = await readDataVersion(srv().db);
    assert.ok(
      after - before >= writes.length,
      `data_version went from ${before} to ${after} over ${writes.length} writes`,
    );

    const onDay = Number(
      (
        await srv()
          .db.selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('start_date', 'like', `${DAY}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const onNextDay = Number(
      (
        await srv()
          .db.selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('start_date', 'like', `${NEXT_DAY}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );
    assert.equal(onDay + onNextDay, 30);
    for (const as of [undefined, 'administrator'] as const) {
      assert.equal(await listTotal(srv(), { start_date: DAY, end_date: DAY }, as), onDay);
      assert.equal(await listTotal(srv(), { start_date: DAY, end_date: NEXT_DAY }, as), 30);
      assert.equal(await listTotal(srv(), { start_date: DAY, end_date: NEXT_DAY, featured: '1' }, as), 8);
    }
  });

  it('a title-only update writes nothing to event_day_counts, and a date change does', async () => {
    const event = await makeEvent(srv(), {
      title: 'Counted once',
      status: 'publish',
      start_date: at('2031-06-01', 9),
      end_date: at('2031-06-01', 10),
    });
    const writes = await countDayCountWrites(srv());

    const retitled = await srv().post(`/events/${event.id}`, {
      as: 'administrator',
      json: { title: 'Counted once, renamed' },
    });
    assert.equal(retitled.status, 200, retitled.text);
    assert.equal(await writes(), 0);

    const sameDates = await srv().post(`/events/${event.id}`, {
      as: 'administrator',
      json: { start_date: at('2031-06-01', 9), end_date: at('2031-06-01', 10) },
    });
    assert.equal(sameDates.status, 200, sameDates.text);
    assert.equal(await writes(), 0, 'dates sent unchanged are no change');

    const moved = await srv().post(`/events/${event.id}`, {
      as: 'administrator',
      json: { start_date: at('2031-06-02', 9), end_date: at('2031-06-02', 10) },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.ok((await writes()) > 0);
    const { stored, direct } = await dayCounts(srv());
    assert.deepEqual(stored, direct);
  });
});
