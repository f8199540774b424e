/**
 * One request on its way through the dispatcher's stages (http/dispatch.ts): what the request
 * asks for, what the stages have learnt so far, and the answer they give.
 */
import type { FastifyRequest } from 'fastify';
import type { CacheEntry, ResponseCache } from './cache.js';
import type { AnswerHeaders } from './answer-headers.js';
import type { FaultLog } from './fault-log.js';
import { feedRestPath } from './feed-paths.js';
import { jsonBytes, textBytes } from './json-bytes.js';
import type { CompiledRoute, SiteReply, SiteRoute } from './register.js';
import type { AppContext, Endpoint, RequestContext, RouteDef, Urls } from './route.js';
import type { Throttle } from './throttle.js';

/** What every request is served with. */
export interface Dispatcher {
  app: AppContext;
  compiled: CompiledRoute[];
  siteRoutes: SiteRoute[];
  /** The REST index at `{base_url}/` (common.md 2.4). */
  restIndex: (ctx: RequestContext) => unknown;
  /** The route object of discovery for OPTIONS (common.md 2.3). */
  routeObject: (route: RouteDef, ctx: RequestContext) => unknown;
  cache: ResponseCache;
  /** The failed-login and anonymous request limits. */
  throttle: Throttle;
  faults: FaultLog;
  headers: AnswerHeaders;
}

/** The Content-Type of every answer but a site page and an endpoint's own (`Endpoint.contentType`). */
export const JSON_TYPE = 'application/json; charset=UTF-8';

/** A JSON body, sent with the common headers; a 304 goes without it. */
export interface JsonAnswer {
  kind: 'json';
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** An endpoint's 200, or its envelope: the response cache may keep it. */
  storable: boolean;
  /** Set when the body is not JSON but text of this media type (`Endpoint.contentType`). */
  contentType?: string;
}

/** The bytes an answer's body is sent as: JSON, or the text of another media type as it is, in UTF-8. */
export function answerBytes(answer: JsonAnswer): Buffer {
  return answer.contentType ? textBytes(String(answer.body)) : jsonBytes(answer.body);
}

/** An answer the response cache keeps: compressed when the client accepts gzip, 304 when it has it already. */
export interface StoredAnswer {
  kind: 'stored';
  entry: CacheEntry;
}

/** A site page: its own headers and content type, and the CORS headers. */
export interface PageAnswer {
  kind: 'page';
  page: SiteReply;
}

export type Answer = JsonAnswer | StoredAnswer | PageAnswer;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's way through the dispatcher; null for a request it did not serve (request-log.ts). */
    exchange: Exchange | null;
  }
}

/**
 * One step of the way: it answers, or hands the request on with `next` and may reshape what the
 * stages after it answer. What a stage throws is answered as an error. A stage that only looks
 * and hands on is an ordinary function: a cached answer then passes no promise per stage.
 */
export type Stage = (x: Exchange, next: Next) => Answer | Promise<Answer>;

/** The later stages' answer; it may come at once, or throw at once. */
export type Next = () => Answer | Promise<Answer>;

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string>): JsonAnswer {
  return { kind: 'json', status, body, headers, storable: false };
}

type PathKind = 'rest' | 'site' | 'unknown-language';

export class Exchange {
  /** Path and query exactly as requested. */
  readonly url: string;
  readonly pathname: string;
  readonly query: Record<string, unknown>;
  /** The method called: `_method` or `X-HTTP-Method-Override` when given, upper-case. */
  readonly method: string;
  readonly kind: PathKind;
  /** Language segment of the path; '' for the unprefixed (English) interface. */
  readonly lang: string;
  /** A REST path below the namespace base, without trailing slashes; '' for the REST index. */
  readonly restPath: string;
  readonly urls: Urls;
  /** On every answer, site pages included. */
  readonly cors: Readonly<Record<string, string>>;
  /** On every answer but site pages. */
  readonly common: Readonly<Record<string, string>>;

  /** The caller and the settings the request is served under: set by `authenticate`. */
  ctx!: RequestContext;
  /** Keep an answer to a signed-in caller out of shared caches: set by `authenticate`. */
  privateHeaders: Record<string, string> = {};
  /** Set by `matchRoute`. */
  route!: CompiledRoute;
  /** Set by `selectEndpoint`. */
  endpoint!: Endpoint;
  /** The body, cleaned: set by `readBody`. */
  body: unknown;
  /** The values of the endpoint's arguments, for its permission and handler: set by `parseArguments`. */
  values: unknown;
  /** The methods the caller may call on the route: set by `listAllowedMethods`. */
  allow: Record<string, string> = {};
  /**
   * What the request is logged and counted under (request-log.ts): the matched route's pattern, set
   * by `resolveRoute`; until then, a fixed label for where the path led.
   */
  pattern: string;
  /**
   * Whether the response cache answered (`hit`, or `recounted` with its term counts rewritten), or a
   * part an earlier answer kept did (`part`): set by `cacheReads`; null when it was not asked (a
   * write, say).
   */
  cache: 'hit' | 'recounted' | 'part' | 'miss' | null = null;

  constructor(
    readonly dispatcher: Dispatcher,
    readonly request: FastifyRequest,
  ) {
    const { app } = dispatcher;
    this.url = request.raw.url ?? '/';
    const qIndex = this.url.indexOf('?');
    this.pathname = qIndex >= 0 ? this.url.slice(0, qIndex) : this.url;
    this.query = (request.query ?? {}) as Record<string, unknown>;
    const override = firstString(this.query._method) ?? firstString(request.headers['x-http-method-override']);
    this.method = (override ?? request.method).toUpperCase();
    const resolved = resolvePath(app, this.pathname, this.query);
    this.kind = resolved.kind;
    this.lang = resolved.lang;
    this.restPath = resolved.restPath.replace(/\/+$/, '');
    this.pattern = labelOf(this.kind, this.restPath);
    ({
      urls: this.urls,
      cors: this.cors,
      common: this.common,
    } = dispatcher.headers.for(this.lang, request.headers.origin));
  }

  /** What every answer of the endpoint carries, its errors included. */
  endpointHeaders(): Record<string, string> {
    return { ...this.privateHeaders, ...this.allow };
  }
}

/**
 * The label of a request no route matched (yet): a site page or another non-REST path, the REST
 * index, or a REST path that names no route or was refused before its route was looked up (a bad
 * credential). Parenthesized, so that no route pattern can look the same.
 */
function labelOf(kind: PathKind, restPath: string): string {
  if (kind === 'site') return '(site)';
  return kind === 'rest' && restPath === '' ? '(rest-index)' : '(unmatched)';
}

function firstString(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstString(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

/** Splits a request path into language segment, REST prefix and route path (common.md 1.1, 1.5). */
function resolvePath(
  app: AppContext,
  pathname: string,
  query: Record<string, unknown>,
): { kind: PathKind; lang: string; restPath: string } {
  const restRoute = firstString(query.rest_route);
  if ((pathname === '/' || pathname === '') && restRoute !== undefined)
    return { kind: 'rest', lang: '', restPath: restRoute };
  const feed = feedRestPath(pathname, query);
  if (feed !== undefined) return { kind: 'rest', lang: '', restPath: feed };
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
