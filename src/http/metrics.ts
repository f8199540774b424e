/**
 * What `GET /metrics` reports, in Prometheus's text format (prom-client). The route is served
 * beside the dispatcher, like `/healthz`, when `METRICS` is `public` or `token` (config.ts, app.ts).
 *
 * Contract:
 * - `calendar_http_request_duration_seconds{route,method,status}`: every request the log has a
 *   line for (request-log.ts) but those of `/healthz` and `/metrics`, under the same `route`; its
 *   `_count` is the number of requests.
 * - `calendar_response_cache_hits_total`, `calendar_response_cache_misses_total`: the cached
 *   reads answered from the response cache (their term counts rewritten or not), and those built
 *   and stored (http/cache.ts), from a kept part or not.
 * - `calendar_db_waiting_queries`: queries waiting for a connection of the PostgreSQL pool, or in
 *   an SQLite file's read workers (`+Inf` once a worker has failed); on PostgreSQL also
 *   `calendar_db_pool_connections` and `calendar_db_pool_idle_connections`.
 * - prom-client's default metrics: event-loop delay, memory, garbage collection, CPU, handles.
 *
 * A request costs one histogram observation, plus one counter increment for a cached read; the
 * database and process figures are read when scraped.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseHandle } from '../db/connect.js';
import { outsideRest, routeOf, type RequestObserver } from './request-log.js';

/** From a cached read's fraction of a millisecond to a slow write's seconds. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics implements RequestObserver {
  private readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'calendar_http_request_duration_seconds',
    help: 'Requests by route pattern, method and status, and how long they took from arrival to the last byte sent',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  private readonly cacheHits = new Counter({
    name: 'calendar_response_cache_hits_total',
    help: 'Cached reads answered from the response cache',
    registers: [this.registry],
  });
  private readonly cacheMisses = new Counter({
    name: 'calendar_response_cache_misses_total',
    help: 'Cached reads built and stored in the response cache',
    registers: [this.registry],
  });

  readonly contentType = this.registry.contentType;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observe(request: FastifyRequest, reply: FastifyReply): void {
    if (outsideRest(request)) return;
    this.requests.observe(
      { route: routeOf(request), method: request.method, status: reply.statusCode },
      reply.elapsedTime / 1000,
    );
    const cache = request.exchange?.cache;
    if (cache === 'hit' || cache === 'recounted') this.cacheHits.inc();
    else if (cache === 'miss' || cache === 'part') this.cacheMisses.inc();
  }

  /** Reports how busy the database's connections are, read at each scrape. */
  watchDatabase(database: DatabaseHandle): void {
    const gauge = (name: string, help: string, read: () => number | undefined) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read() ?? 0);
        },
      });
    gauge(
      'calendar_db_waiting_queries',
      'Queries waiting for a PostgreSQL pool connection, or in the SQLite read workers',
      () => database.load().waiting,
    );
    if (database.backend !== 'postgres') return;
    gauge('calendar_db_pool_connections', 'Open connections of the PostgreSQL pool', () => database.load().pool?.total);
    gauge(
      'calendar_db_pool_idle_connections',
      'Idle connections of the PostgreSQL pool',
      () => database.load().pool?.idle,
    );
  }

  /** The exposition: every metric's current value. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * Whether an `Authorization` header carries `Bearer <token>`. The token is compared by its digest
 * in constant time, so that the time taken tells nothing of how much of it a guess got right.
 */
export function bearerAccepted(token: string): (authorization: string | undefined) => boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(token);
  return (authorization) => {
    const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
}
