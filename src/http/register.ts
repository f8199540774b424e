import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Settings } from '../settings.js';
import {
  ResponseCache,
  matchesIfNoneMatch,
  type CacheEntry,
  type CacheSlot,
  type ResponseCacheOptions,
} from './cache.js';
import { GZIP_MIN_BYTES, acceptsGzip, varyOnEncoding } from './compression.js';
import { classifyDatabaseError, type DatabaseFault } from '../db/faults.js';
import { RestError, restErrors } from './errors.js';
import { envelope, selectFields } from './fields.js';
import { INVALID_JSON, LOOKS_LIKE_JSON, cleanInput, withoutNul, type InvalidJsonBody } from './input.js';
import type { Throttle } from './throttle.js';
import { compileArgs, validateArgs } from './validate.js';
import type { AppContext, Endpoint, Method, Reply, RequestContext, RouteDef, Urls } from './route.js';

export const NAMESPACE = 'calendar/events/v1';
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface CompiledRoute {
  def: RouteDef;
  regex: RegExp;
}

/** A non-REST path of the server (the site root, public record URLs, health, the API reference page). */
export interface SiteRoute {
  path: RegExp;
  /** HEAD is served by the GET handler. */
  handler: (ctx: SiteRequest, match: RegExpMatchArray) => Promise<SiteReply | null> | SiteReply | null;
}

export interface SiteRequest {
  app: AppContext;
  urls: Urls;
  settings: Settings;
  headers: FastifyRequest['headers'];
}

export interface SiteReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer | null;
  contentType?: string;
}

export function compileRoutes(routes: RouteDef[]): CompiledRoute[] {
  return routes.map((def) => {
    for (const endpoint of def.endpoints) {
      if (typeof endpoint.permission !== 'function') {
        throw new Error(`route ${def.pattern} ${endpoint.methods.join(',')} declares no permission (style.md rule 2)`);
      }
      compileArgs(endpoint.args);
    }
    const source = `/${NAMESPACE}${def.pattern}`.replace(/\(\?P</g, '(?<');
    return { def, regex: new RegExp(`^${source}$`, 'i') };
  });
}

export function urlsFor(app: AppContext, lang: string): Urls {
  const site = app.config.siteUrl;
  const base = `${site}${lang ? `/${lang}` : ''}${app.config.restPrefix}`;
  return { site, base, root: `${base}/${NAMESPACE}` };
}

function corsHeaders(app: AppContext, origin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'Access-Control-Expose-Headers': 'X-TEC-Total, X-TEC-TotalPages, X-WP-Total, X-WP-TotalPages, Link, ETag',
    'Access-Control-Allow-Headers':
      'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, X-HTTP-Method-Override, If-None-Match',
  };
  if (!origin) return headers;
  headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
  // X 24: any origin without credentials by default; an allow-list may allow credentials.
  if (app.config.corsOrigins.length === 0) headers['Access-Control-Allow-Origin'] = '*';
  else if (app.config.corsOrigins.includes(origin)) {
    headers['Access-Control-Allow-Origin'] = origin;
    headers['Access-Control-Allow-Credentials'] = 'true';
    headers['Vary'] = 'Origin';
  }
  return headers;
}

interface RouteMatch {
  route: CompiledRoute;
  groups: Record<string, string>;
}

/**
 * The namespace route of a REST path. With `rest_api_enabled` off there is none: TEC's "REST API
 * disabled" option leaves the namespace unregistered (decisions.md, "Site settings").
 */
function matchRoute(compiled: CompiledRoute[], restPath: string, settings: Settings): RouteMatch | undefined {
  if (!settings.rest_api_enabled) return undefined;
  for (const route of compiled) {
    const m = route.regex.exec(restPath);
    if (m) return { route, groups: { ...(m.groups ?? {}) } };
  }
  return undefined;
}

