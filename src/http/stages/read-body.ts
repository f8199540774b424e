import { restErrors } from '../errors.js';
import type { Stage } from '../exchange.js';
import { INVALID_JSON, LOOKS_LIKE_JSON, cleanInput, type InvalidJsonBody } from '../input.js';

/**
 * The body as later stages see it (http/input.ts). A body that is not JSON is refused only now,
 * once the route is known: an unknown route wins over a bad body (common.md 4.2).
 */
export const readBody: Stage = (x, next) => {
  const { body } = x.request;
  if (body && typeof body === 'object' && INVALID_JSON in body) {
    throw restErrors.invalidJson((body as InvalidJsonBody)[INVALID_JSON]);
  }
  x.ctx.bodyLooksLikeJson = typeof body === 'object' && body !== null && LOOKS_LIKE_JSON in body;
  x.body = cleanInput(body);
  return next();
};
