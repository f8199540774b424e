import { createHash } from 'node:crypto';
import { GZIP_LEVELS, GZIP_REPEATED_AFTER, gunzipBody, gzipBody } from './compression.js';
import { textBytes } from './json-bytes.js';
import type { Caller } from '../auth/capabilities.js';
import { isCountTag, tagVersionsReader, type TagVersions } from '../db/cache-tags.js';
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
 * A handler may also keep a part of its answer, under tags of its own (`AnswerPart`): the page of an
 * event list, which a write after its last record leaves as it was though the list's total moves.
 * When the answer goes stale and that part's tags still hold, the next build of the same key takes
 * it instead of reading it again. The most recent `MAX_PARTS` parts of answers built again are kept.
 *
 * An answer or part stale by term counts alone (`countTag`: an event published in a category it
 * shows) has them rewritten to their stored values (the `recount` option) and is served again,
 * rather than built again.
 *
 * Client errors are kept like answers (a page past the end, an unknown ID), without an ETag.
 * Authentication runs before the lookup, so a bad credential is still refused; concurrent misses
 * of one key wait for the first one instead of building the same response again. Once a client
 * that accepts gzip has asked for an entry, it keeps its body gzip-compressed only (compression.ts),
 * in a fraction of the memory, and a client that does not accept gzip gets it decompressed. The
 * first compression is zlib's fastest; an entry sent compressed often is compressed again, smaller.
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
  /** Times `gzip` was asked for: at `GZIP_REPEATED_AFTER`, it is made again at the repeated level. */
  gzipSends: number;
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
  /** A hit stale by term counts alone, rewritten (`ResponseCacheOptions.recount`). */
  recounted: boolean;
  /** On a miss, the part an earlier answer of the same key kept (`AnswerPart`). */
  part: AnswerPart | null;
  /** Stores the answer (a 200 or a client error), its body in UTF-8 (json-bytes.ts). */
  fill(status: number, headers: Record<string, string>, body: Buffer, options?: FillOptions): CacheEntry;
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

/**
 * A part of a cacheable read's answer that the next build of the same key may take instead of
 * building it again: kept with the tags it was built from (`keep`), given back (`take`) while
 * none of their versions moved and its lifetime lasts, whether or not the answer's own tags did.
 */
export interface AnswerPart {
  /** The part an earlier answer of this key kept, if it still holds; the answer is then built from it. */
  take(): string | undefined;
  /** Whether `take` gave a part. */
  readonly taken: boolean;
  /**
   * Whether `keep` keeps anything: only once the key was answered before, so that reads never
   * repeated (every URL different) spend nothing on parts.
   */
  readonly keeps: boolean;
  /**
   * Keeps `value`, JSON text built from the tags `reads`, until `freshUntil` (as `FillOptions`'s) at
   * the latest.
   */
  keep(value: string, reads: Iterable<string>, freshUntil: number | undefined): void;
}

/** A kept part, with the tags it was built from and their versions. */
interface StoredPart {
  value: string;
  version: number;
  reads: TagReads;
  expires: number;
}

/** Parts kept at most (none when the cache keeps no answer): JSON text, as long as a page of a list. */
const MAX_PARTS = 64;

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
  /** Compresses a body with gzip at a zlib level. Default: zlib on libuv's thread pool (compression.ts). */
  compress?: (body: Buffer, level: number) => Promise<Buffer>;
  /**
   * The JSON text of an answer with the term counts it shows as stored now; null when it cannot
   * tell where they are. Default: none (answers stale by counts are built again).
   */
  recount?: (text: string) => Promise<string | null>;
}

/** Whether an answer or part still holds under a snapshot: as it is, once its term counts are rewritten, or not. */
type Standing = 'current' | 'counts' | 'stale';

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

