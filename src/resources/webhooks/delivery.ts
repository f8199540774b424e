import { setMaxListeners } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { Selectable } from 'kysely';
import type { Db, WebhookDeliveriesTable } from '../../db/tables.js';
import { RestError } from '../../http/errors.js';
import { urlsFor } from '../../http/register.js';
import type { AppContext, RequestContext } from '../../http/route.js';
import { validateArgs } from '../../http/validate.js';
import { nowUtcWall, utcWallMs } from '../../time/format.js';
import { RefusedAddress, deliveryAddress } from './addresses.js';
import { subscribes } from './event-types.js';

/**
 * Webhook delivery (Standard Webhooks 1.0), at least once, after commit.
 *
 * - Fan-out: the outbox is `record_changes`, written in each write's transaction. One transaction
 *   at a time (the `webhook_outbox` row is locked first) turns the changes after the outbox position
 *   into one delivery row per matching subscription and moves the position; the feed's tokens
 *   follow commit order (migration 16a), so no change is passed over.
 * - Claim: a process takes due deliveries by moving their next attempt a lease ahead; on PostgreSQL
 *   with `for update skip locked`, so two processes never take the same row. A process killed while
 *   sending leaves the row due again once the lease ends: it is sent again (at least once).
 * - Attempt: the receiver's name is resolved now and the connection goes to that checked address;
 *   a 2xx within the timeout is success. A failure is retried after `WEBHOOK_RETRY_SECONDS`, doubling,
 *   with jitter, until the delivery is a day old; a subscription failing for a day is disabled.
 */

/** A receiver's answer must start within this time. */
const TIMEOUT_MS = 10_000;
/** A claimed delivery is left alone by other processes this long (more than an attempt can take). */
const LEASE_MS = 60_000;
const GIVE_UP_MS = 24 * 3_600_000;
/** Longest wait between two attempts of one delivery. */
const MAX_BACKOFF_MS = 3_600_000;
/** Bytes of a response body kept in the delivery log. */
const KEPT_RESPONSE_BYTES = 1024;
const CHANGES_PER_FAN_OUT = 500;
const CLAIMS_PER_TURN = 16;
const POLL_MS = 500;

type Delivery = Selectable<WebhookDeliveriesTable>;

const wallAfter = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The first change after the outbox position, if any: what each poll reads before it writes. In
 * token order, so that the token index answers at once: unordered, PostgreSQL's planner, which
 * expects a third of the rows past a position it cannot see, scanned the table from its start, to
 * its end whenever nothing was waiting.
 */
export function firstWaitingChange(db: Db) {
  return db
    .selectFrom('record_changes')
    .select('token')
    .where('token', '>', (eb) => eb.selectFrom('webhook_outbox').select('token'))
    .orderBy('token')
    .limit(1);
}

/** Turns the changes after the outbox position into deliveries; returns how many changes it read. */
export async function fanOut(app: AppContext): Promise<number> {
  // A read first: polling writes nothing while no change is waiting.
  const waiting = await firstWaitingChange(app.db).executeTakeFirst();
  if (!waiting) return 0;
  return app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_outbox')
      .set((eb) => ({ token: eb.ref('token') }))
      .where('id', '=', 1)
      .execute();
    const { token } = await trx.selectFrom('webhook_outbox').select('token').executeTakeFirstOrThrow();
    const changes = await trx
      .selectFrom('record_changes')
      .select(['token', 'type', 'record_id', 'action', 'changed_utc'])
      .where('token', '>', Number(token))
      .orderBy('token')
      .limit(CHANGES_PER_FAN_OUT)
      .execute();
    if (!changes.length) return 0;
    const hooks = await trx
      .selectFrom('webhooks')
      .select(['id', 'events', 'from_token'])
      .where('status', '=', 'enabled')
      .execute();
    const now = nowUtcWall();
    const rows = changes.flatMap((change) => {
      const type = `${change.type}.${change.action}`;
      return hooks
        .filter((hook) => Number(change.token) > Number(hook.from_token) && subscribes(hook.events.split(','), type))
        .map((hook) => ({
          webhook_id: hook.id,
          message_id: `msg_${change.token}_${hook.id}`,
          type,
          record_type: change.type,
          record_id: change.record_id,
          changed_utc: change.changed_utc,
          next_attempt_utc: now,
          created_utc: now,
        }));
    });
    for (let i = 0; i < rows.length; i += 100)
      await trx
        .insertInto('webhook_deliveries')
        .values(rows.slice(i, i + 100))
        .execute();
    await trx
      .updateTable('webhook_outbox')
      .set({ token: Number(changes.at(-1)!.token) })
      .execute();
    return changes.length;
  });
}

