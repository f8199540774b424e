import { restErrors } from '../errors.js';
import { jsonAnswer, type Answer, type Exchange, type Stage } from '../exchange.js';
import { errorAnswer } from '../send.js';

/**
 * A path outside the REST prefix: a site page (the root, public record URLs, the API reference),
 * else no route. So is a REST prefix under a language the site does not serve (common.md 1.5).
 */
export const serveSitePages: Stage = (x, next) => (x.kind === 'rest' ? next() : nonRestAnswer(x));

async function nonRestAnswer(x: Exchange): Promise<Answer> {
  if (x.kind === 'site') {
    if (x.method === 'GET' || x.method === 'HEAD') {
      const page = await sitePage(x);
      if (page) return page;
    }
    if (x.method === 'OPTIONS') return jsonAnswer(200, [], x.privateHeaders);
  }
  throw restErrors.noRoute();
}

/** The first site route that matches the path and has a page for it. */
async function sitePage(x: Exchange): Promise<Answer | undefined> {
  const { app, siteRoutes } = x.dispatcher;
  const site = { app, urls: x.urls, settings: x.ctx.settings, headers: x.request.headers };
  for (const route of siteRoutes) {
    const m = x.pathname.match(route.path);
    if (!m) continue;
    try {
      const page = await route.handler(site, m);
      if (page) return { kind: 'page', page };
    } catch (err) {
      // Pages carry none of the REST headers; neither do their errors.
      return errorAnswer(x, err, {});
    }
  }
  return undefined;
}
