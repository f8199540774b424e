import { restErrors } from '../errors.js';
import type { Stage } from '../exchange.js';
import type { Method } from '../route.js';

/** Keep an answer to a signed-in caller out of shared caches, as WordPress does for a logged-in user. */
const PRIVATE_HEADERS: Record<string, string> = {
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
};

/**
 * Who calls, under which settings: Basic credentials behind the login limits, else an anonymous
 * caller counted against the request limit. First of all, so that a bad credential is refused
 * even on an unknown path or a cached answer (style.md, "How a request flows" 1).
 */
export const authenticate: Stage = async (x, next) => {
  const { app, throttle } = x.dispatcher;
  const { request } = x;
  const settings = await app.settings.get();
  // Setting require_https: application passwords only over TLS (decisions.md X 1).
  if (settings.require_https && request.headers.authorization && request.protocol !== 'https') {
    throw restErrors.httpsRequired();
  }
  const user = await throttle.authenticate(request, app.authenticator);
  if (!user) await throttle.countAnonymous(request);
  x.privateHeaders = user ? PRIVATE_HEADERS : {};
  x.ctx = {
    app,
    user,
    settings,
    lang: x.lang,
    urls: x.urls,
    method: (x.method === 'HEAD' ? 'GET' : x.method) as Method,
    given: {},
    path: {},
    raw: {},
    headers: request.headers,
    ip: request.ip,
  };
  return next();
};
