import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import qs from 'qs';
import { Authenticator } from './auth/authenticate.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';
import { DatabaseStartError, WriteHealth, classifyDatabaseError, type WriteFailure } from './db/faults.js';
import { refreshStatistics } from './db/statistics.js';
import { CountMemo } from './db/count-memo.js';
import { SearchShares } from './db/search-shares.js';
import { transactor } from './db/group-commit.js';
import { namespaceIndexRoute, restIndex, routeObject } from './http/discovery.js';
import { docRoute } from './http/openapi.js';
import { docsPageRoutes } from './http/docs-page.js';
import { publicUrlRoutes } from './http/public-urls.js';
import { registerThrottle } from './http/throttle.js';
import { NAMESPACE, compileRoutes, type SiteRoute } from './http/register.js';
import { registerDispatcher, type InFlight } from './http/dispatch.js';
import { INVALID_JSON, LOOKS_LIKE_JSON, looksLikeJson } from './http/input.js';
import type { AppContext, RouteDef } from './http/route.js';
import { RestError, healthErrors, metricsErrors, restErrors } from './http/errors.js';
import { answerClientError, rejectExpectation } from './http/transport-errors.js';
import { RequestLog, echoRequestId, requestIdOf } from './http/request-log.js';
import { Metrics, bearerAccepted } from './http/metrics.js';
import { SettingsCache } from './settings.js';
import { linkedRoutes, organizerKind, venueKind } from './resources/linked/index.js';
import { categoryTaxonomy, tagTaxonomy, termRoutes } from './resources/terms/index.js';
import { recountTerms } from './resources/terms/counts.js';
import { eventRoutes } from './resources/events/routes.js';
import { feedRoutes } from './resources/events/feeds.js';
import { importRoutes } from './ical/import-route.js';
import { changesRoutes } from './resources/changes/routes.js';
import { webhookRoutes } from './resources/webhooks/routes.js';
import { ensureAdmin } from './auth/bootstrap.js';
import { versionAfterSchedule } from './resources/post-like/schedule.js';

const QS_OPTIONS: qs.IParseOptions = { arrayLimit: 1000, parameterLimit: 2000, depth: 5, allowDots: false };

export function parseForm(text: string): Record<string, unknown> {
  return qs.parse(text, QS_OPTIONS) as Record<string, unknown>;
}

/** Every route of the namespace, in the reference's registration order (common.md 1.2); this service's own after. */
export function allRoutes(): RouteDef[] {
  return [
    namespaceIndexRoute,
    docRoute,
    ...eventRoutes(),
    ...linkedRoutes(venueKind),
    ...linkedRoutes(organizerKind),
    ...termRoutes(categoryTaxonomy),
    ...termRoutes(tagTaxonomy),
    ...importRoutes(),
    ...feedRoutes(),
    ...changesRoutes(),
    ...webhookRoutes(),
  ];
}

/**
 * The health check: passes when the database answers a read and the last write did not fail for
 * want of storage (WriteHealth); otherwise throws the problem.
 */
async function checkHealth(db: DatabaseHandle['db'], writes: WriteHealth): Promise<void> {
  try {
    await db.selectFrom('settings').select('name').limit(1).execute();
  } catch (err) {
    const code = classifyDatabaseError(err)?.code ?? (err as { code?: unknown }).code;
    throw healthErrors.databaseUnavailable(typeof code === 'string' ? code : undefined);
  }
  const failure = writes.current();
  if (failure) throw healthErrors.writesFailing(failure);
}

/**
 * Non-REST paths: the server root and the records' public URLs with the discovery headers
 * (common.md 2.5) and the browsable API reference.
 */
function siteRoutes(): SiteRoute[] {
  return [...publicUrlRoutes(), ...docsPageRoutes()];
}

/**
 * The writes of a start: migrations, statistics, the bootstrap administrator. A database that
 * refuses writes (a full disk, a read-only file) still serves reads, so such a failure is logged
 * and remembered for `/healthz` rather than stopping the start, unless migrations are pending.
 */
async function startUpWrites(
  database: DatabaseHandle,
  config: Config,
  options: BuildOptions,
  writes: WriteHealth,
  log: FastifyBaseLogger,
): Promise<void> {
  const attempt = async (what: string, write: () => Promise<unknown>): Promise<void> => {
    try {
      await write();
    } catch (err) {
      const fault = classifyDatabaseError(err);
      if (!fault || fault.kind === 'unavailable') throw err;
      if (what === 'migrations') {
        const pending = await pendingMigrations(database.db);
        if (pending.length) {
          throw new DatabaseStartError(
            `cannot apply the pending database migrations (${pending.join(', ')}): ${fault.code} ${fault.message}`,
          );
        }
      }
      writes.failed(err);
      log.warn(
        { err },
        `start-up ${what} failed (${fault.code}: ${fault.message}); serving reads, writes fail until the database accepts them`,
      );
    }
  };
  if (!options.skipMigrations) await attempt('migrations', () => migrateToLatest(database.db));
  await attempt('statistics refresh', () => refreshStatistics(database.db, database.backend));
  const { adminUser, adminAppPassword } = config;
  if (adminUser && adminAppPassword)
    await attempt('administrator bootstrap', () => ensureAdmin(database.db, adminUser, adminAppPassword));
}