function firstString(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstString(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

interface Resolved {
  kind: 'rest' | 'site' | 'unknown-language';
  lang: string;
  restPath: string;
}

/** Splits a request path into language segment, REST prefix and route path (common.md 1.1, 1.5). */
function resolvePath(app: AppContext, pathname: string, query: Record<string, unknown>): Resolved {
  const restRoute = firstString(query.rest_route);
  if ((pathname === '/' || pathname === '') && restRoute !== undefined)
    return { kind: 'rest', lang: '', restPath: restRoute };
  const prefix = app.config.restPrefix.toLowerCase();
  const lower = pathname.toLowerCase();
  const under = (p: string) => lower === p || lower.startsWith(`${p}/`);
  if (under(prefix)) return { kind: 'rest', lang: '', restPath: pathname.slice(prefix.length) };
  const lang = /^\/([a-z]{2}(?:-[a-z]{2})?)(\/.*)?$/i.exec(pathname);
  if (lang && under(`/${lang[1]!.toLowerCase()}${prefix}`)) {
    const code = lang[1]!.toLowerCase();
    if (!app.config.languages.includes(code)) return { kind: 'unknown-language', lang: '', restPath: '' };
    return {
      kind: 'rest',
      lang: code === 'en' ? 'en' : code,
      restPath: pathname.slice(1 + lang[1]!.length + prefix.length),
    };
  }
  return { kind: 'site', lang: '', restPath: pathname };
}

export interface DispatchOptions {
  app: AppContext;
  compiled: CompiledRoute[];
  siteRoutes: SiteRoute[];
  /** The REST index at `{base_url}/` (common.md 2.4). */
  restIndex: (ctx: RequestContext) => unknown;
  /** The route object of discovery for OPTIONS (common.md 2.3). */
  routeObject: (route: RouteDef, ctx: RequestContext) => unknown;
  /** Options of the response cache; its `readVersion` makes the writes the clock makes due. */
  cache: ResponseCacheOptions;
  /** The failed-login and anonymous request limits. */
  throttle: Throttle;
}

/** The answer to a database fault (db/faults.ts). */
function faultError(fault: DatabaseFault): RestError {
  if (fault.kind === 'unavailable') return restErrors.databaseUnavailable();
  if (fault.kind === 'storage_full') return restErrors.insufficientStorage();
  return restErrors.databaseWriteFailed();
}

/** A fault repeats for every request of an outage: logged when it changes, and again at most this often. */
const FAULT_LOG_EVERY_MS = 10_000;

function apiLinkHeader(urls: Urls) {
  return `<${urls.base}/>; rel="https://api.w.org/"`;
}

/** Decides which methods of a matched route this requester may call (`Allow`, common.md 1.7). */
async function allowedMethods(route: RouteDef, ctx: RequestContext): Promise<string> {
  const methods: string[] = [];
  for (const endpoint of route.endpoints) {
    try {
      if (await endpoint.permission(ctx)) methods.push(...endpoint.methods);
    } catch {
      // A permission that needs validated arguments is evaluated only for the called endpoint.
    }
  }
  return methods.join(', ');
}

/**
 * The requests being handled. A request goes on after its client has gone (the server's close no
 * longer waits for it then), so the database is closed only once every one has ended.
 */
export interface InFlight {
  /** How many requests are being handled now. */
  count(): number;
  /** Resolves once none is. */
  settled(): Promise<void>;
}

export function registerDispatcher(fastify: FastifyInstance, opts: DispatchOptions): InFlight {
  const { app, compiled, siteRoutes } = opts;
  const cache = new ResponseCache(app.db, opts.cache);
  let running = 0;
  let whenSettled: (() => void)[] = [];
  let lastFault = { code: '', at: 0 };
  /** A database fault as its RestError (logged); anything else unchanged. */
  const asFaultError = (request: FastifyRequest, err: unknown): unknown => {
    const fault = classifyDatabaseError(err);
    if (!fault) return err;
    const now = Date.now();
    if (fault.code !== lastFault.code || now - lastFault.at >= FAULT_LOG_EVERY_MS) {
      lastFault = { code: fault.code, at: now };
      request.log.warn({ err, fault: fault.kind }, `database fault ${fault.code}: ${fault.message}`);
    }
    return faultError(fault);
  };

  const dispatch = async (request: FastifyRequest, reply: FastifyReply) => {
    const rawUrl = request.raw.url ?? '/';
    const qIndex = rawUrl.indexOf('?');
    const pathname = qIndex >= 0 ? rawUrl.slice(0, qIndex) : rawUrl;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const override = firstString(query._method) ?? firstString(request.headers['x-http-method-override']);
    const realMethod = request.method.toUpperCase();
    const method = (override ?? realMethod).toUpperCase();
    const cors = corsHeaders(app, request.headers.origin);
    const resolved = resolvePath(app, pathname, query);
    const urls = urlsFor(app, resolved.lang);
    const common: Record<string, string> = {
      ...cors,
      'X-Robots-Tag': 'noindex',
      'X-Content-Type-Options': 'nosniff',
      Link: apiLinkHeader(urls),
    };

    const sendJson = (status: number, body: unknown, headers: Record<string, string>) => {
      reply.code(status).headers({ ...common, ...headers, 'Content-Type': 'application/json; charset=UTF-8' });
      return reply.send(JSON.stringify(body));
    };
    /**
     * A stored answer, gzip-compressed when the client accepts it. The compressed form's ETag is the
     * weak form of the answer's: the same content, other bytes (RFC 9110 8.8.1); If-None-Match
     * compares weakly, so either form revalidates either.
     */
    const sendEntry = async (entry: CacheEntry) => {
      const gzip = entry.length >= GZIP_MIN_BYTES && acceptsGzip(request.headers['accept-encoding']);
      reply.headers(common).header('Vary', varyOnEncoding(common.Vary)).headers(entry.headers);
      if (gzip && entry.status === 200) reply.header('ETag', `W/${entry.etag}`);
      if (entry.status === 200 && matchesIfNoneMatch(request.headers['if-none-match'], entry.etag)) {
        return reply.code(304).send();
      }
      reply.code(entry.status).header('Content-Type', 'application/json; charset=UTF-8');
      const compressed = gzip ? await cache.gzipped(entry) : null;
      if (compressed) return reply.header('Content-Encoding', 'gzip').send(compressed);
      return reply.send(await cache.identity(entry));
    };
    /** A 200 of a cacheable endpoint is stored, sent with its ETag, and may become a 304 (client errors: see below). */
    const sendReply = (
      slot: CacheSlot | null,
      status: number,
      body: unknown,
      headers: Record<string, string>,
      freshUntil?: number,
    ) => {
      if (!slot || status !== 200) return sendJson(status, body, headers);
      return sendEntry(slot.fill(status, headers, JSON.stringify(body), freshUntil));
    };
    const sendError = (err: unknown, headers: Record<string, string> = {}) => {
      if (!(err instanceof RestError)) err = asFaultError(request, err);
      if (!(err instanceof RestError)) {
        request.log.error({ err }, 'unhandled error');
        err = restErrors.internal();
      }
      const e = err as RestError;
      return sendJson(e.status, e.body, { ...headers, ...e.headers });
    };

    let user: RequestContext['user'] = null;
    let settings: RequestContext['settings'];
    try {
      settings = await app.settings.get();
      // Setting require_https: application passwords only over TLS (decisions.md X 1).
      if (settings.require_https && request.headers.authorization && request.protocol !== 'https') {
        throw restErrors.httpsRequired();
      }
      user = await opts.throttle.authenticate(request, app.authenticator);
      if (!user) await opts.throttle.countAnonymous(request);
    } catch (err) {
      return sendError(err);
    }
    const authHeaders: Record<string, string> = user
      ? {
          Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
          'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
        }
      : {};

    if (resolved.kind === 'site') {
      if (method === 'GET' || method === 'HEAD') {
        for (const route of siteRoutes) {
          const m = pathname.match(route.path);
          if (!m) continue;
          try {
            const out = await route.handler({ app, urls, settings, headers: request.headers }, m);
            if (!out) continue;
            reply.code(out.status ?? 200).headers({ ...cors, ...(out.headers ?? {}) });
            if (out.contentType) reply.header('Content-Type', out.contentType);
            return reply.send(out.body ?? '');
          } catch (err) {
            return sendError(err);
          }
        }
      }
      if (method === 'OPTIONS') return sendJson(200, [], authHeaders);
      return sendError(restErrors.noRoute(), authHeaders);
    }
    if (resolved.kind === 'unknown-language') return sendError(restErrors.noRoute(), authHeaders);

    const restPath = resolved.restPath.replace(/\/+$/, '');
    const ctx: RequestContext = {
      app,
      user,
      settings,
      lang: resolved.lang,
      urls,
      method: (method === 'HEAD' ? 'GET' : method) as Method,
      params: {},
      given: {},
      path: {},
      raw: {},
      headers: request.headers,
      ip: request.ip,
      loaded: new Map(),
    };

    try {
      if (restPath === '') {
        if (method !== 'GET' && method !== 'HEAD') {
          if (method === 'OPTIONS') return sendJson(200, [], authHeaders);
          throw restErrors.noRoute();
        }
        return sendJson(200, opts.restIndex(ctx), authHeaders);
      }
      const match = matchRoute(compiled, restPath, settings);
      if (!match) {
        if (method === 'OPTIONS') return sendJson(200, [], authHeaders);
        throw restErrors.noRoute();
      }
      const { route, groups } = match;
      for (const [k, v] of Object.entries(groups)) {
        try {
          ctx.path[k] = withoutNul(decodeURIComponent(v));
        } catch {
          ctx.path[k] = v;
        }
      }
      if (method === 'OPTIONS')
        return sendJson(200, opts.routeObject(route.def, ctx), {
          ...authHeaders,
          Allow: await allowedMethods(route.def, ctx),
        });
      const wanted = ctx.method;
      const endpoint: Endpoint | undefined = METHODS.includes(wanted)
        ? route.def.endpoints.find((ep) => ep.methods.includes(wanted))
        : undefined;
      if (!endpoint) throw restErrors.noRoute();

      if (request.body && typeof request.body === 'object' && INVALID_JSON in request.body) {
        throw restErrors.invalidJson((request.body as InvalidJsonBody)[INVALID_JSON]);
      }
      ctx.bodyLooksLikeJson =
        typeof request.body === 'object' && request.body !== null && LOOKS_LIKE_JSON in request.body;
      const body = cleanInput(request.body);
      // Only after authentication: a bad credential is refused even when the response is cached.
      const slot =
        endpoint.cache && wanted === 'GET' && body == null
          ? await cache.open({ method: wanted, lang: ctx.lang, url: rawUrl, user, settings, lifetime: endpoint.cache })
          : null;
      if (slot?.hit) return sendEntry(slot.hit);
      if (slot) ctx.dataVersion = slot.version;
      // A cached answer carries the Allow header it was built with (the caller is part of its key).
      let allow: Record<string, string> = {};
      try {
        allow = { Allow: await allowedMethods(route.def, ctx) };
        // Precedence: body > query > path (common.md 5.1), except that path ids and slugs name the target (X 3).
        const input = Object.assign(Object.create(null) as Record<string, unknown>, cleanInput(query));
        for (const [k, v] of Object.entries(ctx.path)) if (!(k in input)) input[k] = v;
        if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(input, body);
        for (const [k, v] of Object.entries(ctx.path)) {
          if (endpoint.args[k]?.in === 'body') continue;
          input[k] = v;
        }
        ctx.raw = input;
        await validateArgs(endpoint.args, input, ctx);
        if (!(await endpoint.permission(ctx))) throw restErrors.forbidden(user !== null);
        const out: Reply = await endpoint.handler(ctx);
        const status = out.status ?? 200;
        let headers: Record<string, string> = { ...authHeaders, ...allow, ...(out.headers ?? {}) };
        let payload = out.body;
        if (query._fields !== undefined) payload = selectFields(payload, query._fields);
        if (query._envelope !== undefined) {
          payload = envelope(payload, status, headers);
          headers = { ...authHeaders };
          return sendReply(status === 200 ? slot : null, 200, payload, headers, ctx.freshUntil);
        }
        if (status === 304) {
          reply.code(304).headers({ ...common, ...headers });
          return reply.send();
        }
        return sendReply(slot, status, payload, headers, ctx.freshUntil);
      } catch (caught) {
        const err = asFaultError(request, caught);
        if (query._envelope !== undefined && err instanceof RestError) {
          return sendJson(200, envelope(err.body, err.status, { ...allow, ...err.headers }), authHeaders);
        }
        // A client error of a cacheable read (a page past the end, an unknown ID) is stored like
        // an answer, without an ETag.
        if (slot && err instanceof RestError && err.status >= 400 && err.status < 500) {
          return sendEntry(
            slot.fill(
              err.status,
              { ...authHeaders, ...allow, ...err.headers },
              JSON.stringify(err.body),
              ctx.freshUntil,
            ),
          );
        }
        return sendError(err, { ...authHeaders, ...allow });
      } finally {
        slot?.release();
      }
    } catch (err) {
      return sendError(err, authHeaders);
    }
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    running++;
    try {
      return await dispatch(request, reply);
    } finally {
      if (--running === 0) {
        for (const resolve of whenSettled) resolve();
        whenSettled = [];
      }
    }
  };

  fastify.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/*',
    handler: handle,
  });
  fastify.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/',
    handler: handle,
  });
  // Methods no route declares (PROPFIND, TRACE, …) get the dispatcher's answer too: credentials
  // first, then 404 rest_no_route, as WordPress answers an unregistered method (common.md 1.3).
  fastify.setNotFoundHandler(handle);
  return {
    count: () => running,
    settled: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenSettled.push(resolve))),
  };
}
