import type { Urls } from '../../http/route.js';

/** Public permalink, pretty shape for every status (common.md 9.3, decisions.md X 15). */
export function postUrl(urls: Urls, type: 'event' | 'venue' | 'organizer', slug: string): string {
  return `${urls.site}/${type}/${slug}/`;
}

/** Host and path of the site URL, port left out, plus `?id=` (common.md 9.4). */
export function globalId(urls: Urls, id: number): string {
  const site = new URL(urls.site);
  const path = site.pathname.replace(/\/+$/, '');
  return `${site.hostname}${path}?id=${id}`;
}

/** `author` is a string of digits on the wire (common.md 9.1). */
export function authorString(author: number): string {
  return String(author);
}
