import type { IncomingHttpHeaders } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Caller } from '../auth/capabilities.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { Config } from '../config.js';
import type { Backend } from '../db/connect.js';
import type { Database } from '../db/tables.js';
import type { CountMemo } from '../db/count-memo.js';
import type { Transact } from '../db/group-commit.js';
import type { SearchShares } from '../db/search-shares.js';
import type { Settings, SettingsCache } from '../settings.js';
import type { AnswerPart, CacheLifetime } from './cache.js';
import type { ParamReason, RestError } from './errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const UPDATE_METHODS: Method[] = ['POST', 'PUT', 'PATCH'];

/** Process-wide state handed to every request. */
export interface AppContext {
  db: Kysely<Database>;
  /** List queries (DatabaseHandle.reads). */
  reads: Kysely<Database>;
  backend: Backend;
  config: Config;
  settings: SettingsCache;
  authenticator: Authenticator;
  routes: RouteDef[];
  counts: CountMemo;
  /** Search terms' sampled shares, which steer event list plans (db/search-shares.ts). */
  searchShares: SearchShares;
  /** Runs a request's write: one transaction per write, or a savepoint of a shared one (db/group-commit.ts). */
  transact: Transact;
}

/** Absolute URL bases for links emitted while serving one request (common.md 1.4, X 21, X 22). */
export interface Urls {
  /** `SITE_URL`, no trailing slash. */
  site: string;
  /** REST root `{site}[/{lang}]{prefix}`, no trailing slash. */
  base: string;
  /** Namespace root `{base}/calendar/events/v1`, no trailing slash. */
  root: string;
}

export interface RequestContext {
  app: AppContext;
  user: Caller | null;
  settings: Settings;
  /** Language segment the request came in on; '' for the unprefixed (English) interface. */
  lang: string;
  urls: Urls;
  method: Method;
  /** Declared arguments the client actually sent, as sent (before coercion); for links. */
  given: Record<string, unknown>;
  /** Path groups of the matched route, percent-decoded. */
  path: Record<string, string>;
  /** Every parameter of the request after precedence (body > query > path), declared or not. */
  raw: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  ip: string;
  /** The body was read as a form (no JSON content type) though it is JSON (http/stages/read-body.ts). */
  bodyLooksLikeJson?: boolean;
  /** The `data_version` a cacheable read is built under (see http/cache.ts); unset otherwise. */
  dataVersion?: number;
  /**
   * The tags (db/cache-tags.ts) a cacheable read's answer is built from, once its handler named
   * them (`readsFrom` in http/cache.ts); unset: it depends on all data.
   */
  readFrom?: Set<string>;
  /** For a cacheable read's handler: a part of its answer it may keep for the next build, or take from the last. */
  answerPart?: AnswerPart;
  /**
   * Set by the handler of a `'clock'` endpoint once it knows: until when (ms since the epoch) its
   * answer, or its error, stays the same if the data does; `Infinity` when it does not read the
   * clock. Unset: it may change within a second.
   */
  freshUntil?: number;
}

/**
 * The result of a validator: `true` passes, `false` is a plain rejection, a RestError is a coded
 * failure, a ParamReason a plain rejection that says why (`data.details`).
 */
export type Validation = boolean | RestError | ParamReason;

/**
 * A pass that hands on what the validator had to read to judge the value (the record a path names,
 * the terms a filter names): that is the argument's value, not read again (style.md, flow 4).
 */
export class Valid<T> {
  constructor(readonly value: T) {}
}

