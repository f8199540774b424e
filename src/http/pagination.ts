import { Type, type TSchema } from '@sinclair/typebox';
import type { Settings } from '../settings.js';
import type { RestError } from './errors.js';
import { args } from './args.js';
import type { ArgDef, ArgValues, RequestContext } from './route.js';
import { int, str, strict } from './schemas.js';

/** `page` and `per_page`, shared by every list (common.md 5.6). */
export function pagingArgs(noun: string): { page: ArgDef<number>; per_page: ArgDef<number> } {
  return {
    page: args.positiveInteger(`The page of ${noun} to return.`, {}, { default: 1 }),
    per_page: args.positiveInteger(`How many ${noun} to return per page (at most the max_per_page setting).`, {
      defaultFrom: (ctx) => ctx.settings.posts_per_page,
    }),
  };
}

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

export type PagingInput = ArgValues<ReturnType<typeof pagingArgs>>;

/** TEC clamps per_page silently instead of rejecting it (common.md 5.6); the default is clamped too. */
export function resolvePaging(input: PagingInput, settings: Settings): Paging {
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? settings.posts_per_page, settings.max_per_page);
  return { page, perPage, offset: (page - 1) * perPage };
}

export type LinkValue = string | number | boolean | null | undefined | unknown[];

function encodeValue(value: LinkValue): string {
  if (Array.isArray(value)) return value.map((v) => encodeURIComponent(String(v))).join(',');
  if (typeof value === 'boolean') return value ? '1' : '0';
  return encodeURIComponent(String(value));
}

/** `base` + the ordered parameters, percent-encoded, arrays comma-joined (common.md 6.5). */
export function buildUrl(base: string, params: Array<[string, LinkValue]>): string {
  const parts = params
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeValue(v)}`);
  return parts.length ? `${base}?${parts.join('&')}` : base;
}

export interface ListOptions<T> {
  ctx: RequestContext;
  /** Collection path segment: `events`, `venues`, `organizers`, `categories`, `tags`. */
  collection: string;
  items: T[];
  total: number;
  paging: Paging;
  /** The request's filters in the reference's order, `page` excluded (it is placed per `shape`). */
  linkParams: Array<[string, LinkValue]>;
  /**
   * `post`: envelope `{<key>, rest_url, next?, previous?, total, total_pages}` with `page` first in
   * `rest_url` and a past-the-end page answered with `pastEnd`; `term`: `{rest_url, total,
   * total_pages, <key>, next?, previous?}` and an empty page past the end (common.md 6.1, 6.2).
   */
  shape: { kind: 'post'; pastEnd: () => RestError } | { kind: 'term' };
  /** The same records in another form (the events' iCalendar feed): a `rel="alternate"` link. */
  alternate?: { url: string; type: string };
}

/**
 * Longest `Link` header sent. The links repeat the request's query, which may be as long as the
 * request head allows; a proxy or client refuses a response head that large (8 KiB is a common
 * limit), so the header is left out and the same URLs stay in the body (`next_rest_url`, …).
 */
export const LINK_HEADER_LIMIT = 8192;

/**
 * The totals headers of a list: TEC's pair, and WordPress core's with the same values, which
 * generic WordPress REST clients (node-wpapi, for one) page by.
 */
function totalsHeaders(total: number, totalPages: number): Record<string, string> {
  return {
    'X-TEC-Total': String(total),
    'X-TEC-TotalPages': String(totalPages),
    'X-WP-Total': String(total),
    'X-WP-TotalPages': String(totalPages),
  };
}

const pageLinksJson = {
  rest_url: str('REST URL of this page.'),
  next_rest_url: Type.Optional(str('REST URL of the next page.')),
  previous_rest_url: Type.Optional(str('REST URL of the previous page.')),
};
const pageTotalsJson = {
  total: int('Number of matching records over all pages.'),
  total_pages: int('Number of pages.'),
};

/** The schema of a page of post-like records (`listResponse`'s `post` shape, common.md 6.1). */
export const postListJson = (key: string, item: TSchema, description: string) =>
  Type.Object({ [key]: Type.Array(item), ...pageLinksJson, ...pageTotalsJson }, { ...strict, description });

/** The schema of a page of terms (`listResponse`'s `term` shape, common.md 6.1). */
export const termListJson = (key: string, item: TSchema, description: string) =>
  Type.Object({ ...pageLinksJson, ...pageTotalsJson, [key]: Type.Array(item) }, { ...strict, description });

/** Builds a list response: envelope, totals, links, `X-TEC-*`, `X-WP-*` and `Link` headers. */
export function listResponse<T>(opts: ListOptions<T>) {
  const { ctx, collection, items, total, paging, linkParams, shape, alternate } = opts;
  if (shape.kind === 'post' && paging.page > 1 && items.length === 0) throw shape.pastEnd();
  const totalPages = total === 0 ? 0 : Math.ceil(total / paging.perPage);
  const base = `${ctx.urls.root}/${collection}/`;
  const restUrl = buildUrl(base, shape.kind === 'post' ? [['page', paging.page], ...linkParams] : linkParams);
  const next = paging.page < totalPages ? buildUrl(base, [...linkParams, ['page', paging.page + 1]]) : undefined;
  const previous =
    paging.page > 1 && (shape.kind === 'term' || paging.page - 1 <= totalPages)
      ? buildUrl(base, paging.page === 2 ? linkParams : [...linkParams, ['page', paging.page - 1]])
      : undefined;

  const headers = totalsHeaders(total, totalPages);
  const links = [
    next && `<${next}>; rel="next"`,
    previous && `<${previous}>; rel="prev"`,
    alternate && `<${alternate.url}>; rel="alternate"; type="${alternate.type}"`,
  ]
    .filter(Boolean)
    .join(', ');
  if (links && links.length < LINK_HEADER_LIMIT) headers['Link'] = links;

  const tail = {
    ...(next ? { next_rest_url: next } : {}),
    ...(previous ? { previous_rest_url: previous } : {}),
  };
  const body =
    shape.kind === 'post'
      ? { [collection]: items, rest_url: restUrl, ...tail, total, total_pages: totalPages }
      : { rest_url: restUrl, total, total_pages: totalPages, [collection]: items, ...tail };
  return { body, headers };
}
