/** The endpoint's call: its arguments, its permission, its handler (style.md, "How a request flows" 3 to 5). */
import { restErrors } from '../errors.js';
import type { Stage } from '../exchange.js';
import { cleanInput } from '../input.js';
import { validateArgs } from '../validate.js';

/**
 * Every parameter of the request after precedence, body > query > path (common.md 5.1), except
 * that path ids and slugs name the target (X 3); then the endpoint's arguments validated and
 * parsed into their values (http/validate.ts).
 */
export const parseArguments: Stage = async (x, next) => {
  const { ctx, endpoint, body } = x;
  const input = Object.assign(Object.create(null) as Record<string, unknown>, cleanInput(x.query));
  for (const [k, v] of Object.entries(ctx.path)) if (!(k in input)) input[k] = v;
  if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(input, body);
  for (const [k, v] of Object.entries(ctx.path)) {
    if (endpoint.args[k]?.in === 'body') continue;
    input[k] = v;
  }
  ctx.raw = input;
  x.values = await validateArgs(endpoint.args, input, ctx);
  return next();
};

/** The endpoint's declared permission (style.md rule 2): 401 to an anonymous caller, else 403. */
export const authorize: Stage = async (x, next) => {
  if (!(await x.endpoint.permission(x.ctx, x.values))) throw restErrors.forbidden(x.ctx.user !== null);
  return next();
};

/** The handler's reply, with the headers of every answer of the endpoint. */
export const handle: Stage = async (x) => {
  const out = await x.endpoint.handler(x.ctx, x.values);
  const status = out.status ?? 200;
  return {
    kind: 'json',
    status,
    body: out.body,
    headers: { ...x.endpointHeaders(), ...(out.headers ?? {}) },
    storable: status === 200,
    ...(x.endpoint.contentType ? { contentType: x.endpoint.contentType } : {}),
  };
};