/** Takes the due deliveries of enabled subscriptions for this process, a lease ahead. */
export async function claimDue(app: AppContext): Promise<Delivery[]> {
  const now = nowUtcWall();
  return app.db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_utc', '<=', now)
      .where('webhook_id', 'in', (eb) => eb.selectFrom('webhooks').select('id').where('status', '=', 'enabled'))
      .orderBy('next_attempt_utc')
      .orderBy('id')
      .limit(CLAIMS_PER_TURN);
    if (app.backend === 'postgres') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((row) => row.id);
    if (!ids.length) return [];
    return trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_utc: wallAfter(LEASE_MS) })
      .where('id', 'in', ids)
      .returningAll()
      .execute();
  });
}

const COLLECTIONS: Record<string, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};

/** A request context of the service itself, reading as an administrator. */
async function administratorContext(app: AppContext): Promise<RequestContext> {
  return {
    app,
    user: { id: 0, login: '', role: 'administrator' },
    settings: await app.settings.get(),
    lang: '',
    urls: urlsFor(app, ''),
    method: 'GET',
    given: {},
    path: {},
    raw: {},
    headers: {},
    ip: '',
  };
}

/**
 * The record as `GET /{collection}/{id}` answers an administrator: that route's own arguments,
 * permission and handler; `null` once the record is gone.
 */
export async function recordAsAdministrator(app: AppContext, type: string, id: number): Promise<unknown> {
  const route = app.routes.find((def) => def.pattern === `/${COLLECTIONS[type]}/(?P<id>\\d+)`);
  const endpoint = route?.endpoints.find((e) => e.methods.includes('GET'));
  if (!endpoint) return null;
  const ctx = await administratorContext(app);
  try {
    const input = await validateArgs(endpoint.args, { id: String(id) }, { ...ctx, path: { id: String(id) } });
    return (await endpoint.handler(ctx, input)).body;
  } catch (err) {
    if (err instanceof RestError) return null;
    throw err;
  }
}

interface Outcome {
  status: number | null;
  response: string;
  error: string;
}

/** One POST, to the address checked now; the body kept up to `KEPT_RESPONSE_BYTES`. */
async function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
  signal: AbortSignal,
) {
  const target = await deliveryAddress(url.hostname, allowPrivate);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Outcome>((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        lookup: (_host, _options, callback) => callback(null, target.address, target.family),
        timeout: TIMEOUT_MS,
        signal,
      },
      (response) => {
        const kept: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < KEPT_RESPONSE_BYTES) kept.push(chunk.subarray(0, KEPT_RESPONSE_BYTES - size));
          size += chunk.length;
        });
        const done = () =>
          resolve({ status: response.statusCode ?? null, response: Buffer.concat(kept).toString('utf8'), error: '' });
        response.on('end', done);
        response.on('error', done);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', (err) => resolve({ status: null, response: '', error: err.message }));
    request.end(body);
  });
}