/** `T`: the value handlers receive (`ArgValues`). */
export interface ArgDef<T = unknown> {
  /** TypeBox schema: type, items, format, enum, default, bounds and the English `description`. */
  schema: TSchema;
  required?: boolean;
  /** A default computed per request (e.g. from a setting); wins over `schema.default`. */
  defaultFrom?: (ctx: RequestContext) => unknown;
  /**
   * First validation pass (common.md 5.2). A validator that hands on a value (`Valid`) hands one on
   * whenever it passes: the second pass then leaves the argument alone.
   */
  validate?: (value: unknown, ctx: RequestContext) => Validation | Valid<T> | Promise<Validation | Valid<T>>;
  /**
   * Replaces the type coercion of the second pass when the schema alone cannot say what the value
   * means: reads the value the validator passed into what handlers receive.
   */
  parse?: (value: unknown, ctx: RequestContext) => T;
  /**
   * Runs after the type check passed, on the coerced value: the form a write stores when it is not
   * the form that was sent (a URL's cleaned text). Unlike `parse`, it keeps the type failures.
   */
  normalize?: (value: any) => T;
  /** Where the argument is read from; path arguments take their value from the URL only (X 3). */
  in?: 'path' | 'query' | 'body';
}

/** An argument every call carries (missing, it is refused before anything else): handlers always receive it. */
export type RequiredArg<T> = ArgDef<T> & { required: true };

export type Args = Record<string, ArgDef>;

/**
 * What a handler receives of one argument: its value; `undefined` when it was not sent (and has no
 * default), `null` when it was sent empty (decisions.md principle 3).
 */
export type ArgValue<D> = D extends RequiredArg<infer T> ? T : D extends ArgDef<infer T> ? T | null | undefined : never;

/** The validated values of an argument table, by name. */
export type ArgValues<A extends Args> = { [K in keyof A]: ArgValue<A[K]> };

/**
 * Declared on every endpoint, public ones included (style.md rule 2). `input` is absent when the
 * `Allow` header is decided (common.md 1.7), before the arguments are validated.
 */
export type Permission<I = unknown> = (ctx: RequestContext, input?: I) => boolean | Promise<boolean>;

export type Handler<I> = (ctx: RequestContext, input: I) => Reply | Promise<Reply>;

export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** `I`: what the permission and the handler receive; `any` in the route table (see `endpoint`). */
export interface Endpoint<I = any> {
  methods: Method[];
  args: Args;
  permission: Permission<I>;
  handler: Handler<I>;
  /** Short English summary of the operation (OpenAPI). */
  summary?: string;
  /** Schema of the success body (OpenAPI). */
  response?: TSchema;
  /** Success status when not 200. */
  successStatus?: number;
  /**
   * The media type of a success body that is not JSON (an iCalendar feed): the handler's `body` is
   * then the text sent as is, and `_fields` / `_envelope` leave it alone. Errors stay JSON.
   */
  contentType?: string;
  /** Error statuses the endpoint may answer with (OpenAPI). */
  errorStatuses?: number[];
  /**
   * GET only: repeated identical requests may be answered from the response cache (http/cache.ts)
   * when the 200 body depends on nothing but the URL, the caller, the site settings and the stored
   * data (`'data'`: kept until the next write), or on those and the clock (`'clock'`: the default
   * date window, upcoming events; kept until the next write and until the context's `freshUntil`,
   * at most a second when the handler sets none). Client errors (4xx) are kept the same way.
   */
  cache?: CacheLifetime;
}

/**
 * An endpoint whose permission and handler receive the values of its own arguments. The route table
 * holds endpoints of every argument type; the dispatcher hands each the values of its `args`.
 */
export function endpoint<A extends Args>(def: Endpoint<ArgValues<A>> & { args: A }): Endpoint {
  return def;
}

export interface RouteDef {
  /** WordPress pattern relative to the namespace root, e.g. `/events/(?P<id>\d+)`; '' is the root. */
  pattern: string;
  endpoints: Endpoint[];
  /** OpenAPI path key, e.g. `/events/{id}`. */
  openapiPath: string;
}

/** Declares one route as data (style.md rule 1). */
export function defineRoute(pattern: string, endpoints: Endpoint[]): RouteDef {
  const openapiPath = pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}') || '/';
  return { pattern, endpoints, openapiPath };
}

/** Everyone may call it (style.md rule 2). */
export const everyone: Permission = () => true;
