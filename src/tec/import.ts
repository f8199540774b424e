/**
 * Migration from a live TEC site: its categories (parents first), tags, venues, organizers and
 * events, read from its REST API (client.ts) and written here through this service's own
 * endpoints (import/upsert.ts), one transaction per record, each remembered by source site and
 * source ID so that a second run updates instead of duplicating.
 */
import type { Transaction } from 'kysely';
import { DateTime } from 'luxon';
import type { Database } from '../db/tables.js';
import { RestError } from '../http/errors.js';
import type { RequestContext } from '../http/route.js';
import { uniqueSlug } from '../resources/post-like/slug.js';
import { sanitizeSlug } from '../text/slug.js';
import { callEndpoint } from '../import/call.js';
import { emptyReport, record, refusalReason, type ImportReport } from '../import/report.js';
import { findImported, importedIds, type ImportedKind } from '../import/sources.js';
import { upsertRecord, type Upserted } from '../import/upsert.js';
import { TecClient, type TecClientOptions } from './client.js';
import {
  CATEGORY_CLEARED,
  EVENT_CLEARED,
  TERM_CLEARED,
  eventParams,
  linkedParams,
  parentOf,
  sourceIdOf,
  termParams,
  type LocalIds,
  type SourceRecord,
} from './records.js';

export interface TecImportOptions extends TecClientOptions {
  /** Records already imported and not modified since this UTC time (`YYYY-MM-DD HH:MM:SS`) are left alone. */
  since?: string;
  /** Records written at once. */
  concurrency: number;
  /** Told after every record of a phase, with the phase's total as the source counts it. */
  onProgress?: (phase: string, done: number, total: number) => void;
}

export interface TecReport extends ImportReport {
  /** The source's namespace root, which keys its records here. */
  source: string;
}

/** Each list as read: the widest window TEC accepts, past and future events alike. */
const LISTS: Record<ImportedKind, { collection: string; query: Record<string, string> }> = {
  category: { collection: 'categories', query: { per_page: '50', hide_empty: '0' } },
  tag: { collection: 'tags', query: { per_page: '50', hide_empty: '0' } },
  venue: { collection: 'venues', query: { per_page: '50' } },
  organizer: { collection: 'organizers', query: { per_page: '50' } },
  event: {
    collection: 'events',
    query: { per_page: '50', start_date: '1900-01-01 00:00:00', end_date: '2999-12-31 23:59:59' },
  },
};

/**
 * Runs `fn` on every item, at most `limit` at once, except that items sharing `tie` run one after
 * the other in their order: lists order such items by ID, and IDs are handed out as records are
 * written, so written in their order they list here as they do there.
 */
async function eachWritten<T>(
  items: T[],
  limit: number,
  tie: (item: T) => unknown,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  const runs = new Map<unknown, T[]>();
  for (const item of items) runs.set(tie(item), [...(runs.get(tie(item)) ?? []), item]);
  const queue = [...runs.values()];
  let next = 0;
  const worker = async () => {
    while (next < queue.length) for (const item of queue[next++]!) await fn(item);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, queue.length)) }, worker));
}

/**
 * Venues and organizers are created under a name no record holds, then given theirs: `POST`
 * reuses a record of the same name (venues-organizers.md 4.9, VO-11), which would merge two
 * source records that share one. Their slug is the source's (they take no slug input, X 3).
 */
