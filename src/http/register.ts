/**
 * The route table as the dispatcher (http/dispatch.ts) matches it, the site's non-REST routes, and
 * the URL bases of a request's links.
 */
import type { FastifyRequest } from 'fastify';
import type { Settings } from '../settings.js';
import { compileArgs } from './validate.js';
import type { AppContext, RouteDef, Urls } from './route.js';

export const NAMESPACE = 'calendar/events/v1';

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
