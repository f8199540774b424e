import { restErrors } from '../errors.js';
import { jsonAnswer, type Answer, type Exchange, type Stage } from '../exchange.js';
import { withoutNul } from '../input.js';
import type { CompiledRoute } from '../register.js';
import type { Method } from '../route.js';
import type { Settings } from '../../settings.js';
import { allowedMethods } from './allow.js';

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The REST index at `{base_url}/` (common.md 2.4). */
export const serveRestIndex: Stage = (x, next) => {
  if (x.restPath !== '') return next();
  if (x.method === 'GET' || x.method === 'HEAD')
    return jsonAnswer(200, x.dispatcher.restIndex(x.ctx), x.privateHeaders);
  if (x.method === 'OPTIONS') return jsonAnswer(200, [], x.privateHeaders);
  throw restErrors.noRoute();
};

/** The route of the path, with its path groups percent-decoded; else no route (OPTIONS: an empty description). */
export const resolveRoute: Stage = (x, next) => {
  const route = findRoute(x.dispatcher.compiled, x.restPath, x.ctx.settings);
  if (!route) {
    if (x.method === 'OPTIONS') return jsonAnswer(200, [], x.privateHeaders);
    throw restErrors.noRoute();
  }
  x.route = route.route;
  // The namespace index's pattern is '' (route.ts).
  x.pattern = route.route.def.pattern || '/';
  for (const [k, v] of Object.entries(route.groups)) {
    try {
      x.ctx.path[k] = withoutNul(decodeURIComponent(v));
    } catch {
      x.ctx.path[k] = v;
    }
  }
  return next();
};

/**
 * The route of a REST path. With `rest_api_enabled` off there is none: TEC's "REST API
 * disabled" option leaves the namespace unregistered (decisions.md, "Site settings").
 */
function findRoute(
  compiled: CompiledRoute[],
  restPath: string,
  settings: Settings,
): { route: CompiledRoute; groups: Record<string, string> } | undefined {
  if (!settings.rest_api_enabled) return undefined;
  for (const route of compiled) {
    const m = route.regex.exec(restPath);
    if (m) return { route, groups: { ...(m.groups ?? {}) } };
  }
  return undefined;
}

/** OPTIONS describes the route as discovery does, with the methods the caller may call (common.md 2.3). */
export const answerOptions: Stage = (x, next) => (x.method === 'OPTIONS' ? optionsAnswer(x) : next());

async function optionsAnswer(x: Exchange): Promise<Answer> {
  const description = x.dispatcher.routeObject(x.route.def, x.ctx);
  return jsonAnswer(200, description, { ...x.privateHeaders, Allow: await allowedMethods(x.route.def, x.ctx) });
}

/** The route's endpoint for the method; none is no route (common.md 1.3). */
export const selectEndpoint: Stage = (x, next) => {
  const wanted = x.ctx.method;
  const endpoint = METHODS.includes(wanted)
    ? x.route.def.endpoints.find((ep) => ep.methods.includes(wanted))
    : undefined;
  if (!endpoint) throw restErrors.noRoute();
  x.endpoint = endpoint;
  return next();
};
