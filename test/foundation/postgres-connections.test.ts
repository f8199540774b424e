import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { backends, startTestServer, type TestServer } from '../support/server.js';

if (backends.includes('postgres')) {
  describe('PostgreSQL connections [postgres]', () => {
    let srv: TestServer;
    before(async () => {
      srv = await startTestServer('postgres');
    });
    after(async () => {
      await srv.close();
    });

    it('plan no parallel workers, on every connection of the pool', async () => {
      // Five queries at once, each holding a connection of the test pool (five) for a moment.
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          sql<{
            workers: string;
            pid: number;
          }>`select current_setting('max_parallel_workers_per_gather') as workers, pg_backend_pid() as pid, pg_sleep(0.1)::text as slept`.execute(
            srv.db,
          ),
        ),
      );
      const rows = answers.map((answer) => answer.rows[0]!);
      assert.equal(new Set(rows.map((row) => row.pid)).size, 5);
      assert.deepEqual(
        rows.map((row) => row.workers),
        ['0', '0', '0', '0', '0'],
      );
    });

    it('keep the statements of prepared queries by name, and plan every other statement at each run', async () => {
      const created = await srv.post('/events', {
        as: 'administrator',
        json: {
          title: 'Named statements',
          start_date: '2030-01-02 10:00:00',
          end_date: '2030-01-02 11:00:00',
          status: 'publish',
        },
      });
      assert.equal(created.status, 201);
      // A single read runs prepared queries (the data version before every lookup of the cache,
      // the event by ID when its `{id}` is checked on a miss) on whichever connections the pool
      // gives; the answers stay right once the statements are kept.
      for (let i = 0; i < 12; i++) {
        const read = await srv.get(`/events/${created.body.id}`);
        assert.equal(read.status, 200);
        assert.equal(read.body.title, 'Named statements');
      }
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          sql<{
            pid: number;
            names: string[] | null;
            statements: string[] | null;
          }>`select pg_backend_pid() as pid, (select array_agg(name) from pg_prepared_statements) as names, (select array_agg(statement) from pg_prepared_statements) as statements, pg_sleep(0.1)::text as slept`.execute(
            srv.db,
          ),
        ),
      );
      const rows = answers.map((answer) => answer.rows[0]!);
      assert.equal(new Set(rows.map((row) => row.pid)).size, 5);
      const names = rows.flatMap((row) => row.names ?? []);
      const statements = rows.flatMap((row) => row.statements ?? []);
      assert.ok(names.length > 0 && names.every((name) => /^q[\w-]{27}$/.test(name)), names.join(', '));
      assert.ok(statements.some((text) => text.includes('from "data_version"')));
      assert.ok(!statements.some((text) => text.includes('pg_prepared_statements')));
    });
  });
}
