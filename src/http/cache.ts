import { createHash } from 'node:crypto';
import { gunzipBody, gzipBody } from './compression.js';
import type { Caller } from '../auth/capabilities.js';
import { tagVersionsReader, type TagVersions } from '../db/cache-tags.js';
import { dataVersionSum } from '../db/data-version.js';
import type { Db } from '../db/tables.js';
import type { Settings } from '../settings.js';
import { JSON_TYPE } from './exchange.js';
import type { RequestContext } from './route.js';

/**
 * Serialized responses of repeated reads, for endpoints declared with `cache` in the route table.
 *
 * An entry is keyed by what can change a response: the method, the language segment, the path
 * and query (so `_fields`, `_envelope`, `password` and every filter are part of it), the caller
 * (user and role, or anonymous) and the site settings. Every write bumps `data_version` in its
 * transaction, and the tags of what it changed (db/cache-tags.ts); both are read before a response
 * is built, so a write in this process or in another one on the same database is seen at once.
 * An entry whose handler named the tags it was built from (`readsFrom`) is served while those
 * tags keep the versions read before it was built; any other while `data_version` does. Scheduled
 * records going live are such a write, made before the lookup (the `readVersion` option).
 * Results of `'clock'` endpoints may also depend on the clock (the default date window of the
 * events list, upcoming events): they are reused until the instant the handler says its answer
 * may change (`freshUntil`), for at most `ttlMs` when it says none; `'data'` entries live until a
 * write makes them stale or the byte budget pushes them out.
 *
 * Client errors are kept like answers (a page past the end, an unknown ID), without an ETag.
 * Authentication runs before the lookup, so a bad credential is still refused; concurrent misses
 * of one key wait for the first one instead of building the same response again. Once a client
 * that accepts gzip has asked for an entry, it keeps its body gzip-compressed only (compression.ts),
 * in a fraction of the memory, and a client that does not accept gzip gets it decompressed.
 */

/** What a cacheable endpoint's answer depends on besides the request and the data (route.ts). */
export type CacheLifetime = 'data' | 'clock';

export interface CacheEntry {
  status: number;
  /** The response's headers, its `ETag` included when the status is 200. */
  headers: Record<string, string>;
  /** The body's media type: JSON, or an endpoint's own (`Endpoint.contentType`). */
  contentType: string;
  /** The body's UTF-8 bytes; null once `gzip` holds them (`ResponseCache.identity` gives them back). */
  body: Buffer | null;
  /** The body's length in bytes, uncompressed. */
  length: number;
  etag: string;
  /** `data_version` read before the response was built. */
  version: number;
  /** The tags it was built from with their versions read before it was built; null: all data. */
  reads: TagReads | null;
  /** When that version was read (ms since the epoch). */
  at: number;
  /** Not served from this time on (ms since the epoch; Infinity for `'data'` entries). */
  expires: number;
  /**
   * The body gzip-compressed, made on the first request that accepts it (`ResponseCache.gzipped`);
   * null again if that compression failed.
   */
  gzip: Promise<Buffer | null> | null;
  /** Bytes the entry holds against the budget: its body, or its compressed body once made. */
  size: number;
  /** Its key in the cache, to tell whether it is still kept when its compression ends. */
  key: string;
}

export interface CacheRequest {
  method: string;
  lang: string;
  /** Path and query exactly as requested. */
  url: string;
  user: Caller | null;
  settings: Settings;
  lifetime: CacheLifetime;
}

/**
 * One lookup: `hit` when a current entry exists, else the caller builds the response and hands it
 * to `fill` (or calls `release` when there is nothing cacheable, e.g. an error).
 */
export interface CacheSlot {
  hit: CacheEntry | null;
  /** The `data_version` read before the lookup; what the response is built under. */
  version: number;
  /** Stores the answer (a 200 or a client error). */
  fill(status: number, headers: Record<string, string>, body: string, options?: FillOptions): CacheEntry;
  release(): void;
}

/** What a stored answer holds beyond its status, headers and body. */
export interface FillOptions {
  /** The handler's, for a `'clock'` endpoint (see RequestContext). */
  freshUntil?: number;
  /** The tags the answer was built from (`readsFrom`); none: all data. */
  reads?: ReadonlySet<string>;
  /** The body's media type; JSON when none. */
  contentType?: string;
}

export interface ResponseCacheOptions {
  ttlMs?: number;
  /** Bytes of answers kept (bodies and their gzip forms); 0 keeps none. */
  maxBytes?: number;
  /**
   * Reads the `data_version` a response is built under; the app's also publishes scheduled
   * records that are due first (a write that bumps it). Default: the stored value alone.
   */
  readVersion?: () => Promise<number>;
  /** Reads every tag's version. Default: the stored ones (`tagVersionsReader`). */
  readTags?: () => Promise<TagVersions>;
  /** Compresses a body with gzip. Default: zlib on libuv's thread pool (compression.ts). */
  compress?: (body: Buffer) => Promise<Buffer>;
}

