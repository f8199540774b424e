/**
 * Request IDs and the one log line of every request.
 *
 * Contract:
 * - Every request is logged once, at `info` (`error` when writing its answer failed), when its
 *   answer has been written: method, route (the matched route's pattern, or the label of where
 *   the path led, exchange.ts), status, duration, body bytes, whether the response cache answered
 *   and the caller's user ID. Fastify's own lines at arrival and completion are not written.
 * - Neither the URL nor a header is logged: a query may carry an event's `password`, and
 *   `Authorization` an application password.
 * - A request's ID is the `X-Request-Id` it came with when that is 1 to 128 letters, digits or
 *   `-_.:+/=` (what proxies and tracing systems send), else a random UUID: an ID that could break a
 *   log line or a header is never taken. Every answer carries it back in `X-Request-Id`, and every
 *   log line of the request in `request_id`.
 * - A request whose client went away before its answer was written is logged too, with another
 *   message (the dispatcher reports it).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route beside the dispatcher (`/healthz`, `/metrics`): logged under its path, not counted as a REST request. */
    outsideRest?: boolean;
  }
}

const REQUEST_ID_HEADER = 'X-Request-Id';

const ACCEPTED_REQUEST_ID = /^[\w.:+/=-]{1,128}$/;

/** Refused before the dispatcher saw it: a closing server, a missing Host, a bad URL, a body too large. */
const REFUSED = '(refused)';

/** The request's ID: the client's when it is safe to log and send back, else a new one (Fastify's `genReqId`). */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Sends the request's ID back: first thing of every request, so that every answer carries it. */
export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
}

/** Whether the request went to a route beside the dispatcher (`/healthz`, `/metrics`). */
export function outsideRest(request: FastifyRequest): boolean {
  return !request.exchange && request.routeOptions.config?.outsideRest === true;
}

/** What the request is logged and counted under: the dispatcher's label, a route's own path, or `(refused)`. */
export function routeOf(request: FastifyRequest): string {
  if (request.exchange) return request.exchange.pattern;
  return outsideRest(request) ? (request.routeOptions.url ?? REFUSED) : REFUSED;
}

/** The body's length as sent: its `Content-Length`, 0 for none (a 304, a HEAD answer of nothing). */
function bytesOf(reply: FastifyReply): number {
  return Number(reply.getHeader('content-length') ?? 0) || 0;
}

/** Told of every request the log has a line for, whether or not lines are written (the metrics). */
export interface RequestObserver {
  observe(request: FastifyRequest, reply: FastifyReply): void;
}

/** Fastify's `logController`: writes the line above when a request completes, and nothing when it arrives. */
export class RequestLog extends LogController {
  /** Whether `info` lines are written at all: without them, the line is not even put together. */
  private readonly logs: boolean;

  /** `level`: the logger's (`LOG_LEVEL`). */
  constructor(
    level: string,
    private readonly observer: RequestObserver | null = null,
  ) {
    super({ requestIdLogLabel: 'request_id' });
    this.logs = ['info', 'debug', 'trace'].includes(level);
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.observer?.observe(request, reply);
    if (error) request.log.error({ ...lineOf(request, reply), err: error }, 'request failed');
    else if (this.logs) request.log.info(lineOf(request, reply), 'request completed');
  }

  /**
   * A request whose client went away before its answer was written: Fastify reports only answers
   * that were (or failed), yet such a request was handled, a write included.
   */
  clientGone(request: FastifyRequest, reply: FastifyReply): void {
    this.observer?.observe(request, reply);
    if (this.logs) request.log.info(lineOf(request, reply), 'client gone before the answer was sent');
  }
}

function lineOf(request: FastifyRequest, reply: FastifyReply) {
  return {
    method: request.method,
    route: routeOf(request),
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 1000) / 1000,
    bytes: bytesOf(reply),
    cache: request.exchange?.cache ?? null,
    // Unset when authentication refused the request.
    user_id: request.exchange?.ctx?.user?.id ?? null,
  };
}
