import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { publishDueRecords } from '../resources/post-like/schedule.js';
import { findArchiveTerm } from '../resources/terms/archive.js';
import { categoryTaxonomy, tagTaxonomy, type Taxonomy } from '../resources/terms/index.js';
import { sanitizeSlugQuery } from '../text/slug.js';
import { nowUtcWall } from '../time/format.js';
import type { SiteReply, SiteRequest, SiteRoute } from './register.js';

/**
 * The discovery headers TEC sends on its site pages, on this service's server root and on the
 * public `url` of every record (common.md 2.5, decisions.md X 26). GET and HEAD; HEAD is served
 * by the GET handler without a body.
 */

/**
 * With the setting `rest_api_enabled` off, TEC says `disabled` and names neither root nor origin
 * (common.md 2.5); the body then leaves out its links into the namespace (`undefined` values) too.
 * The REST index still answers, so its `Link` stays.
 */
function discoveryReply(
  { urls, settings }: SiteRequest,
  apiRoot: string,
  body: Record<string, string | undefined>,
): SiteReply {
  const api: Record<string, string> = settings.rest_api_enabled
    ? { 'X-TEC-API-VERSION': 'v1', 'X-TEC-API-ROOT': apiRoot, 'X-TEC-API-ORIGIN': urls.site }
    : { 'X-TEC-API-VERSION': 'disabled' };
  return {
    headers: { ...api, Link: `<${urls.base}/>; rel="https://api.w.org/"` },
    contentType: 'application/json; charset=UTF-8',
    body: JSON.stringify(body),
  };
}

/** A link into the namespace, left out while it is switched off. */
function apiLink({ settings }: SiteRequest, url: string): string | undefined {
  return settings.rest_api_enabled ? url : undefined;
}

/** A slug from a public path segment, normalized as by-slug lookups are (common.md 9.8); null if malformed. */
function slugOf(segment: string): string | null {
  try {
    return sanitizeSlugQuery(decodeURIComponent(segment));
  } catch {
    return null;
  }
}

/** Only published records have a public page (a draft's or a trashed record's `url` is a 404). */
async function publishedPostId(
  db: Kysely<Database>,
  type: 'event' | 'venue' | 'organizer',
  segment: string,
): Promise<number | undefined> {
  const slug = slugOf(segment);
  if (!slug) return undefined;
  // A scheduled record whose time has come is published from that moment (decisions.md X 12).
  await publishDueRecords(db, nowUtcWall());
  const row = await db
    .selectFrom('posts')
    .select('id')
    .where('type', '=', type)
    .where('slug', '=', slug)
    .where('status', '=', 'publish')
    .executeTakeFirst();
  return row?.id;
}

/** The slug of the archive term a public path names, if any (resources/terms/archive.ts). */
async function archiveSlug(db: Kysely<Database>, tax: Taxonomy, path: string): Promise<string | undefined> {
  const slugs = path.split('/').map(slugOf);
  if (slugs.some((slug) => slug === null)) return undefined;
  return (await findArchiveTerm(db, tax, slugs as string[]))?.slug;
}

/** Site routes: `/` and the public record URLs of D6. A record that does not exist falls through to 404. */
export function publicUrlRoutes(): SiteRoute[] {
  const page = (site: SiteRequest, url: string, apiRoot: string) => ({ url, rest_url: apiLink(site, apiRoot) });
  return [
    {
      path: /^\/$/,
      handler: (site) =>
        discoveryReply(site, `${site.urls.root}/`, {
          name: 'Calendar Server',
          rest: `${site.urls.base}/`,
          namespace: apiLink(site, `${site.urls.root}/`),
          openapi: apiLink(site, `${site.urls.root}/doc`),
          reference: `${site.urls.site}/docs`,
        }),
    },
    {
      path: /^\/event\/([^/]+)\/?$/,
      handler: async (site, m) => {
        const { app, urls } = site;
        const id = await publishedPostId(app.db, 'event', m[1]!);
        if (id === undefined) return null;
        const apiRoot = `${urls.root}/events/${id}`;
        return discoveryReply(site, apiRoot, page(site, `${urls.site}${m[0]}`, apiRoot));
      },
    },
    ...(['venue', 'organizer'] as const).map((type): SiteRoute => ({
      path: new RegExp(`^\\/${type}\\/([^/]+)\\/?$`),
      handler: async (site, m) => {
        const { app, urls } = site;
        const id = await publishedPostId(app.db, type, m[1]!);
        if (id === undefined) return null;
        const apiRoot = `${urls.root}/events/?${type}=${id}`;
        return discoveryReply(site, apiRoot, page(site, `${urls.site}${m[0]}`, apiRoot));
      },
    })),
    {
      path: /^\/events\/category\/((?:[^/]+\/)*[^/]+)\/?$/,
      handler: async (site, m) => {
        const { app, urls } = site;
        const slug = await archiveSlug(app.db, categoryTaxonomy, m[1]!);
        if (slug === undefined) return null;
        // Stored slugs are already URL-safe (lower-case letters, digits, `-`, `_`, `%xx`).
        const apiRoot = `${urls.root}/events/?categories=${slug}`;
        return discoveryReply(site, apiRoot, page(site, `${urls.site}${m[0]}`, apiRoot));
      },
    },
    {
      path: /^\/tag\/([^/]+)\/?$/,
      handler: async (site, m) => {
        const { app, urls } = site;
        const slug = await archiveSlug(app.db, tagTaxonomy, m[1]!);
        if (slug === undefined) return null;
        const apiRoot = `${urls.root}/events/?tags=${slug}`;
        return discoveryReply(site, apiRoot, page(site, `${urls.site}${m[0]}`, apiRoot));
      },
    },
  ];
}
