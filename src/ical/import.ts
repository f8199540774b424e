/**
 * Import from iCalendar (RFC 5545): each VEVENT becomes an event, created or updated through
 * `POST /events` (import/upsert.ts) in a transaction of its own, keyed by its `UID` so that
 * importing a file again updates what it imported before. The whole file is checked first
 * (import-lines.ts): a broken file imports nothing.
 */
import { readFile } from 'node:fs/promises';
import ical, { type VEvent } from 'node-ical';
import type { Transaction } from 'kysely';
import type { Database, Trx } from '../db/tables.js';
import { RestError } from '../http/errors.js';
import type { RequestContext } from '../http/route.js';
import { callEndpoint } from '../import/call.js';
import { categoryTaxonomy } from '../resources/terms/index.js';
import { emptyReport, record, refusalReason, type ImportReport } from '../import/report.js';
import { upsertRecord, type Upserted } from '../import/upsert.js';
import { eventParams, type IcsImportOptions } from './import-event.js';
import { checkIcsStructure, IcsSyntaxError, type EventSpan } from './import-lines.js';

export { IcsSyntaxError } from './import-lines.js';

/** The largest file or download an import reads. */
export const MAX_ICS_BYTES = 32 * 1024 * 1024;

/** A file or URL that cannot be read; the message says which and why. */
export class IcsSourceError extends Error {}

/** What an update sends for the properties a VEVENT no longer has, so they are cleared here too. */
const CLEARED = { website: '', venue: [], organizer: [], tags: [], image: '' };

/** A cancelled event (`STATUS:CANCELLED`, RFC 5545 3.8.1.11) goes to the trash, through `DELETE`. */
async function trashCancelled(trx: Transaction<Database>, outcome: Upserted, ctx: RequestContext): Promise<Upserted> {
  const post = await trx.selectFrom('posts').select('status').where('id', '=', outcome.id).executeTakeFirstOrThrow();
  if (post.status === 'trash') return outcome;
  await callEndpoint(trx, ctx, 'DELETE', '/events/(?P<id>\\d+)', {}, { id: String(outcome.id) });
  return outcome;
}

/** Why a VEVENT cannot be imported at all, before it is sent anywhere; `undefined` when it can. */
function skipReason(span: EventSpan, seen: Map<string, number>, event: VEvent | undefined): string | undefined {
  if (!span.uid) return 'the VEVENT has no UID, which an import needs to recognise it next time';
  if (span.occurrence)
    return `a changed occurrence (RECURRENCE-ID) of the recurring event ${span.uid}: recurrence is not supported`;
  const first = seen.get(span.uid);
  if (first !== undefined) return `the UID is used already by the VEVENT of line ${first}`;
  if (!event) return 'the parser found no event with this UID';
  if (event.rrule) return 'a recurring event (RRULE): recurrence is not supported; import its occurrences one by one';
  return undefined;
}

function vevents(text: string): Map<string, VEvent> {
  const parsed = ical.sync.parseICS(text);
  const found = new Map<string, VEvent>();
  for (const component of Object.values(parsed))
    if (component?.type === 'VEVENT' && typeof component.uid === 'string') found.set(component.uid.trim(), component);
  return found;
}

/**
 * Imports every VEVENT of `text` as `ctx.user`. `dryRun`: each write is made and rolled back, so
 * the report says exactly what an import would do. Throws IcsSyntaxError for a broken file.
 */
export async function importIcs(
  ctx: RequestContext,
  text: string,
  options: IcsImportOptions & { dryRun?: boolean },
): Promise<ImportReport> {
  const spans = checkIcsStructure(text);
  let events: Map<string, VEvent>;
  try {
    events = vevents(text);
  } catch (err) {
    throw new IcsSyntaxError(1, `the file cannot be parsed: ${(err as Error).message}`);
  }
  const report = emptyReport(options.dryRun === true);
  const seen = new Map<string, number>();
  for (const span of spans) {
    const event = span.uid ? events.get(span.uid) : undefined;
    const base = { kind: 'event', source_id: span.uid ?? null, line: span.line };
    const reason = skipReason(span, seen, event);
    if (span.uid && !span.occurrence && !seen.has(span.uid)) seen.set(span.uid, span.line);
    if (reason !== undefined || !event) {
      record(report, { ...base, action: 'skipped', reason });
      continue;
    }
    const cancelled = event.status === 'CANCELLED';
    try {
      const outcome = await upsertRecord(
        ctx,
        { source: 'ics', kind: 'event', source_id: span.uid! },
        eventParams(event, options),
        {
          dryRun: options.dryRun,
          clearOnUpdate: CLEARED,
          state: cancelled ? 'cancelled' : undefined,
          after: cancelled ? trashCancelled : undefined,
        },
      );
      const trashed = cancelled && outcome.action !== 'unchanged';
      record(report, { ...base, action: trashed ? 'trashed' : outcome.action, id: outcome.id });
    } catch (err) {
      if (!(err instanceof RestError) || err.status >= 500) throw err;
      record(report, { ...base, action: 'skipped', reason: refusalReason(err) });
    }
  }
  return report;
}

/** The category an import puts its events in, by slug; `undefined` when there is none. */
export async function findCategoryIdBySlug(db: Trx, slug: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', categoryTaxonomy.name)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row?.id;
}

/** Downloads a calendar (`webcal:` is read over `https:`). */
export async function fetchIcs(url: string): Promise<string> {
  const target = url.replace(/^webcal:/i, 'https:');
  let response: Response;
  try {
    response = await fetch(target, {
      headers: { accept: 'text/calendar, */*;q=0.5' },
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    throw new IcsSourceError(`cannot download ${url}: ${(err as Error).message}`);
  }
  if (!response.ok) throw new IcsSourceError(`cannot download ${url}: HTTP ${response.status} ${response.statusText}`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_ICS_BYTES) throw new IcsSourceError(`${url} is larger than ${MAX_ICS_BYTES} bytes`);
  const text = await response.text();
  if (Buffer.byteLength(text) > MAX_ICS_BYTES) throw new IcsSourceError(`${url} is larger than ${MAX_ICS_BYTES} bytes`);
  return text;
}

/** A file path, or an `http:`, `https:` or `webcal:` URL. */
export async function readIcs(fileOrUrl: string): Promise<string> {
  if (/^(https?|webcal):\/\//i.test(fileOrUrl)) return fetchIcs(fileOrUrl);
  try {
    return await readFile(fileOrUrl, 'utf8');
  } catch (err) {
    throw new IcsSourceError(`cannot read ${fileOrUrl}: ${(err as Error).message}`);
  }
}