function createLinked(kind: 'venue' | 'organizer', slug: string) {
  return async (trx: Transaction<Database>, ctx: RequestContext, params: Record<string, unknown>) => {
    const placeholder = `${String(params[kind])} \u2063${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
    const created = await callEndpoint(trx, ctx, 'POST', `/${kind}s`, { ...params, [kind]: placeholder });
    const id = (created.body as { id: number }).id;
    await callEndpoint(trx, ctx, 'POST', `/${kind}s/(?P<id>\\d+)`, { [kind]: params[kind] }, { id: String(id) });
    const wanted = sanitizeSlug(slug);
    if (wanted) {
      const unique = await uniqueSlug(trx, kind, wanted, id);
      await trx.updateTable('posts').set({ slug: unique }).where('id', '=', id).execute();
    }
    return id;
  };
}

class TecImport {
  readonly report: TecReport;
  private readonly client: TecClient;
  private local: LocalIds = { category: new Map(), tag: new Map(), venue: new Map(), organizer: new Map() };

  constructor(
    private readonly ctx: RequestContext,
    private readonly options: TecImportOptions,
  ) {
    this.client = new TecClient(options);
    this.report = { ...emptyReport(false), source: '' };
  }

  /** Every item of a list, page after page through `next_rest_url`, handed to `fn` one page at a time. */
  private async eachPage(kind: ImportedKind, fn: (items: SourceRecord[], total: number) => Promise<void>) {
    const { collection, query } = LISTS[kind];
    let url: string | undefined = await this.client.listUrl(collection, query);
    while (url) {
      const page = await this.client.page(url, collection);
      await fn(page.items, page.total);
      url = page.next;
    }
  }

  /** A record already imported and not changed since `--since`: nothing to read into. */
  private async untouchedSince(kind: ImportedKind, item: SourceRecord): Promise<number | undefined> {
    const since = this.options.since;
    const modified = typeof item.modified_utc === 'string' ? item.modified_utc : undefined;
    if (!since || !modified || modified >= since) return undefined;
    const known = await findImported(this.ctx.app.db, {
      source: this.report.source,
      kind,
      source_id: sourceIdOf(item),
    });
    return known?.local_id;
  }

  private async write(
    kind: ImportedKind,
    item: SourceRecord,
    params: Record<string, unknown>,
    options: Parameters<typeof upsertRecord>[3] = {},
  ): Promise<Upserted | undefined> {
    const source_id = sourceIdOf(item);
    const untouched = await this.untouchedSince(kind, item);
    if (untouched !== undefined) {
      record(this.report, { kind, source_id, action: 'unchanged', id: untouched });
      return { action: 'unchanged', id: untouched };
    }
    try {
      const outcome = await upsertRecord(this.ctx, { source: this.report.source, kind, source_id }, params, options);
      record(this.report, { kind, source_id, action: outcome.action, id: outcome.id });
      return outcome;
    } catch (err) {
      if (!(err instanceof RestError) || err.status >= 500) throw err;
      record(this.report, { kind, source_id, action: 'skipped', reason: refusalReason(err) });
      return undefined;
    }
  }

  private progress(phase: string, done: number, total: number): void {
    this.options.onProgress?.(phase, done, total);
  }

  /** Categories parents first, so that each names a parent already here. */
  private async terms(kind: 'category' | 'tag'): Promise<void> {
    const all: SourceRecord[] = [];
    await this.eachPage(kind, async (items) => {
      all.push(...items);
    });
    const pending = new Map(all.map((term) => [sourceIdOf(term), term]));
    let done = 0;
    while (pending.size) {
      const ready = [...pending.values()].filter((term) => {
        const parent = parentOf(term);
        return kind === 'tag' || !parent || !pending.has(parent);
      });
      for (const term of ready) {
        pending.delete(sourceIdOf(term));
        const parent = kind === 'category' ? parentOf(term) : undefined;
        const params = termParams(
          term,
          kind === 'category' ? (parent ? (this.local.category.get(parent) ?? 0) : 0) : undefined,
        );
        const outcome = await this.write(kind, term, params, {
          clearOnUpdate: kind === 'category' ? CATEGORY_CLEARED : TERM_CLEARED,
        });
        if (outcome) this.local[kind].set(sourceIdOf(term), outcome.id);
        this.progress(kind === 'category' ? 'categories' : 'tags', ++done, all.length);
      }
    }
  }

  /**
   * Venues and organizers in the order of their source IDs: their lists are ordered by publication
   * date, then ID (venues-organizers.md 2), so records of one date list here as they do there.
   */
  private async linked(kind: 'venue' | 'organizer'): Promise<void> {
    const all: SourceRecord[] = [];
    await this.eachPage(kind, async (items) => {
      all.push(...items);
    });
    all.sort((a, b) => Number(a.id) - Number(b.id));
    let done = 0;
    await eachWritten(
      all,
      this.options.concurrency,
      (item) => item.date_utc,
      async (item) => {
        const outcome = await this.write(kind, item, linkedParams(kind, item), {
          create: createLinked(kind, typeof item.slug === 'string' ? item.slug : ''),
        });
        if (outcome) this.local[kind].set(sourceIdOf(item), outcome.id);
        this.progress(`${kind}s`, ++done, all.length);
      },
    );
  }

  private async events(): Promise<void> {
    let done = 0;
    await this.eachPage('event', async (items, total) => {
      await eachWritten(
        items,
        this.options.concurrency,
        (item) => item.start_date,
        async (item) => {
          await this.write('event', item, eventParams(item, this.local), { clearOnUpdate: EVENT_CLEARED });
          this.progress('events', ++done, total);
        },
      );
    });
  }

  async run(): Promise<TecReport> {
    this.report.source = `tec:${await this.client.namespaceRoot()}`;
    // What earlier runs imported stays linkable even when this run skips it (`--since`).
    for (const kind of ['category', 'tag', 'venue', 'organizer'] as const)
      this.local[kind] = await importedIds(this.ctx.app.db, this.report.source, kind);
    await this.terms('category');
    await this.terms('tag');
    await this.linked('venue');
    await this.linked('organizer');
    await this.events();
    return this.report;
  }
}

/** Imports a TEC site (or another instance of this service) as `ctx.user`. */
export function importTec(ctx: RequestContext, options: TecImportOptions): Promise<TecReport> {
  return new TecImport(ctx, options).run();
}

/** `--since` as given (a date, or a date and time, in UTC) as the stored UTC wall form. */
export function parseSince(value: string): string | undefined {
  const parsed = DateTime.fromISO(value.trim().replace(' ', 'T'), { zone: 'utc' });
  return parsed.isValid ? parsed.toFormat('yyyy-MM-dd HH:mm:ss') : undefined;
}
