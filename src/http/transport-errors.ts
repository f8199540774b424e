/**
 * Answers for requests Node's HTTP parser refuses before Fastify sees them (a malformed request
 * line, an oversized head, a headers timeout) and for expectations it cannot meet, in the
 * WordPress error shape of the catalogue instead of Node's bare or Fastify's own bodies.
 *
 * Contract: each answer is one complete HTTP/1.1 response with `Content-Type`, `Content-Length`
 * and `Connection: close`; after it the connection is closed, since the parser cannot tell where
 * the next request would start. Nothing is written when a response of an earlier request on the
 * connection has begun (it would be corrupted): the connection is only dropped.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { restErrors, type RestError } from './errors.js';

/** How long a connection may stay open once answered, for the client to read the answer and close. */
const LINGER_MS = 5000;

/** What Node attaches to a parser error (`clientError` event). */
export interface ParserError extends Error {
  code?: string;
  /** Where in `rawPacket` the parser stopped. */
  bytesParsed?: number;
  /** The bytes being parsed when the error occurred (a Buffer at run time). */
  rawPacket?: unknown;
}

function errorHeaders(body: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  };
}

/** A complete raw HTTP/1.1 response carrying `error`'s body. */
export function rawErrorResponse(error: RestError): string {
  const body = JSON.stringify(error.body);
  const lines = Object.entries(errorHeaders(body)).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

const SPACE = 0x20;
const REQUEST_LINE_START = /^[A-Z]+ /;

/**
 * Node counts the request line and the header fields against one size limit and reports both as
 * HPE_HEADER_OVERFLOW. The parser stops at the end of the span it was reading: a request target
 * ends at the space before the HTTP version, a header name at `:`, a value at CR. A span that ran
 * to the end of the bytes received is still in the request line when those bytes start with it
 * and hold no line break. Anything else (a target split across packets included) counts as
 * header fields: 431 still tells the client its request head was too large.
 */
function overflowedInRequestLine(err: ParserError): boolean {
  const packet = err.rawPacket;
  const at = err.bytesParsed;
  if (!Buffer.isBuffer(packet) || typeof at !== 'number') return false;
  if (at < packet.length) return packet[at] === SPACE;
  return REQUEST_LINE_START.test(packet.subarray(0, 32).toString('latin1')) && !packet.subarray(0, at).includes('\r\n');
}

/** The catalogue's answer for a parser error. */
export function parserErrorAnswer(err: ParserError): RestError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return overflowedInRequestLine(err) ? restErrors.requestUriTooLong() : restErrors.requestHeaderFieldsTooLarge();
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return restErrors.bodyTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return restErrors.requestTimeout();
    default:
      return restErrors.invalidRequestSyntax();
  }
}

/**
 * The server's `clientError` handler (Fastify's `clientErrorHandler`). Node calls it again for
 * every further packet the broken connection delivers; only the first one answers.
 */
export function answerClientError(err: ParserError, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  // Ending rather than destroying: unread bytes on a destroyed socket make the kernel reset the
  // connection, and the client may lose the answer. The timer bounds a client that never closes.
  socket.end(rawErrorResponse(parserErrorAnswer(err)));
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * The server's `checkExpectation` handler: an `Expect` other than `100-continue` (which Node
 * answers itself) cannot be met (RFC 9110 10.1.1).
 */
export function rejectExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const error = restErrors.expectationFailed();
  const body = JSON.stringify(error.body);
  response.writeHead(error.status, errorHeaders(body));
  response.end(body);
}