function logWriteHealth(log: FastifyBaseLogger, failure: WriteFailure | null, previous: WriteFailure | null): void {
  if (failure)
    log.error(
      { code: failure.code, since: failure.since },
      `database writes are failing: ${failure.code} ${failure.message}`,
    );
  else if (previous) log.info({ code: previous.code, since: previous.since }, 'database writes succeed again');
}

/**
 * Answers a request the dispatcher does not serve (one the framework rejected, `/healthz`) in the
 * error's shape.
 */
function sendRestError(reply: FastifyReply, error: RestError, headers: Record<string, string> = {}): void {
  reply
    .code(error.status)
    .headers({ ...headers, ...error.headers })
    .header('Content-Type', 'application/json; charset=UTF-8')
    .send(JSON.stringify(error.body));
}

export interface BuiltApp {
  fastify: FastifyInstance;
  app: AppContext;
  database: DatabaseHandle;
  /** The requests being handled. */
  inFlight: InFlight;
  /** Stops accepting, lets every request being handled end (its client gone or not), then closes the database; once. */
  close(): Promise<void>;
}

/** Where the logger writes its lines, one JSON text each. */
export interface LogStream {
  write(line: string): void;
}

export interface BuildOptions {
  /** An already-open database (tests); otherwise `config.databaseUrl` is opened. */
  database?: DatabaseHandle;
  /** Skip applying migrations (the caller already did). */
  skipMigrations?: boolean;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: LogStream;
}

/** Every server option (style.md). */
function createServer(config: Config, requestLog: RequestLog, logStream: LogStream | undefined): FastifyInstance {
  return Fastify({
    // Without a logger, Fastify tells the log controller of no completed request, and the
    // controller is what feeds the metrics: with them, a silent logger rather than none.
    logger:
      config.logLevel === 'silent' && config.metrics === 'off'
        ? false
        : { level: config.logLevel, ...(logStream ? { stream: logStream } : {}) },
    // One line per request, when it completes (http/request-log.ts); the metrics are told of it too.
    logController: requestLog,
    genReqId: requestIdOf,
    bodyLimit: config.bodyLimit,
    exposeHeadRoutes: false,
    // Requests arriving on a kept-alive connection once closing has begun get the hook's 503
    // (registerRefusals), in the WordPress shape; Fastify's own would have another body.
    return503OnClosing: false,
    // Requests Node's parser refuses (malformed, oversized head, headers timeout) never reach Fastify.
    clientErrorHandler: answerClientError,
    // A missing Host is refused by registerRefusals's hook, in the WordPress shape; Node's own 400 has no body.
    http: { requireHostHeader: false },
    // Behind a TLS-terminating proxy, X-Forwarded-Proto tells whether the client used https (require_https).
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    // A path that cannot be decoded (malformed percent-encoding) never reaches the dispatcher.
    frameworkErrors: (_err, request, reply) => {
      echoRequestId(request, reply);
      sendRestError(reply, restErrors.invalidRequestUrl());
      // Fastify reports no completion of a request it refused before routing.
      requestLog.requestCompleted(null, request, reply);
    },
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: false,
      // Bounds no input today: every path goes to the dispatcher's wildcard routes, which this
      // limit does not apply to. A long slug reaches its route (400 rest_invalid_param naming
      // `slug`, as for any slug that names no record); a request line longer than Node's header
      // limit is answered 414 by the client error handler.
      maxParamLength: 2000,
      querystringParser: (text: string) => parseForm(text),
    },
  });
}

/** Opens the database (unless given) and makes the start's writes; closes what it opened if they fail. */
async function openForService(
  config: Config,
  options: BuildOptions,
  fastify: FastifyInstance,
): Promise<{ database: DatabaseHandle; writes: WriteHealth }> {
  const database =
    options.database ??
    openDatabase(config.databaseUrl, {
      onConnectionError: (err) => fastify.log.warn({ err }, 'a database connection failed; the pool replaces it'),
    });
  const writes = new WriteHealth((failure, previous) => logWriteHealth(fastify.log, failure, previous));
  try {
    await startUpWrites(database, config, options, writes, fastify.log);
  } catch (err) {
    if (!options.database) await database.close();
    throw err;
  }
  return { database, writes };
}

function appContext(config: Config, database: DatabaseHandle, writes: WriteHealth): AppContext {
  const transact = transactor(database.db, database.backend);
  return {
    db: database.db,
    reads: database.reads,
    backend: database.backend,
    config,
    settings: new SettingsCache(database.db),
    authenticator: new Authenticator(database.db),
    routes: allRoutes(),
    counts: new CountMemo(database.reads),
    searchShares: new SearchShares(),
    transact: (write) => writes.watch(transact(write)),
  };
}