/** Sends one delivery and records the outcome. */
export async function attempt(
  app: AppContext,
  delivery: Delivery,
  config: { retrySeconds: number },
  signal: AbortSignal,
) {
  const hook = await app.db.selectFrom('webhooks').selectAll().where('id', '=', delivery.webhook_id).executeTakeFirst();
  if (!hook) return;
  const data = delivery.type.endsWith('.deleted')
    ? { id: delivery.record_id }
    : ((await recordAsAdministrator(app, delivery.record_type, delivery.record_id)) ?? { id: delivery.record_id });
  const body = JSON.stringify({ type: delivery.type, timestamp: `${delivery.changed_utc.replace(' ', 'T')}Z`, data });
  const sentAt = new Date();
  const signature = new Webhook(hook.secret).sign(delivery.message_id, sentAt, body);
  const headers = {
    'webhook-id': delivery.message_id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const { webhook_private_addresses: allowPrivate } = await app.settings.get();
  let outcome: Outcome;
  try {
    outcome = await post(new URL(hook.url), headers, body, allowPrivate, signal);
  } catch (err) {
    outcome = {
      status: null,
      response: '',
      error: err instanceof RefusedAddress ? `refused: ${err.message}` : String(err),
    };
  }
  // Shutting down: the delivery is due again at once, for this process's successor or another one.
  if (signal.aborted) {
    await app.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_utc: nowUtcWall() })
      .where('id', '=', delivery.id)
      .execute();
    return;
  }
  await recordOutcome(app, delivery, outcome, config.retrySeconds);
}

async function recordOutcome(app: AppContext, delivery: Delivery, outcome: Outcome, retrySeconds: number) {
  const now = nowUtcWall();
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const attempts = delivery.attempts + 1;
  const expired = Date.now() - utcWallMs(delivery.created_utc) >= GIVE_UP_MS;
  const backoff = Math.min(retrySeconds * 1000 * 2 ** (attempts - 1), MAX_BACKOFF_MS) * (0.75 + Math.random() / 4);
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: ok ? 'delivered' : expired ? 'failed' : 'pending',
        attempts,
        next_attempt_utc: ok || expired ? now : wallAfter(backoff),
        last_attempt_utc: now,
        last_status_code: outcome.status,
        last_error: outcome.error,
        last_response: outcome.response,
      })
      .where('id', '=', delivery.id)
      .execute();
    if (ok) {
      await trx.updateTable('webhooks').set({ failing_since: null }).where('id', '=', delivery.webhook_id).execute();
      return;
    }
    await trx
      .updateTable('webhooks')
      .set({ failing_since: now })
      .where('id', '=', delivery.webhook_id)
      .where('failing_since', 'is', null)
      .execute();
    await trx
      .updateTable('webhooks')
      .set({ status: 'disabled', disabled_reason: `deliveries failed for 24 hours (last: ${describe(outcome)})` })
      .where('id', '=', delivery.webhook_id)
      .where('failing_since', '<=', new Date(Date.now() - GIVE_UP_MS).toISOString().slice(0, 19).replace('T', ' '))
      .execute();
  });
}

const describe = (outcome: Outcome) => (outcome.status === null ? outcome.error : `HTTP ${outcome.status}`);

export interface WebhookWorker {
  /** Stops taking deliveries, ends the ones being sent, and resolves once nothing of it runs. */
  stop(): Promise<void>;
}

/** Polls for changes and due deliveries; sends them off the request path. */
export function startWebhookWorker(app: AppContext): WebhookWorker {
  const aborter = new AbortController();
  // Every delivery being sent listens for the stop.
  setMaxListeners(CLAIMS_PER_TURN * 2, aborter.signal);
  const sending = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> = Promise.resolve();
  const runTurn = async () => {
    await fanOut(app);
    if (sending.size >= CLAIMS_PER_TURN) return;
    for (const delivery of await claimDue(app)) {
      const send = attempt(app, delivery, { retrySeconds: app.config.webhookRetrySeconds }, aborter.signal)
        .catch(() => undefined)
        .finally(() => sending.delete(send));
      sending.add(send);
    }
  };
  const schedule = () => {
    if (aborter.signal.aborted) return;
    timer = setTimeout(() => {
      turn = runTurn()
        .catch(() => undefined)
        .finally(schedule);
    }, POLL_MS);
  };
  schedule();
  return {
    stop: async () => {
      aborter.abort();
      clearTimeout(timer);
      await turn;
      await Promise.allSettled([...sending]);
    },
  };
}
