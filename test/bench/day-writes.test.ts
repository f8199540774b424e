import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase, migrateAndSeed, type BenchDatabase } from '../../bench/databases.js';
import { WRITE_DAY_EVENTS, type DatasetSummary } from '../../bench/dataset.js';
import type { ListedPool, PlannedRequest } from '../../bench/drive.js';
import { startService, type RunningServer } from '../../bench/processes.js';
import {
  API_ROOT,
  DAY_WRITERS,
  distinctReads,
  scenarioPools,
  type ScenarioLoad,
  type ScenarioName,
} from '../../bench/scenarios.js';
import type { BackendResult, ScenarioResult } from '../../bench/bench.js';
import { evaluateTargets } from '../../bench/targets.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { backends } from '../support/server.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// The day-writes scenario on a small benchmark dataset: the write day the dataset summary names,
// read back from the database, and the scenario's requests sent once each to the service.
for (const backend of backends) {
  describe(`day-writes: one day of the dataset, created on and retitled [${backend}]`, () => {
    const workDir = mkdtempSync(join(tmpdir(), 'calendar-bench-day-writes-'));
    const adminUser = 'bench-admin';
    const adminPassword = randomBytes(12).toString('hex');
    let database: BenchDatabase;
    let handle: DatabaseHandle;
    let service: RunningServer;
    let summary: DatasetSummary;
    let load: ScenarioLoad;
    const pool = (name: string) => load.pools.find((p) => p.name === name) as ListedPool;
    const send = async (request: PlannedRequest, n: string) => {
      const res = await fetch(`${service.origin}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body?.replaceAll('{{n}}', n),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };

    before(async () => {
      database = await createBenchDatabase(backend === 'sqlite' ? 'sqlite' : PG_URL, workDir, 'day_writes');
      summary = await migrateAndSeed(database.url, { events: 1_500, seed: 5, anchor: '2026-11-27', series: 40 });
      handle = openDatabase(database.url);
      service = await startService({ databaseUrl: database.url, adminUser, adminPassword, fromSource: true });
      const authorization = `Basic ${Buffer.from(`${adminUser}:${adminPassword}`).toString('base64')}`;
      load = scenarioPools(summary, { seed: 5, variedPoolSize: 10, authorization })['day-writes'];
    });
    after(async () => {
      await service?.stop();
      await handle?.close();
      await database?.drop();
      rmSync(workDir, { recursive: true, force: true });
    });

    /** Published, listed events that lead no series and are no occurrence, by local start day. */
    const candidatesByDay = async () => {
      const rows = await handle.db
        .selectFrom('events')
        .innerJoin('posts', 'posts.id', 'events.post_id')
        .select(['events.post_id as id', 'events.start_date'])
        .where('posts.status', '=', 'publish')
        .where('events.hide_from_listings', '=', 0)
        .where('events.post_id', 'not in', (eb) => eb.selectFrom('event_series').select('post_id'))
        .where('events.post_id', 'not in', (eb) => eb.selectFrom('event_series_members').select('event_id'))
        .execute();
      const byDay = new Map<string, number[]>();
      for (const row of rows) {
        const day = row.start_date.slice(0, 10);
        byDay.set(day, [...(byDay.get(day) ?? []), Number(row.id)]);
      }
      return byDay;
    };

    it("the summary's write day events are published, listed, lead no series and start on that day", async () => {
      const { day, eventIds } = summary.writeDay;
      assert.match(day, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(eventIds.length > 0, 'the write day has events');
      const byDay = await candidatesByDay();
      const onDay = byDay.get(day) ?? [];
      assert.deepEqual(
        eventIds,
        [...onDay].sort((a, b) => a - b).slice(0, WRITE_DAY_EVENTS),
        'the first of the events starting on the day, in ID order',
      );
      // 1,500 events give no day 20 events: the write day is then one with the most.
      const most = Math.max(...[...byDay.values()].map((ids) => ids.length));
      assert.ok(most < WRITE_DAY_EVENTS, `a day of ${most} events`);
      assert.equal(eventIds.length, most);
      const rows = await handle.db
        .selectFrom('events')
        .select(['post_id', 'start_date'])
        .where('post_id', 'in', eventIds)
        .execute();
      assert.equal(rows.length, eventIds.length);
      for (const row of rows) assert.equal(row.start_date.slice(0, 10), day, `event ${row.post_id}`);
    });

    it(`the pools create on the day and retitle its events, over ${DAY_WRITERS} connections and no reads`, () => {
      assert.equal(load.connections, DAY_WRITERS);
      assert.deepEqual(load.expected, []);
      assert.deepEqual(
        load.pools.map((p) => [p.name, p.weight]),
        [
          ['day-create', 1],
          ['day-retitle', 1],
        ],
      );
      assert.deepEqual(distinctReads(load.pools), [], 'no cold pass');
      const creates = pool('day-create').requests;
      assert.equal(creates.length, 50);
      for (const request of creates) {
        assert.deepEqual([request.method, request.path], ['POST', `${API_ROOT}/events`]);
        assert.match(request.headers!.authorization!, /^Basic /);
        const body = JSON.parse(request.body!);
        assert.deepEqual(Object.keys(body), ['title', 'description', 'start_date', 'end_date', 'status']);
        assert.equal(body.title, 'Bench event {{n}}');
        assert.equal(body.status, 'publish');
        assert.equal(body.start_date.slice(0, 10), summary.writeDay.day);
        const hours =
          (Date.parse(`${body.end_date.replace(' ', 'T')}Z`) - Date.parse(`${body.start_date.replace(' ', 'T')}Z`)) /
          3_600_000;
        assert.ok([1, 2, 3].includes(hours), `${body.start_date} to ${body.end_date}`);
      }
      assert.ok(new Set(creates.map((r) => JSON.parse(r.body!).start_date.slice(11, 13))).size > 3, 'start hours vary');
      assert.deepEqual(
        pool('day-retitle').requests.map((r) => [r.method, r.path, r.body]),
        summary.writeDay.eventIds.map((id) => [
          'POST',
          `${API_ROOT}/events/${id}`,
          JSON.stringify({ title: 'Bench event retitled {{n}}' }),
        ]),
      );
    });

    it('the service creates each event on the day (201) and retitles each event of the day alone (200)', async () => {
      for (const [i, request] of pool('day-create').requests.slice(0, 3).entries()) {
        const res = await send(request, `c${i}`);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.title, `Bench event c${i}`);
        assert.equal(res.body.start_date.slice(0, 10), summary.writeDay.day);
        assert.equal(res.body.status, 'publish');
      }
      for (const [i, request] of pool('day-retitle').requests.entries()) {
        const id = Number(request.path.split('/').pop());
        const before = await handle.db
          .selectFrom('events')
          .select(['start_date', 'end_date'])
          .where('post_id', '=', id)
          .executeTakeFirstOrThrow();
        const res = await send(request, `r${i}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.id, id);
        assert.equal(res.body.title, `Bench event retitled r${i}`);
        const row = await handle.db
          .selectFrom('events')
          .innerJoin('posts', 'posts.id', 'events.post_id')
          .select(['posts.title', 'posts.status', 'events.start_date', 'events.end_date'])
          .where('events.post_id', '=', id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(row, { title: `Bench event retitled r${i}`, status: 'publish', ...before });
      }
    });
  });
}