/** Bodies: JSON (whatever the method) and form-encoded (also the fallback for other types), like WordPress. */
function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    /^(application|text)\/([\w.+-]+\+)?json\s*(;|$)/i,
    { parseAs: 'string' },
    (_req, text, done) => {
      const source = String(text);
      if (source.trim() === '') return done(null, {});
      try {
        done(null, JSON.parse(source));
      } catch (err) {
        done(null, { [INVALID_JSON]: (err as Error).message });
      }
    },
  );
  // An iCalendar body is the `content` of the calendar import (POST /import/ics).
  fastify.addContentTypeParser(/^text\/calendar\s*(;|$)/i, { parseAs: 'string' }, (_req, text, done) =>
    done(null, { content: String(text) }),
  );
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => {
    const source = String(text);
    const form = parseForm(source);
    // Remembered for the missing-parameters message, which then names the likely cause.
    done(null, looksLikeJson(source) ? Object.assign(form, { [LOOKS_LIKE_JSON]: true }) : form);
  });
}

/** Every answer carries the request's ID: this hook comes before any that may answer (registerRefusals). */
function registerRequestIds(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    echoRequestId(request, reply);
    done();
  });
}

/** Errors thrown outside the dispatcher, and requests refused before any route is looked at. */
function registerRefusals(fastify: FastifyInstance): void {
  fastify.setErrorHandler((err: { code?: string; statusCode?: number }, request, reply) => {
    if (err instanceof RestError) {
      sendRestError(reply, err);
      return;
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      sendRestError(reply, restErrors.bodyTooLarge());
      return;
    }
    if ((err.statusCode ?? 500) >= 500) request.log.error({ err }, 'request failed before routing');
    sendRestError(reply, restErrors.invalidRequest());
  });

  // Node answers an Expect it cannot meet with a bare 417 unless the server handles it.
  fastify.server.on('checkExpectation', rejectExpectation);

  let shuttingDown = false;
  fastify.addHook('preClose', (done) => {
    shuttingDown = true;
    done();
  });
  // Refusals that need no route and no body: checked before the body is read.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (shuttingDown) {
      sendRestError(reply, restErrors.serviceUnavailable(), { Connection: 'close' });
      return;
    }
    // RFC 9112 3.2: a server must answer 400 to an HTTP/1.1 request without Host.
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      sendRestError(reply, restErrors.invalidRequestHost(), { Connection: 'close' });
      return;
    }
    done();
  });
}

/**
 * `/healthz`, beside the dispatcher, whose settings read and authentication would fail on the
 * very faults the check reports. Its errors go to the error handler (registerRefusals).
 */
function registerHealth(fastify: FastifyInstance, database: DatabaseHandle, writes: WriteHealth): void {
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/healthz',
    config: { outsideRest: true },
    handler: async (_request, reply) => {
      await checkHealth(database.db, writes);
      return reply.code(200).header('Content-Type', 'application/json; charset=UTF-8').send('{"status":"ok"}');
    },
  });
}

/**
 * `/metrics` (http/metrics.ts), beside the dispatcher like `/healthz`: REST credentials and request
 * limits do not apply, and its requests are not counted. Its errors go to the error handler.
 */
function registerMetrics(fastify: FastifyInstance, config: Config, metrics: Metrics, database: DatabaseHandle): void {
  metrics.watchDatabase(database);
  const accepted = config.metricsToken ? bearerAccepted(config.metricsToken) : () => true;
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/metrics',
    config: { outsideRest: true },
    handler: async (request, reply) => {
      if (!accepted(request.headers.authorization)) throw metricsErrors.unauthorized();
      return reply.header('Content-Type', metrics.contentType).send(await metrics.text());
    },
  });
}

/** Builds the whole service: every server option, parser, hook and route (style.md). */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const metrics = config.metrics === 'off' ? null : new Metrics();
  const requestLog = new RequestLog(config.logLevel, metrics);
  const fastify = createServer(config, requestLog, options.logStream);
  const { database, writes } = await openForService(config, options, fastify);
  const app = appContext(config, database, writes);
  registerBodyParsers(fastify);
  registerRequestIds(fastify);
  registerRefusals(fastify);
  registerHealth(fastify, database, writes);
  if (metrics) registerMetrics(fastify, config, metrics, database);

  const throttle = await registerThrottle(fastify, config);
  const inFlight = registerDispatcher(fastify, {
    app,
    compiled: compileRoutes(app.routes),
    siteRoutes: siteRoutes(),
    restIndex,
    routeObject,
    cache: {
      readVersion: () => versionAfterSchedule(database.db),
      maxBytes: config.responseCacheMb * 1024 * 1024,
      recount: (text) => recountTerms(database.db, text),
    },
    throttle,
    clientGone: (request, reply) => requestLog.clientGone(request, reply),
  });

  let closing: Promise<void> | undefined;
  return {
    fastify,
    app,
    database,
    inFlight,
    close: () =>
      (closing ??= (async () => {
        await fastify.close();
        await inFlight.settled();
        await database.close();
      })()),
  };
}

export { NAMESPACE };
