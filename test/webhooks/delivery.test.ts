import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { purgeTrash } from '../../src/resources/post-like/trash.js';
import { startWebhookWorker, type WebhookWorker } from '../../src/resources/webhooks/delivery.js';
import { pruneDeliveries } from '../../src/resources/webhooks/repository.js';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver: records every POST; `answer` decides the status (or a delay) per path and attempt. */
class Receiver {
  received: Received[] = [];
  attempts = new Map<string, number>();
  answer: (path: string, attempt: number) => { status: number; delayMs?: number } = () => ({ status: 204 });
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const attempt = (this.attempts.get(path) ?? 0) + 1;
      this.attempts.set(path, attempt);
      this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const { status, delayMs } = this.answer(path, attempt);
      const send = () => res.writeHead(status).end('x'.repeat(3000));
      if (delayMs) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 20_000,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function subscribe(srv: TestServer, url: string, events: string) {
  const res = await srv.post('/webhooks', { as: 'administrator', json: { url, events } });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: number; secret: string };
}

async function createEvent(srv: TestServer, title = 'Hooked'): Promise<number> {
  const res = await srv.post('/events', {
    as: 'administrator',
    json: { title, start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00' },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

async function webhookCount(srv: TestServer): Promise<number> {
  const row = await srv.db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A second service instance on the same database, as another process would be. */
async function secondInstance(srv: TestServer): Promise<BuiltApp> {
  return buildApp(loadConfig({ LOG_LEVEL: 'silent', PORT: '0', WEBHOOK_RETRY_SECONDS: '1' }), {
    database: openDatabase(srv.databaseUrl),
    skipMigrations: true,
  });
}

forEachBackend(
  'Webhooks',
  (srv) => {
    const receiver = new Receiver();
    const workers: WebhookWorker[] = [];
    const startWorker = (built: BuiltApp = srv().built) => {
      const worker = startWebhookWorker(built.app);
      workers.push(worker);
      return worker;
    };
    before(async () => {
      await receiver.start();
      await srv().setSetting('webhook_private_addresses', 'on');
    });
    after(async () => {
      await Promise.all(workers.map((w) => w.stop()));
      await receiver.stop();
    });

    describe('/webhooks', () => {
      it('an administrator subscribes and sees the secret once; lists never show it', async () => {
        const created = await subscribe(srv(), `${receiver.url}/crud`, 'event.created, venue.*');
        assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
        assert.deepEqual((created as any).events, ['event.created', 'venue.*']);
        const list = await srv().get('/webhooks', { as: 'administrator' });
        assert.equal(list.status, 200);
        const listed = list.body.find((w: { id: number }) => w.id === created.id);
        assert.equal(listed.url, `${receiver.url}/crud`);
        assert.equal(listed.secret, undefined);
        const rotated = await srv().post(`/webhooks/${created.id}/secret`, { as: 'administrator' });
        assert.equal(rotated.status, 200);
        assert.notEqual(rotated.body.secret, created.secret);
        const removed = await srv().request('DELETE', `/webhooks/${created.id}`, { as: 'administrator' });
        assert.equal(removed.status, 200);
        expectRestError(
          await srv().get(`/webhooks/${created.id}`, { as: 'administrator' }),
          404,
          'rest_webhook_not_found',
        );
      });

      it('only administrators: anonymous 401, an editor 403, on every route', async () => {
        const json = { url: 'https://example.org/hook', events: 'event.created' };
        for (const [method, path] of [
          ['GET', '/webhooks'],
          ['POST', '/webhooks'],
          ['GET', '/webhooks/1'],
          ['DELETE', '/webhooks/1'],
          ['POST', '/webhooks/1/secret'],
          ['GET', '/webhooks/1/deliveries'],
          ['POST', '/webhooks/1/deliveries/1/retry'],
        ] as const) {
          const body = method === 'GET' ? {} : { json };
          expectRestError(await srv().request(method, path, body), 401, 'rest_forbidden');
          expectRestError(await srv().request(method, path, { as: 'editor', ...body }), 403, 'rest_forbidden');
        }
      });

      for (const [fields, param, detail] of [
        [{ url: 'ftp://example.org/x', events: 'event.created' }, 'url', 'not_a_webhook_url'],
        [{ url: 'javascript:alert(1)', events: 'event.created' }, 'url', 'not_a_webhook_url'],
        [{ url: 'https://example.org/x', events: 'event.exploded' }, 'events', 'unknown_webhook_events'],
        [{ url: 'https://example.org/x', events: '' }, 'events', 'unknown_webhook_events'],
      ] as const) {
        it(`${param}=${JSON.stringify(fields[param])} is refused and nothing is stored`, async () => {
          const before = await webhookCount(srv());
          const res = await srv().post('/webhooks', { as: 'administrator', json: fields });
          expectRestError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${param}`);
          assert.equal(res.body.data.details[param].code, detail);
          assert.equal(await webhookCount(srv()), before);
        });
      }
    });

    describe('delivery', () => {
      it('every event type is delivered, signed so that the standardwebhooks library verifies it', async () => {
        const hook = await subscribe(srv(), `${receiver.url}/all`, 'event.*,venue.*,organizer.*,category.*,tag.*');
        startWorker();
        const event = await createEvent(srv(), 'Signed');
        await srv().post(`/events/${event}`, { as: 'administrator', json: { title: 'Signed again' } });
        await srv().request('DELETE', `/events/${event}`, { as: 'administrator' });
        await srv().post(`/events/${event}`, { as: 'administrator', json: { status: 'publish' } });
        await srv().request('DELETE', `/events/${event}`, { as: 'administrator' });
        await srv()
          .db.transaction()
          .execute((trx) => purgeTrash(trx, 0));
        const expected = [
          'event.created',
          'event.updated',
          'event.trashed',
          'event.restored',
          'event.trashed',
          'event.deleted',
        ];
        for (const [collection, body] of [
          ['venues', { venue: 'Hooked hall' }],
          ['organizers', { organizer: 'Hooked org' }],
          ['categories', { name: 'Hooked' }],
          ['tags', { name: 'Hooked tag' }],
        ] as const) {
          const type = { venues: 'venue', organizers: 'organizer', categories: 'category', tags: 'tag' }[collection];
          const res = await srv().post(`/${collection}`, { as: 'administrator', json: body });
          await srv().post(`/${collection}/${res.body.id}`, { as: 'administrator', json: { description: 'd' } });
          await srv().request('DELETE', `/${collection}/${res.body.id}`, { as: 'administrator' });
          const end = type === 'venue' || type === 'organizer' ? 'trashed' : 'deleted';
          expected.push(`${type}.created`, `${type}.updated`, `${type}.${end}`);
        }
        const received = await until('every delivery', () => {
          const got = receiver.on('/all');
          return got.length >= expected.length && got;
        });
        const verifier = new Webhook(hook.secret);
        const payloads = received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as any);
        assert.deepEqual(payloads.map((p) => p.type).sort(), [...expected].sort());
        const created = payloads.find((p) => p.type === 'event.created');
        assert.equal(created.data.id, event);
        assert.match(created.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.deepEqual(payloads.find((p) => p.type === 'event.deleted').data, { id: event });
        assert.match(received[0]!.headers['webhook-signature'] as string, /^v1,/);
        assert.throws(() =>
          new Webhook(`whsec_${Buffer.from('x'.repeat(24)).toString('base64')}`).verify(
            received[0]!.body,
            received[0]!.headers as Record<string, string>,
          ),
        );
        // The receiver may answer before the outcome is recorded.
        const log = await until('every outcome recorded', async () => {
          const res = await srv().get(`/webhooks/${hook.id}/deliveries`, {
            as: 'administrator',
            query: { per_page: 50 },
          });
          return res.body.every((d: { status: string }) => d.status === 'delivered') && res;
        });
        assert.equal(log.headers.get('x-wp-total'), String(expected.length));
        for (const delivery of log.body) {
          assert.equal(delivery.status, 'delivered');
          assert.equal(delivery.last_status_code, 204);
          assert.ok(delivery.last_response.length <= 1024, 'no more than 1 KiB of the response is kept');
        }
        await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });

      it('a 500 is retried with backoff until a 2xx; the log shows the attempts', async () => {
        receiver.answer = (path, attempt) => ({ status: path === '/flaky' && attempt < 3 ? 500 : 200 });
        const hook = await subscribe(srv(), `${receiver.url}/flaky`, 'event.created');
        startWorker();
        await createEvent(srv());
        await until('the third attempt', () => receiver.on('/flaky').length >= 3);
        const log = await until('the delivery to be recorded', async () => {
          const res = await srv().get(`/webhooks/${hook.id}/deliveries`, { as: 'administrator' });
          return res.body[0]?.status === 'delivered' && res.body;
        });
        assert.equal(log[0].attempts, 3);
        assert.equal(log[0].last_status_code, 200);
        const ids = new Set(receiver.on('/flaky').map((r) => r.headers['webhook-id']));
        assert.equal(ids.size, 1, 'every attempt carries the same webhook-id');
        await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });

      it('settled deliveries older than changes_retention_days leave the log; pending ones stay', async () => {
        receiver.answer = (path) => ({ status: path === '/kept' ? 200 : 503 });
        const kept = await subscribe(srv(), `${receiver.url}/kept`, 'event.created');
        const stuck = await subscribe(srv(), `${receiver.url}/stuck`, 'event.created');
        startWorker();
        await createEvent(srv(), 'Pruned');
        await createEvent(srv(), 'Recent');
        const log = async (id: number) =>
          (await srv().get(`/webhooks/${id}/deliveries`, { as: 'administrator' })).body as Array<Record<string, any>>;
        await until(
          'both deliveries to /kept',
          async () => (await log(kept.id)).filter((d) => d.status === 'delivered').length === 2,
        );
        await until(
          'a failed attempt to /stuck',
          async () => (await log(stuck.id)).every((d) => d.attempts >= 1) && (await log(stuck.id)).length === 2,
        );
        const [recent, old] = await log(kept.id);
        const [, oldPending] = await log(stuck.id);
        await srv()
          .db.updateTable('webhook_deliveries')
          .set({ created_utc: '2000-01-01 00:00:00' })
          .where('id', 'in', [old.id, oldPending.id])
          .execute();
        const removed = await srv()
          .db.transaction()
          .execute((trx) => pruneDeliveries(trx, 30));
        assert.equal(removed, 1);
        assert.deepEqual(
          (await log(kept.id)).map((d) => d.id),
          [recent.id],
        );
        assert.equal((await log(stuck.id)).length, 2, 'a pending delivery stays, however old');
        for (const hook of [kept, stuck])
          await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });

      it('a delivery a day old is given up; a subscription failing for a day is disabled; both can be resumed', async () => {
        let receiverUp = false;
        receiver.answer = (path) => ({ status: path === '/down' && !receiverUp ? 503 : 200 });
        const hook = await subscribe(srv(), `${receiver.url}/down`, 'event.created');
        startWorker();
        await createEvent(srv());
        const [delivery] = await until('a first failed attempt', async () => {
          const res = await srv().get(`/webhooks/${hook.id}/deliveries`, { as: 'administrator' });
          return res.body[0]?.attempts >= 1 && res.body;
        });
        // A day passes: the delivery and the failures are as old as that.
        await srv()
          .db.updateTable('webhook_deliveries')
          .set({ created_utc: '2000-01-01 00:00:00' })
          .where('id', '=', delivery.id)
          .execute();
        await srv()
          .db.updateTable('webhooks')
          .set({ failing_since: '2000-01-01 00:00:00' })
          .where('id', '=', hook.id)
          .execute();
        const failed = await until('the delivery to be given up', async () => {
          const res = await srv().get(`/webhooks/${hook.id}/deliveries`, { as: 'administrator' });
          return res.body[0]?.status === 'failed' && res.body[0];
        });
        assert.equal(failed.last_status_code, 503);
        assert.equal(failed.next_attempt_utc, null);
        const disabled = await srv().get(`/webhooks/${hook.id}`, { as: 'administrator' });
        assert.equal(disabled.body.status, 'disabled');
        assert.equal(disabled.body.disabled_reason, 'deliveries failed for 24 hours (last: HTTP 503)');

        receiverUp = true;
        const retried = await srv().post(`/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, {
          as: 'administrator',
        });
        assert.equal(retried.status, 200, retried.text);
        assert.equal(retried.body.status, 'pending');
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        assert.equal(receiver.on('/down').length, failed.attempts, 'a disabled subscription receives nothing');
        const enabled = await srv().post(`/webhooks/${hook.id}`, { as: 'administrator', json: { status: 'enabled' } });
        assert.deepEqual(
          [enabled.body.status, enabled.body.disabled_reason, enabled.body.failing_since],
          ['enabled', '', null],
        );
        await until('the retried delivery', async () => {
          const res = await srv().get(`/webhooks/${hook.id}/deliveries`, { as: 'administrator' });
          return res.body[0]?.status === 'delivered';
        });
        expectRestError(
          await srv().post(`/webhooks/${hook.id}/deliveries/999999/retry`, { as: 'administrator' }),
          404,
          'rest_webhook_delivery_not_found',
        );
        await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });

      it('a receiver that does not answer within 10 s is retried', { timeout: 60_000 }, async () => {
        receiver.answer = (path, attempt) => ({ status: 200, delayMs: path === '/slow' && attempt === 1 ? 15_000 : 0 });
        const hook = await subscribe(srv(), `${receiver.url}/slow`, 'event.created');
        startWorker();
        const started = Date.now();
        // A slow receiver holds no request up.
        await createEvent(srv());
        assert.ok(Date.now() - started < 5_000);
        const log = await until(
          'the retry after the timeout',
          async () => {
            const res = await srv().get(`/webhooks/${hook.id}/deliveries`, { as: 'administrator' });
            return res.body[0]?.status === 'delivered' && res.body;
          },
          40_000,
        );
        assert.equal(log[0].attempts, 2);
        assert.equal(receiver.on('/slow').length, 2);
        await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });

      it('private, loopback and link-local addresses are refused unless the setting allows them', async () => {
        await srv().setSetting('webhook_private_addresses', 'off');
        try {
          const hooks = [];
          for (const url of [
            `${receiver.url}/private`,
            'http://localhost:9/x',
            'http://169.254.169.254/latest',
            'http://[::1]:9/x',
          ])
            hooks.push(await subscribe(srv(), url, 'event.created'));
          startWorker();
          await createEvent(srv());
          for (const hook of hooks) {
            const log = await until('a refused attempt', async () => {
              const res = await srv().get(`/webhooks/${hook.id}/deliveries`, { as: 'administrator' });
              return res.body[0]?.attempts >= 1 && res.body;
            });
            assert.match(log[0].last_error, /^refused: .* a private address$/);
            assert.equal(log[0].last_status_code, null);
            assert.equal(log[0].status, 'pending', 'retried later: the setting may change');
          }
          assert.equal(receiver.on('/private').length, 0);
          for (const hook of hooks) await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
        } finally {
          await srv().setSetting('webhook_private_addresses', 'on');
        }
      });

      it('stopping the worker ends a send in flight at once and leaves the delivery due for the next process', async () => {
        await Promise.all(workers.splice(0).map((w) => w.stop()));
        receiver.answer = (path) => ({ status: 200, delayMs: path === '/hang' ? 15_000 : 0 });
        const hook = await subscribe(srv(), `${receiver.url}/hang`, 'event.created');
        const worker = startWorker();
        await createEvent(srv());
        await until('the send to start', () => receiver.on('/hang').length);
        const started = Date.now();
        await worker.stop();
        assert.ok(Date.now() - started < 3_000, 'the stop did not wait for the receiver');
        const row = await srv()
          .db.selectFrom('webhook_deliveries')
          .selectAll()
          .where('webhook_id', '=', hook.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.status, 'pending');
        assert.equal(row.attempts, 0, 'an aborted send is no attempt');
        assert.ok(row.next_attempt_utc <= new Date().toISOString().slice(0, 19).replace('T', ' '), 'due again now');
        await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });

      it('an outbox left undelivered by a stopped process is delivered after a restart', async () => {
        await Promise.all(workers.splice(0).map((w) => w.stop()));
        const hook = await subscribe(srv(), `${receiver.url}/restart`, 'event.created');
        const event = await createEvent(srv());
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        assert.equal(receiver.on('/restart').length, 0, 'nothing is sent while no process runs');
        const restarted = await secondInstance(srv());
        try {
          startWorker(restarted);
          const [got] = await until(
            'the delivery after the restart',
            () => receiver.on('/restart').length && receiver.on('/restart'),
          );
          const payload = JSON.parse(got!.body);
          assert.equal(payload.data.id, event);
          assert.equal(payload.data.title, 'Hooked', 'the record as GET answers an administrator');
        } finally {
          await Promise.all(workers.splice(0).map((w) => w.stop()));
          await restarted.close();
        }
        await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });

      it('two processes deliver each change once', async () => {
        const hook = await subscribe(srv(), `${receiver.url}/twice`, 'event.created');
        const other = await secondInstance(srv());
        try {
          startWorker();
          startWorker(other);
          const ids = [];
          for (let i = 0; i < 20; i++) ids.push(await createEvent(srv(), `Once ${i}`));
          await until('20 deliveries', () => receiver.on('/twice').length >= 20);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          const delivered = receiver.on('/twice').map((r) => JSON.parse(r.body).data.id);
          assert.deepEqual(
            [...delivered].sort((a, b) => a - b),
            ids.sort((a, b) => a - b),
          );
        } finally {
          await Promise.all(workers.splice(0).map((w) => w.stop()));
          await other.close();
        }
        await srv().request('DELETE', `/webhooks/${hook.id}`, { as: 'administrator' });
      });
    });
  },
  { WEBHOOK_RETRY_SECONDS: '1' },
);
