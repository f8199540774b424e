import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openDatabase } from '../../src/db/connect.js';
import { abandonEventCreate, backends, forEachBackend, startTestServer } from '../support/server.js';

async function waitFor(url: string, ms: number): Promise<Response> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

forEachBackend('calendar serve process', (srv) => {
  it('serves the namespace and stops cleanly on SIGTERM, closing the database', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      env: { ...process.env, DATABASE_URL: srv().databaseUrl, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const res = await waitFor(`http://127.0.0.1:${port}/wp-json/calendar/events/v1`, 30_000);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { namespace: string }).namespace, 'calendar/events/v1');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, output);
    assert.match(output, /shutting down/);
  });
});

for (const backend of backends) {
  it(`[${backend}] closing lets a request being handled end, even after its client has gone: its write is kept`, async () => {
    const srv = await startTestServer(backend);
    try {
      const editor = await srv.user('editor');
      await abandonEventCreate(srv, editor, 'Written while closing');
      await srv.built.close();
      assert.equal(srv.built.inFlight.count(), 0);

      const reopened = openDatabase(srv.databaseUrl);
      try {
        const rows = await reopened.db
          .selectFrom('posts')
          .select('status')
          .where('title', '=', 'Written while closing')
          .execute();
        assert.deepEqual(rows, [{ status: 'publish' }]);
      } finally {
        await reopened.close();
      }
    } finally {
      await srv.close();
    }
  });
}