/**
 * An answer's tags, as numbers (`TagNumbers`), and their versions: a list names a hundred tags or
 * more (the records of its page and all they embed), which as pairs of a string and a number made
 * most of the memory its stored answer held.
 */
export interface TagReads {
  tags: Uint32Array;
  versions: Float64Array;
}

/** Tag names numbered in the order first seen; the names are few (db/cache-tags.ts). */
class TagNumbers {
  private readonly numbers = new Map<string, number>();
  readonly names: string[] = [];

  of(tag: string): number {
    let n = this.numbers.get(tag);
    if (n === undefined) this.numbers.set(tag, (n = this.names.push(tag) - 1));
    return n;
  }
}

/** `data_version` and the tag versions, the tags read after it: never older than it. */
interface Snapshot {
  version: number;
  tags: TagVersions;
}

/**
 * For a cacheable read's handler: its answer is built from these tags only (db/cache-tags.ts), and
 * stays cached while their versions do. Whatever it loads afterwards must add its own tags to
 * `ctx.readFrom`.
 */
export function readsFrom(ctx: Pick<RequestContext, 'dataVersion' | 'readFrom'>, tags: Iterable<string>): void {
  if (ctx.dataVersion !== undefined) ctx.readFrom = new Set(tags);
}

const DEFAULT_TTL_MS = 1000;
/** The answers' budget when the configuration names none (`RESPONSE_CACHE_MB`). */
export const DEFAULT_CACHE_MIB = 48;

/** `If-None-Match` holds `etag` (or `*`); weak and strong forms compare equal for GET (RFC 9110 13.1.2). */
export function matchesIfNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * The UTF-8 bytes of a response body. `Buffer.from` reserves three bytes a character and copies the
 * result down; measuring first writes once, into memory of its own rather than a shared pool slab
 * (which a cached entry would keep alive).
 */
