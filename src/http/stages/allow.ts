import type { Stage } from '../exchange.js';
import type { RequestContext, RouteDef } from '../route.js';

/** Decides which methods of a matched route this requester may call (`Allow`, common.md 1.7). */
export async function allowedMethods(route: RouteDef, ctx: RequestContext): Promise<string> {
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
 * The endpoint's answers and errors carry `Allow`. After the cache lookup: a cached answer carries
 * the header it was built with (the caller is part of its key).
 */
export const listAllowedMethods: Stage = async (x, next) => {
  x.allow = { Allow: await allowedMethods(x.route.def, x.ctx) };
  return next();
};
