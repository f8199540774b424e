/**
 * The dispatcher's last step: an answer, or an error as its answer, written to the reply.
 */
import type { FastifyReply } from 'fastify';
import { matchesIfNoneMatch, type CacheEntry } from './cache.js';
import { GZIP_MIN_BYTES, acceptsGzip, varyOnEncoding } from './compression.js';
import { RestError, restErrors } from './errors.js';
import {
  JSON_TYPE,
  answerBytes,
  jsonAnswer,
  type Answer,
  type Exchange,
  type JsonAnswer,
  type PageAnswer,
} from './exchange.js';

/**
 * The one rendering of errors, `{code, message, data}` (style.md rule 4): a database fault as its
 * catalogue error, anything else unforeseen as `rest_internal_error`.
 */
export function errorAnswer(x: Exchange, caught: unknown, headers = x.endpointHeaders()): JsonAnswer {
  let err = caught instanceof RestError ? caught : x.dispatcher.faults.asRestError(x.request.log, caught);
  if (!(err instanceof RestError)) {
    x.request.log.error({ err }, 'unhandled error');
    err = restErrors.internal();
  }
  const e = err as RestError;
  return jsonAnswer(e.status, e.body, { ...headers, ...e.headers });
}

export function send(x: Exchange, reply: FastifyReply, answer: Answer) {
  switch (answer.kind) {
    case 'json':
      return sendJson(x, reply, answer);
    case 'stored':
      return sendStored(x, reply, answer.entry);
    case 'page':
      return sendPage(x, reply, answer);
  }
}

/**
 * An answer's own headers, its `Link` (next and previous pages, a feed) joined after the common
 * one: every REST answer links the API's root (common.md 1.7).
 */
export function joinLinks(
  common: Readonly<Record<string, string>>,
  own: Record<string, string>,
): Record<string, string> {
  return own.Link && common.Link ? { ...own, Link: `${common.Link}, ${own.Link}` } : own;
}

/** The common headers under an answer's own. */
function withCommon(common: Readonly<Record<string, string>>, own: Record<string, string>): Record<string, string> {
  return { ...common, ...joinLinks(common, own) };
}

function sendJson(x: Exchange, reply: FastifyReply, answer: JsonAnswer) {
  const { status } = answer;
  const headers = withCommon(x.common, answer.headers);
  // A 304 has no content (RFC 9110 15.4.5).
  if (status === 304) return reply.code(304).headers(headers).send();
  reply.code(status).headers({ ...headers, 'Content-Type': answer.contentType ?? JSON_TYPE });
  return reply.send(answerBytes(answer));
}

/**
 * A stored answer, gzip-compressed when the client accepts it. The compressed form's ETag is the
 * weak form of the answer's: the same content, other bytes (RFC 9110 8.8.1); If-None-Match
 * compares weakly, so either form revalidates either.
 */
async function sendStored(x: Exchange, reply: FastifyReply, entry: CacheEntry) {
  const { cache } = x.dispatcher;
  const { headers } = x.request;
  const gzip = entry.length >= GZIP_MIN_BYTES && acceptsGzip(headers['accept-encoding']);
  // A stored answer's `Link` was joined to the common one when it was stored (stages/cache-reads.ts).
  reply.headers(x.common).header('Vary', varyOnEncoding(x.common.Vary)).headers(entry.headers);
  if (gzip && entry.status === 200) reply.header('ETag', `W/${entry.etag}`);
  if (entry.status === 200 && matchesIfNoneMatch(headers['if-none-match'], entry.etag)) {
    return reply.code(304).send();
  }
  reply.code(entry.status).header('Content-Type', entry.contentType);
  const compressed = gzip ? await cache.gzipped(entry) : null;
  if (compressed) return reply.header('Content-Encoding', 'gzip').send(compressed);
  return reply.send(await cache.identity(entry));
}

function sendPage(x: Exchange, reply: FastifyReply, { page }: PageAnswer) {
  reply.code(page.status ?? 200).headers({ ...x.cors, ...(page.headers ?? {}) });
  if (page.contentType) reply.header('Content-Type', page.contentType);
  return reply.send(page.body ?? '');
}
