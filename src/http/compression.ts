import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';

/**
 * Content coding of the answers of cacheable reads (cache.ts). A client that accepts gzip, as
 * browsers and HTTP libraries say on every request, gets the stored answer compressed, a fraction
 * of its size. The compression is made on libuv's thread pool rather than the request thread, and
 * kept instead of the answer.
 */

/** Smaller bodies go as they are (pages past the end, short records): gzip's framing would save little. */
export const GZIP_MIN_BYTES = 1024;

/** Negotiations by header value; a client sends the same one on every request. */
class BoundedStore extends Map<string, string> {
  override set(key: string, value: string): this {
    if (this.size >= 256) this.clear();
    return super.set(key, value);
  }
}

const encodings = new Negotiator({ supportedValues: ['gzip', 'identity'], cache: new BoundedStore() });

/** Whether `Accept-Encoding` prefers gzip to the identity (`gzip;q=0`, `identity` or no header: no). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  // Coding names are case-insensitive (RFC 9110 8.4.1); the negotiator compares them as given.
  return encodings.negotiate((Array.isArray(header) ? header.join(',') : header).toLowerCase()) === 'gzip';
}

/**
 * zlib's levels for a stored answer. Its first compression may be its only one, since most answers
 * built from the database are never asked for again (every visitor's own filters), and zlib's
 * fastest level takes about half the time of its default for about a third more bytes
 * (docs/performance.md). An answer sent compressed `GZIP_REPEATED_AFTER` times is compressed again
 * at the default level, once, for the many sends that are likely to follow.
 */
export const GZIP_LEVELS = { first: 1, repeated: 6 } as const;
export const GZIP_REPEATED_AFTER = 8;

const gzipAsync = promisify(gzip);
export const gzipBody = (body: Buffer, level: number): Promise<Buffer> => gzipAsync(body, { level });
export const gunzipBody: (body: Buffer) => Promise<Buffer> = promisify(gunzip);

/** The `Vary` value of an answer whose coding follows `Accept-Encoding`, beside one the CORS headers may set. */
export function varyOnEncoding(vary: string | undefined): string {
  return vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
}
