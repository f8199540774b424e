import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { WebhookDeliveriesTable } from '../../db/tables.js';
import { args } from '../../http/args.js';
import { paramReasons } from '../../http/errors.js';
import { pagingArgs, resolvePaging } from '../../http/pagination.js';
import {
  UPDATE_METHODS,
  Valid,
  defineRoute,
  endpoint,
  type ArgDef,
  type Permission,
  type RequestContext,
  type RouteDef,
} from '../../http/route.js';
import { parseHttpUrl } from '../../text/url.js';
import { WEBHOOK_EVENT_TYPES, parseEventTypes } from './event-types.js';
import {
  countDeliveries,
  deleteWebhook,
  getWebhookById,
  insertWebhook,
  listDeliveries,
  listWebhookRows,
  retryDelivery,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookRow,
} from './repository.js';

/** Subscriptions hold secrets and name internal systems: administrators only, reads included. */
const administrators: Permission = (ctx) => ctx.user?.role === 'administrator';

/** An http(s) URL, cleaned (text/url.ts); other schemes are refused here, addresses at delivery. */
export function webhookUrl(value: unknown): string | undefined {
  return typeof value === 'string' && /^https?:\/\//i.test(value.trim()) ? parseHttpUrl(value.trim()) : undefined;
}

const urlArg = (): ArgDef<string> => ({
  schema: Type.String({ description: 'Where deliveries are POSTed: an http or https URL.', format: 'uri' }),
  validate: (v) => {
    const url = webhookUrl(v);
    return url === undefined ? paramReasons.notAWebhookUrl(v) : new Valid(url);
  },
});

const eventsArg = (): ArgDef<string[]> => ({
  schema: Type.Array(Type.String({ enum: [...WEBHOOK_EVENT_TYPES] }), {
    description: 'Event types delivered (a list or a comma-separated string): event.created, venue.*, …',
  }),
  validate: (v) => {
    const types = parseEventTypes(v);
    return types === undefined ? paramReasons.unknownWebhookEvents(v) : new Valid(types);
  },
});

const idArg = (description: string) => ({ ...args.positiveInteger(description), required: true as const });

function representWebhook(ctx: RequestContext, row: WebhookRow, secret?: string) {
  return {
    id: row.id,
    url: row.url,
    events: row.events.split(','),
    status: row.status,
    disabled_reason: row.disabled_reason,
    failing_since: row.failing_since,
    created_utc: row.created_utc,
    ...(secret ? { secret } : {}),
    deliveries_url: `${ctx.urls.root}/webhooks/${row.id}/deliveries`,
  };
}

function representDelivery(row: Selectable<WebhookDeliveriesTable>) {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    message_id: row.message_id,
    type: row.type,
    record_id: row.record_id,
    status: row.status,
    attempts: row.attempts,
    next_attempt_utc: row.status === 'pending' ? row.next_attempt_utc : null,
    last_attempt_utc: row.last_attempt_utc,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_response: row.last_response,
    created_utc: row.created_utc,
  };
}

const WebhookJson = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabled_reason: Type.String(),
  failing_since: Type.Union([Type.String(), Type.Null()]),
  created_utc: Type.String(),
  secret: Type.Optional(Type.String({ description: 'Only in the answer that created or rotated it.' })),
  deliveries_url: Type.String(),
});

const webhookId = { id: idArg('The webhook ID.') };

function collectionRoute(): RouteDef {
  return defineRoute('/webhooks', [
    endpoint({
      methods: ['GET'],
      args: {},
      permission: administrators,
      handler: async (ctx) => ({
        body: (await listWebhookRows(ctx.app.db)).map((row) => representWebhook(ctx, row)),
      }),
      summary: 'List webhook subscriptions (administrators).',
      response: Type.Array(WebhookJson),
      errorStatuses: [401, 403],
    }),
    endpoint({
      methods: ['POST'],
      args: { url: { ...urlArg(), required: true as const }, events: { ...eventsArg(), required: true as const } },
      permission: administrators,
      handler: async (ctx, input) => {
        const { url, events } = input;
        const row = await ctx.app.db.transaction().execute((trx) => insertWebhook(trx, url, events));
        return { status: 201, body: representWebhook(ctx, row, row.secret) };
      },
      summary: 'Subscribe a URL to changes; the answer shows the signing secret, once.',
      response: WebhookJson,
      successStatus: 201,
      errorStatuses: [400, 401, 403],
    }),
  ]);
}

