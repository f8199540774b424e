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
          sql<{ workers: string; pid: number }>`select current_setting('max_parallel_workers_per_gather') as workers, pg_backend_pid() as pid, pg_sleep(0.1)::text as slept`.execute(srv.db),
        ),
      );
      const rows = answers.map((answer) => answer.rows[0]!);
      assert.equal(new Set(rows.map((row) => row.pid)).size, 5);
      assert.deepEqual(
        rows.map((row) => row.workers),
        ['0', '0', '0', '0', '0'],
      );
    });
  });
}
