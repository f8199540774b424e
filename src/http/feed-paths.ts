/**
 * The site addresses of the iCalendar feeds: a site page asked with `?ical=1`, the convention TEC's
 * subscribe links use, is served by the feed route of the same records (resources/events/feeds.ts),
 * as a REST request to that route.
 */
import { buildUrl, type LinkValue } from './pagination.js';
import { NAMESPACE } from './register.js';

/** The query parameter that asks a site page for its feed; any value does, as in TEC. */
const FEED_QUERY = 'ical';

/** Site page → feed route; `$1` is the page's slug or category path. */
const FEED_PAGES: Array<[RegExp, string]> = [
  [/^\/events\/?$/, '/feeds/events'],
  [/^\/event\/([^/]+)\/?$/, '/feeds/events/$1'],
  [/^\/events\/category\/((?:[^/]+\/)*[^/]+)\/?$/, '/feeds/categories/$1'],
  [/^\/tag\/([^/]+)\/?$/, '/feeds/tags/$1'],
];

/** The REST path (below the REST prefix) of the feed a site address asks for; undefined when it asks for none. */
export function feedRestPath(pathname: string, query: Record<string, unknown>): string | undefined {
  if (query[FEED_QUERY] === undefined) return undefined;
  for (const [page, route] of FEED_PAGES) {
    if (page.test(pathname)) return `/${NAMESPACE}${pathname.replace(page, route)}`;
  }
  return undefined;
}

/** The subscribe link of a site page (`path`, with its trailing slash), with the feed's filters. */
export function feedSiteUrl(site: string, path: string, params: Array<[string, LinkValue]> = []): string {
  return buildUrl(`${site}${path}`, [[FEED_QUERY, 1], ...params]);
}