function webhookRoute(): RouteDef {
  return defineRoute('/webhooks/(?P<id>\\d+)', [
    endpoint({
      methods: ['GET'],
      args: webhookId,
      permission: administrators,
      handler: async (ctx, { id }) => ({ body: representWebhook(ctx, await getWebhookById(ctx.app.db, id)) }),
      summary: 'Read a webhook subscription.',
      response: WebhookJson,
      errorStatuses: [401, 403, 404],
    }),
    endpoint({
      methods: UPDATE_METHODS,
      args: {
        ...webhookId,
        url: urlArg(),
        events: eventsArg(),
        status: args.string(
          'enabled (also clears the failures that disabled it) or disabled.',
          {},
          {
            enum: ['enabled', 'disabled'],
          },
        ),
      },
      permission: administrators,
      handler: async (ctx, input) => {
        const row = await ctx.app.db.transaction().execute(async (trx) => {
          await getWebhookById(trx, input.id);
          await updateWebhook(trx, input.id, {
            url: input.url ?? undefined,
            events: input.events ?? undefined,
            status: (input.status ?? undefined) as 'enabled' | 'disabled' | undefined,
          });
          return getWebhookById(trx, input.id);
        });
        return { body: representWebhook(ctx, row) };
      },
      summary: 'Change a subscription’s URL, event types or status.',
      response: WebhookJson,
      errorStatuses: [400, 401, 403, 404],
    }),
    endpoint({
      methods: ['DELETE'],
      args: webhookId,
      permission: administrators,
      handler: async (ctx, { id }) => {
        const row = await ctx.app.db.transaction().execute(async (trx) => {
          const existing = await getWebhookById(trx, id);
          await deleteWebhook(trx, id);
          return existing;
        });
        return { body: representWebhook(ctx, row) };
      },
      summary: 'Remove a subscription and its delivery log; the answer is the subscription as it was.',
      response: WebhookJson,
      errorStatuses: [401, 403, 404],
    }),
  ]);
}

function secretRoute(): RouteDef {
  return defineRoute('/webhooks/(?P<id>\\d+)/secret', [
    endpoint({
      methods: ['POST'],
      args: webhookId,
      permission: administrators,
      handler: async (ctx, { id }) => {
        const row = await ctx.app.db.transaction().execute(async (trx) => {
          const secret = await rotateWebhookSecret(trx, (await getWebhookById(trx, id)).id);
          return { ...(await getWebhookById(trx, id)), secret };
        });
        return { body: representWebhook(ctx, row, row.secret) };
      },
      summary: 'Replace the signing secret; the answer shows the new one, once.',
      response: WebhookJson,
      errorStatuses: [401, 403, 404],
    }),
  ]);
}

function deliveriesRoute(): RouteDef {
  return defineRoute('/webhooks/(?P<id>\\d+)/deliveries', [
    endpoint({
      methods: ['GET'],
      args: { ...webhookId, ...pagingArgs('deliveries') },
      permission: administrators,
      handler: async (ctx, input) => {
        const { perPage, offset } = resolvePaging(input, ctx.settings);
        const db = ctx.app.db;
        await getWebhookById(db, input.id);
        const [rows, total] = await Promise.all([
          listDeliveries(db, input.id, perPage, offset),
          countDeliveries(db, input.id),
        ]);
        return {
          body: rows.map(representDelivery),
          headers: { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(Math.ceil(total / perPage)) },
        };
      },
      summary: 'The delivery log of a subscription, newest first.',
      errorStatuses: [400, 401, 403, 404],
    }),
  ]);
}

function retryRoute(): RouteDef {
  return defineRoute('/webhooks/(?P<id>\\d+)/deliveries/(?P<delivery>\\d+)/retry', [
    endpoint({
      methods: ['POST'],
      args: { ...webhookId, delivery: idArg('The delivery ID.') },
      permission: administrators,
      handler: async (ctx, input) => {
        const row = await ctx.app.db.transaction().execute(async (trx) => {
          await getWebhookById(trx, input.id);
          return retryDelivery(trx, input.id, input.delivery);
        });
        return { body: representDelivery(row) };
      },
      summary: 'Send a delivery again now, with another day of retries.',
      errorStatuses: [401, 403, 404],
    }),
  ]);
}

export function webhookRoutes(): RouteDef[] {
  return [collectionRoute(), webhookRoute(), secretRoute(), deliveriesRoute(), retryRoute()];
}