function utf8Bytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export class ResponseCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly pending = new Map<string, Promise<CacheEntry | null>>();
  /**
   * Settings by content, each named in keys by a number never given twice: requests share one
   * settings object until it changes.
   */
  private readonly settingsKeys = new WeakMap<Settings, string>();
  private readonly settingsIds = new Map<string, string>();
  private nextSettingsId = 0;
  private readonly readVersion: () => Promise<number>;
  private readonly readTags: () => Promise<TagVersions>;
  private readonly compress: (body: Buffer) => Promise<Buffer>;
  private nextSnapshot: Promise<Snapshot> | null = null;
  /** The newest snapshot read; its tags are read again only once `data_version` moves. */
  private snapshot: Snapshot | null = null;
  private readonly ttlMs: number;
  private readonly maxBytes: number;
  private bytes = 0;
  private readonly tagNumbers = new TagNumbers();

  constructor(
    private readonly db: Db,
    options: ResponseCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MIB * 1024 * 1024;
    this.compress = options.compress ?? gzipBody;
    const versionQuery = db.selectFrom('data_version').select(dataVersionSum).compile();
    this.readVersion =
      options.readVersion ??
      (() =>
        db.executeQuery<{ version: number | string }>(versionQuery).then(({ rows }) => Number(rows[0]?.version ?? 0)));
    this.readTags = options.readTags ?? tagVersionsReader(db);
  }

  async open(request: CacheRequest): Promise<CacheSlot> {
    const at = Date.now();
    const snapshot = await this.currentSnapshot();
    const { version } = snapshot;
    const key = this.keyOf(request);
    const current = this.current(this.entries.get(key), snapshot, at);
    if (current) return this.hitSlot(current);
    const expires = (freshUntil: number | undefined) =>
      request.lifetime === 'clock' ? (freshUntil ?? at + this.ttlMs) : Infinity;

    const flightKey = `${version}\u0000${key}`;
    const inFlight = this.pending.get(flightKey);
    if (inFlight) {
      const shared = await inFlight;
      if (shared) return this.hitSlot(shared);
      return this.missSlot(key, snapshot, at, expires, null);
    }
    let settle!: (entry: CacheEntry | null) => void;
    this.pending.set(flightKey, new Promise<CacheEntry | null>((resolve) => (settle = resolve)));
    return this.missSlot(key, snapshot, at, expires, (entry) => {
      this.pending.delete(flightKey);
      settle(entry);
    });
  }

  /**
   * The `data_version` as read by a statement that started after this call, with the tag versions
   * read after it. The read starts once the requests that arrived together have all asked
   * (`setImmediate`: after the event loop's I/O callbacks), and they share it; a caller that comes
   * while a read is running gets the next.
   */
  private currentSnapshot(): Promise<Snapshot> {
    this.nextSnapshot ??= new Promise<Snapshot>((resolve, reject) => {
      setImmediate(() => {
        this.nextSnapshot = null;
        this.readSnapshot().then(resolve, reject);
      });
    });
    return this.nextSnapshot;
  }

  /**
   * An unchanged `data_version` means no write committed since the last snapshot's, whose tags
   * were read after it: they still hold. Versions only grow, so of snapshots read concurrently
   * the one of the higher version is kept.
   */
  private async readSnapshot(): Promise<Snapshot> {
    const version = await this.readVersion();
    if (this.snapshot?.version === version) return this.snapshot;
    const snapshot = { version, tags: await this.readTags() };
    if (!this.snapshot || this.snapshot.version <= version) this.snapshot = snapshot;
    return snapshot;
  }

  private keyOf(request: CacheRequest): string {
    let settings = this.settingsKeys.get(request.settings);
    if (settings === undefined) {
      const text = JSON.stringify(request.settings);
      settings = this.settingsIds.get(text) ?? String(this.nextSettingsId++);
      if (this.settingsIds.size >= 1000) this.settingsIds.clear();
      this.settingsIds.set(text, settings);
      this.settingsKeys.set(request.settings, settings);
    }
    const who = request.user ? `${request.user.id}:${request.user.role}` : '-';
    return [request.method, request.lang, request.url, who, settings].join('\u0000');
  }

  private current(entry: CacheEntry | undefined, snapshot: Snapshot, now: number): CacheEntry | null {
    if (!entry || now >= entry.expires) return null;
    if (entry.version === snapshot.version) return entry;
    if (!entry.reads || entry.version > snapshot.version) return null;
    const { tags, versions } = entry.reads;
    const { names } = this.tagNumbers;
    for (let i = 0; i < tags.length; i++) if ((snapshot.tags.get(names[tags[i]!]!) ?? 0) !== versions[i]) return null;
    return entry;
  }

  private tagReads(reads: ReadonlySet<string>, snapshot: Snapshot): TagReads {
    const tags = new Uint32Array(reads.size);
    const versions = new Float64Array(reads.size);
    let i = 0;
    for (const tag of reads) {
      tags[i] = this.tagNumbers.of(tag);
      versions[i++] = snapshot.tags.get(tag) ?? 0;
    }
    return { tags, versions };
  }

  private hitSlot(entry: CacheEntry): CacheSlot {
    return { hit: entry, version: entry.version, fill: () => entry, release: () => undefined };
  }

  private missSlot(
    key: string,
    snapshot: Snapshot,
    at: number,
    expires: (freshUntil: number | undefined) => number,
    done: ((entry: CacheEntry | null) => void) | null,
  ): CacheSlot {
    let settled = false;
    const finish = (entry: CacheEntry | null) => {
      if (settled) return;
      settled = true;
      done?.(entry);
    };
    return {
      hit: null,
      version: snapshot.version,
      fill: (status, headers, text, { freshUntil, reads, contentType = JSON_TYPE } = {}) => {
        const body = utf8Bytes(text);
        const etag = etagOf(body);
        const entry: CacheEntry = {
          status,
          headers: status === 200 ? { ...headers, ETag: etag } : headers,
          contentType,
          body,
          length: body.length,
          etag,
          version: snapshot.version,
          reads: reads ? this.tagReads(reads, snapshot) : null,
          at,
          expires: expires(freshUntil),
          gzip: null,
          size: body.length,
          key,
        };
        this.store(key, entry, snapshot);
        finish(entry);
        return entry;
      },
      release: () => finish(null),
    };
  }

  /**
   * The entry's body gzip-compressed: made once, by the first request that asks, on libuv's thread
   * pool; the requests that ask meanwhile share it. From then on the entry keeps only that form.
   * Null when the compression failed: the entry keeps its body, and the next request tries again.
   */
  gzipped(entry: CacheEntry): Promise<Buffer | null> {
    entry.gzip ??= this.compress(entry.body!).then(
      (bytes) => {
        if (this.entries.get(entry.key) === entry) this.bytes += bytes.length - entry.size;
        entry.size = bytes.length;
        entry.body = null;
        return bytes;
      },
      () => {
        entry.gzip = null;
        return null;
      },
    );
    return entry.gzip;
  }

  /** The entry's body uncompressed: as kept, or decompressed from its gzip form (on libuv's thread pool). */
  identity(entry: CacheEntry): Buffer | Promise<Buffer> {
    return entry.body ?? entry.gzip!.then((bytes) => gunzipBody(bytes!));
  }

  private store(key: string, entry: CacheEntry, snapshot: Snapshot): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.size;
    }
    if (entry.length > this.maxBytes / 8) return;
    this.entries.set(key, entry);
    this.bytes += entry.size;
    // Entries are kept in creation order: past the budget, and while the oldest are expired or
    // stale under the snapshot this one was built under, the oldest go first.
    const now = Date.now();
    for (const [oldKey, old] of this.entries) {
      const kept = old.version >= snapshot.version || this.current(old, snapshot, now) !== null;
      if (this.bytes <= this.maxBytes && now < old.expires && kept) break;
      this.entries.delete(oldKey);
      this.bytes -= old.size;
    }
  }
}