describe('the day-writes target (bench/targets.ts)', () => {
  const figures = { requests: 1, rps: 600, p50: 5, p99: 80, errors: 0, pastEnd: 0 };
  const measured = (scenario: ScenarioName, connections: number): ScenarioResult => ({
    scenario,
    connections,
    coldPass: null,
    service: { ...figures, peakRssMb: 100 },
    baseline: figures,
    ratio: { rps: 1, p50: 1, p99: 1 },
    rounds: { service: [], baseline: [] },
  });
  const backend = (name: 'sqlite' | 'postgres', connections: number): BackendResult => ({
    backend: name,
    database: name,
    scaling: [],
    steps: [
      {
        events: 100_000,
        dataset: {} as BackendResult['steps'][number]['dataset'],
        defaultPageBytes: 1,
        defaultPageEncoding: null,
        variedPoolSize: 1,
        scenarios: [measured('mixed', connections), measured('day-writes', DAY_WRITERS)],
      },
    ],
  });
  const check = (targets: ReturnType<typeof evaluateTargets>, prefix: string) =>
    targets.find((t) => t.target.startsWith(prefix))!;

  it('is judged on PostgreSQL at its own 8 connections, and leaves the 32-connection targets comparable', () => {
    const targets = evaluateTargets([backend('sqlite', 32), backend('postgres', 32)], {
      events: 100_000,
      connections: 32,
    });
    assert.deepEqual(check(targets, 'day-writes'), {
      target: 'day-writes on PostgreSQL ≥ 500 req/s, p99 ≤ 100 ms, 0 errors',
      value: '600 req/s, p99 80.0 ms, 0 errors',
      pass: true,
      comparable: true,
    });
    assert.equal(check(targets, 'mixed on PostgreSQL').comparable, true);
    assert.equal(check(targets, 'mixed ≥').comparable, true);
    assert.equal(targets.filter((t) => t.target.startsWith('day-writes')).length, 1, 'nothing new on SQLite');
  });

  it('stays comparable under another --connections, which makes the others informative', () => {
    const targets = evaluateTargets([backend('sqlite', 16), backend('postgres', 16)], {
      events: 100_000,
      connections: 16,
    });
    assert.equal(check(targets, 'day-writes').comparable, true);
    assert.equal(check(targets, 'mixed on PostgreSQL').comparable, false);
  });

  it('fails on a p99 over 100 ms or a single error', () => {
    for (const change of [{ p99: 101 }, { errors: 1 }, { rps: 499 }]) {
      const postgres = backend('postgres', 32);
      const dayWrites = postgres.steps[0]!.scenarios[1]!;
      dayWrites.service = { ...dayWrites.service, ...change };
      const targets = evaluateTargets([postgres], { events: 100_000, connections: 32 });
      assert.equal(check(targets, 'day-writes').pass, false, JSON.stringify(change));
    }
  });
});
