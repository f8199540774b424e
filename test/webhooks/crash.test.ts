import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { startWebhookWorker } from '../../src/resources/webhooks/delivery.js';
import { forEachBackend } from '../support/server.js';

forEachBackend('Webhooks after kill -9', (srv) => {
  const received: string[] = [];
  // The first attempt is never answered: the process sending it is killed meanwhile.
  const receiver = createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    req.resume();
    if (received.length > 1) res.writeHead(200).end();
  });
  after(() => {
    receiver.closeAllConnections();
    receiver.close();
  });

  it('a delivery in flight when its process is killed is sent again by the next one', { timeout: 90_000 }, async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/crash`;
    await srv().setSetting('webhook_private_addresses', 'on');
    const hook = await srv().post('/webhooks', { as: 'administrator', json: { url, events: 'event.*' } });
    assert.equal(hook.status, 201, hook.text);

    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      env: { ...process.env, DATABASE_URL: srv().databaseUrl, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const res = await srv().post('/events', {
        as: 'administrator',
        json: { title: 'Crash', start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00' },
      });
      assert.equal(res.status, 201, res.text);
      const end = Date.now() + 60_000;
      while (!received.length && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(received.length, 1, 'the other process started sending');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const row = await srv()
      .db.selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', hook.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 0);
    // The claim's lease runs out (a minute) before another process may take it: let that minute pass.
    await srv().db.updateTable('webhook_deliveries').set({ next_attempt_utc: '2000-01-01 00:00:00' }).execute();
    const delivery = () =>
      srv()
        .db.selectFrom('webhook_deliveries')
        .select(['status', 'attempts'])
        .where('webhook_id', '=', hook.body.id)
        .executeTakeFirstOrThrow();
    const worker = startWebhookWorker(srv().built.app);
    let delivered = await delivery();
    try {
      // Stopping the worker aborts a send it has not yet recorded: wait for the record, not the receiver.
      const end = Date.now() + 20_000;
      while (delivered.status === 'pending' && Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        delivered = await delivery();
      }
    } finally {
      await worker.stop();
    }
    assert.deepEqual(received, [received[0], received[0]], 'sent again, with the same webhook-id');
    assert.deepEqual(delivered, { status: 'delivered', attempts: 1 });
  });
});
