/**
 * The dispatcher: every request but `/healthz` goes through the stages below, in order. Each
 * stage answers, or hands the request on and may reshape the answer on its way back (the cache
 * keeps it, `_envelope` wraps it); whatever a stage throws is answered as an error
 * (`errorAnswer`), and `send` writes the answer.
 *
 * A new stage goes where what it needs is known: a limit on callers after `authenticate`, a
 * conditional request around `cacheReads`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AnswerHeaders } from './answer-headers.js';
import { ResponseCache, type ResponseCacheOptions } from './cache.js';
import { Exchange, type Answer, type Dispatcher, type Stage } from './exchange.js';
import { FaultLog } from './fault-log.js';
import { errorAnswer, send } from './send.js';
import { listAllowedMethods } from './stages/allow.js';
import { authenticate } from './stages/authenticate.js';
import { cacheReads } from './stages/cache-reads.js';
import { authorize, handle, parseArguments } from './stages/call.js';
import { readBody } from './stages/read-body.js';
import { answerOptions, resolveRoute, selectEndpoint, serveRestIndex } from './stages/resolve-route.js';
import { applyEnvelope, applyFields } from './stages/shape.js';
import { serveSitePages } from './stages/site-pages.js';

export const REQUEST_STAGES: readonly Stage[] = [
  authenticate, // caller and settings; 401 and 429 here, even on unknown paths
  serveSitePages, // non-REST paths
  serveRestIndex, // `{base_url}/`
  resolveRoute, // the route of the path, else rest_no_route
  answerOptions, // OPTIONS: the route's description and Allow
  selectEndpoint, // the route's endpoint for the method, else rest_no_route
  readBody, // rest_invalid_json; the body cleaned
  cacheReads, // answer from the response cache; on the way back, fill it
  listAllowedMethods, // Allow on the endpoint's answers and errors
  applyEnvelope, // on the way back: `_envelope`
  applyFields, // on the way back: `_fields`
  parseArguments, // precedence, validation, coercion
  authorize, // the endpoint's permission
  handle, // the handler's reply
];

/** Runs `stages` from the `i`th on: a stage that throws at once throws to the stage before it. */
function run(stages: readonly Stage[], x: Exchange, i = 0): Answer | Promise<Answer> {
  const stage = stages[i];
  if (!stage) throw new Error('the request went past the last stage without an answer');
  return stage(x, () => run(stages, x, i + 1));
}

async function dispatch(dispatcher: Dispatcher, request: FastifyRequest, reply: FastifyReply) {
  const x = new Exchange(dispatcher, request);
  request.exchange = x;
  try {
    return await send(x, reply, await run(REQUEST_STAGES, x));
  } catch (err) {
    return send(x, reply, errorAnswer(x, err));
  }
}

export interface DispatchOptions extends Omit<Dispatcher, 'cache' | 'faults' | 'headers'> {
  /** Options of the response cache; its `readVersion` makes the writes the clock makes due. */
  cache: ResponseCacheOptions;
  /** Told of a request whose client went away before its answer was written (request-log.ts). */
  clientGone: (request: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * The requests being handled. A request goes on after its client has gone (the server's close no
 * longer waits for it then), so the database is closed only once every one has ended.
 */
export interface InFlight {
  /** How many requests are being handled now. */
  count(): number;
  /** Resolves once none is. */
  settled(): Promise<void>;
}

export function registerDispatcher(fastify: FastifyInstance, opts: DispatchOptions): InFlight {
  const { clientGone, ...shared } = opts;
  const dispatcher: Dispatcher = {
    ...shared,
    cache: new ResponseCache(opts.app.db, opts.cache),
    faults: new FaultLog(),
    headers: new AnswerHeaders(opts.app),
  };
  fastify.decorateRequest('exchange', null);
  let running = 0;
  let whenSettled: (() => void)[] = [];
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    running++;
    try {
      return await dispatch(dispatcher, request, reply);
    } finally {
      // The answer has been handed to the connection; the connection is closed already only when
      // the client went away, and Fastify then never reports the request complete.
      if (reply.raw.destroyed) clientGone(request, reply);
      if (--running === 0) {
        for (const resolve of whenSettled) resolve();
        whenSettled = [];
      }
    }
  };

  const method = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  fastify.route({ method, url: '/*', handler });
  fastify.route({ method, url: '/', handler });
  // Methods no route declares (PROPFIND, TRACE, …) get the dispatcher's answer too: credentials
  // first, then 404 rest_no_route, as WordPress answers an unregistered method (common.md 1.3).
  fastify.setNotFoundHandler(handler);
  return {
    count: () => running,
    settled: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenSettled.push(resolve))),
  };
}
