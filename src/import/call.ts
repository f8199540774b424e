/**
 * Imports write through the service's own endpoints: a record read from elsewhere becomes the
 * parameters of the request a client would send, and goes through that endpoint's validation,
 * permission and handler, so that every rule and sanitation of the REST path applies unchanged.
 * The call runs on a transaction the importer holds: the endpoint's write and the importer's
 * bookkeeping commit together, or not at all.
 */
import type { Caller } from '../auth/capabilities.js';
import type { Transaction } from 'kysely';
import type { Database } from '../db/tables.js';
import { restErrors } from '../http/errors.js';
import { cleanInput } from '../http/input.js';
import { urlsFor } from '../http/register.js';
import type { AppContext, Method, Reply, RequestContext } from '../http/route.js';
import { validateArgs } from '../http/validate.js';

/** A context for calls made on behalf of `user` outside any HTTP request (the CLI). */
export async function operatorContext(app: AppContext, user: Caller | null): Promise<RequestContext> {
  return {
    app,
    user,
    settings: await app.settings.get(),
    lang: '',
    urls: urlsFor(app, ''),
    method: 'POST',
    given: {},
    path: {},
    raw: {},
    headers: {},
    ip: '',
  };
}

/**
 * Calls the endpoint of `method` on the route declared as `pattern` (as in the route table, e.g.
 * `/events/(?P<id>\d+)`) with `params` (`path` holds the path groups), inside `trx`: everything the
 * endpoint reads, writes or opens as its own transaction happens in `trx`.
 */
export async function callEndpoint(
  trx: Transaction<Database>,
  base: RequestContext,
  method: Method,
  pattern: string,
  params: Record<string, unknown>,
  path: Record<string, string> = {},
): Promise<Reply> {
  const endpoint = base.app.routes
    .find((route) => route.pattern === pattern)
    ?.endpoints.find((candidate) => candidate.methods.includes(method));
  if (!endpoint) throw new Error(`no ${method} endpoint on ${pattern}`);
  const app: AppContext = { ...base.app, db: trx, reads: trx, transact: (write) => write(trx) };
  const raw = { ...(cleanInput(params) as Record<string, unknown>), ...path };
  const ctx: RequestContext = { ...base, app, method, path, raw, given: {} };
  const values = await validateArgs(endpoint.args, raw, ctx);
  if (!(await endpoint.permission(ctx, values))) throw restErrors.forbidden(ctx.user !== null);
  return endpoint.handler(ctx, values);
}