export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export class ResponseCache {
  private readonly entries = new Map<string, CacheEntry>();
  /** Kept parts by key, least recently kept or taken first. */
  private readonly parts = new Map<string, StoredPart>();
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
  private readonly compress: (body: Buffer, level: number) => Promise<Buffer>;
  private readonly recount: ((text: string) => Promise<string | null>) | null;
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
    this.recount = options.recount ?? null;
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
    const stored = this.entries.get(key);
    const standing = this.standing(stored, snapshot, at);
    if (standing === 'current') return this.hitSlot(stored!, false);
    const expires = (freshUntil: number | undefined) =>
      request.lifetime === 'clock' ? (freshUntil ?? at + this.ttlMs) : Infinity;

    const flightKey = `${version}\u0000${key}`;
    const inFlight = this.pending.get(flightKey);
    if (inFlight) {
      const shared = await inFlight;
      if (shared) return this.hitSlot(shared, false);
      return this.missSlot(key, snapshot, at, expires, null, await this.keptPart(key, snapshot, at), !!stored);
    }
    let settle!: (entry: CacheEntry | null) => void;
    this.pending.set(flightKey, new Promise<CacheEntry | null>((resolve) => (settle = resolve)));
    const done = (entry: CacheEntry | null) => {
      this.pending.delete(flightKey);
      settle(entry);
    };
    const recounted = standing === 'counts' ? await this.recounted(stored!, snapshot) : null;
    if (recounted) {
      done(recounted);
      return this.hitSlot(recounted, true);
    }
    return this.missSlot(key, snapshot, at, expires, done, await this.keptPart(key, snapshot, at), !!stored);
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

  /** Count tags moved make an answer `counts` only when it can be recounted. */
  private standing(
    entry: Pick<CacheEntry, 'expires' | 'version' | 'reads'> | undefined,
    snapshot: Snapshot,
    now: number,
  ): Standing {
    if (!entry || now >= entry.expires) return 'stale';
    if (entry.version === snapshot.version) return 'current';
    if (!entry.reads || entry.version > snapshot.version) return 'stale';
    const { tags, versions } = entry.reads;
    const { names } = this.tagNumbers;
    let standing: Standing = 'current';
    for (let i = 0; i < tags.length; i++) {
      const name = names[tags[i]!]!;
      if ((snapshot.tags.get(name) ?? 0) === versions[i]) continue;
      if (!this.recount || !isCountTag(name)) return 'stale';
      standing = 'counts';
    }
    return standing;
  }

  /** The same tags at the snapshot's versions. */
  private readAgain(reads: TagReads, snapshot: Snapshot): TagReads {
    const { names } = this.tagNumbers;
    const versions = new Float64Array(reads.tags.length);
    reads.tags.forEach((tag, i) => (versions[i] = snapshot.tags.get(names[tag]!) ?? 0));
    return { tags: reads.tags, versions };
  }

  /**
   * The entry with its term counts rewritten, stored under the snapshot: counts read after it,
   * never older. Null when they cannot be (not JSON, counts not found, the read failed).
   */
  private async recounted(entry: CacheEntry, snapshot: Snapshot): Promise<CacheEntry | null> {
    if (entry.contentType !== JSON_TYPE) return null;
    try {
      const text = await this.recount!((await this.identity(entry)).toString('utf8'));
      if (text === null) return null;
      const fresh = this.entryOf(entry.key, entry.status, entry.headers, textBytes(text), {
        version: snapshot.version,
        reads: this.readAgain(entry.reads!, snapshot),
        at: Date.now(),
        expires: entry.expires,
        contentType: entry.contentType,
      });
      this.store(entry.key, fresh, snapshot);
      return fresh;
    } catch {
      return null;
    }
  }

  /** The part kept for `key`, if it holds under the snapshot, its counts rewritten if they moved. */
  private async keptPart(key: string, snapshot: Snapshot, now: number): Promise<string | undefined> {
    const part = this.parts.get(key);
    const standing = this.standing(part, snapshot, now);
    if (standing === 'current') return part!.value;
    if (standing === 'stale') return undefined;
    const value = await this.recount!(part!.value).catch(() => null);
    if (value === null || this.parts.get(key) !== part) return undefined;
    this.parts.set(key, { ...part!, value, version: snapshot.version, reads: this.readAgain(part!.reads, snapshot) });
    return value;
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

  private hitSlot(entry: CacheEntry, recounted: boolean): CacheSlot {
    return { hit: entry, version: entry.version, recounted, part: null, fill: () => entry, release: () => undefined };
  }

  private missSlot(
    key: string,
    snapshot: Snapshot,
    at: number,
    expires: (freshUntil: number | undefined) => number,
    done: ((entry: CacheEntry | null) => void) | null,
    kept: string | undefined,
    repeated: boolean,
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
      recounted: false,
      part: this.partSlot(key, snapshot, expires, kept, repeated && this.maxBytes > 0),
      fill: (status, headers, body, { freshUntil, reads, contentType = JSON_TYPE } = {}) => {
        const entry = this.entryOf(key, status, headers, body, {
          version: snapshot.version,
          reads: reads ? this.tagReads(reads, snapshot) : null,
          at,
          expires: expires(freshUntil),
          contentType,
        });
        this.store(key, entry, snapshot);
        finish(entry);
        return entry;
      },
      release: () => finish(null),
    };
  }

  private entryOf(
    key: string,
    status: number,
    headers: Record<string, string>,
    body: Buffer,
    stored: Pick<CacheEntry, 'version' | 'reads' | 'at' | 'expires' | 'contentType'>,
  ): CacheEntry {
    const etag = etagOf(body);
    return {
      ...stored,
      status,
      headers: status === 200 ? { ...headers, ETag: etag } : headers,
      body,
      length: body.length,
      etag,
      gzip: null,
      gzipSends: 0,
      size: body.length,
      key,
    };
  }

  private partSlot(
    key: string,
    snapshot: Snapshot,
    expires: (freshUntil: number | undefined) => number,
    kept: string | undefined,
    keeps: boolean,
  ): AnswerPart {
    const parts = this.parts;
    let taken = false;
    return {
      take: () => {
        if (kept === undefined) return undefined;
        taken = true;
        const part = parts.get(key);
        if (part) {
          parts.delete(key);
          parts.set(key, part);
        }
        return kept;
      },
      get taken() {
        return taken;
      },
      keeps,
      keep: (value, reads, freshUntil) => {
        if (!keeps) return;
        parts.delete(key);
        parts.set(key, {
          value,
          version: snapshot.version,
          reads: this.tagReads(new Set(reads), snapshot),
          expires: expires(freshUntil),
        });
        for (const oldest of parts.keys()) {
          if (parts.size <= MAX_PARTS) break;
          parts.delete(oldest);
        }
      },
    };
  }

  /**
   * The entry's body gzip-compressed: made once, by the first request that asks, on libuv's thread
   * pool; the requests that ask meanwhile share it. From then on the entry keeps only that form.
   * Null when the compression failed: the entry keeps its body, and the next request tries again.
   * The `GZIP_REPEATED_AFTER`th request starts the compression at the repeated level, in the
   * background: the ones before and meanwhile get the first form.
   */
  gzipped(entry: CacheEntry): Promise<Buffer | null> {
    if (!entry.gzip) {
      entry.gzip = this.compress(entry.body!, GZIP_LEVELS.first).then(
        (bytes) => {
          this.resize(entry, bytes.length);
          entry.body = null;
          return bytes;
        },
        () => {
          entry.gzip = null;
          return null;
        },
      );
    } else if (++entry.gzipSends === GZIP_REPEATED_AFTER) {
      void this.compressAgain(entry, entry.gzip);
    }
    return entry.gzip;
  }

  /** Replaces the first compressed form by one at the repeated level; a failure leaves the first. */
  private async compressAgain(entry: CacheEntry, first: Promise<Buffer | null>): Promise<void> {
    try {
      const bytes = await first;
      if (!bytes) return;
      const again = await this.compress(await gunzipBody(bytes), GZIP_LEVELS.repeated);
      if (entry.gzip !== first || again.length >= bytes.length) return;
      this.resize(entry, again.length);
      entry.gzip = Promise.resolve(again);
    } catch {
      // The first form stays.
    }
  }

  /** The entry now holds `size` bytes, counted against the budget while it is kept. */
  private resize(entry: CacheEntry, size: number): void {
    if (this.entries.get(entry.key) === entry) this.bytes += size - entry.size;
    entry.size = size;
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
    // stale under the snapshot this one was built under (not by counts alone), the oldest go first.
    const now = Date.now();
    for (const [oldKey, old] of this.entries) {
      const kept = old.version >= snapshot.version || this.standing(old, snapshot, now) !== 'stale';
      if (this.bytes <= this.maxBytes && now < old.expires && kept) break;
      this.entries.delete(oldKey);
      this.bytes -= old.size;
    }
  }
}
