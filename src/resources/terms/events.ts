import { countTag, termTag } from '../../db/cache-tags.js';
import { paddedIds } from '../../db/id-lists.js';
import { preparedInsert, preparedQuery, slotItems } from '../../db/prepared.js';
import type { Trx } from '../../db/tables.js';
import { parseList } from '../../http/args.js';
import { RestError } from '../../http/errors.js';
import { Valid, type RequestContext, type Validation } from '../../http/route.js';
import { lookupTermRefs, refExists, toTermRef, type TermRef } from './refs.js';
import { normalizeTermRow, publishedCount, withDescendants } from './repository.js';
import { representEmbeddedTerm } from './representation.js';
import type { Taxonomy } from './taxonomy.js';
import { TERM_NAME_MAX_LENGTH } from './text.js';
import { addTerm } from './write.js';

/** Categories and tags as events use them: list filters, input on writes, embedding (terms.md 8). */

function refsOf(value: unknown, signed: boolean): Array<TermRef | null> | undefined {
  return parseList(value)?.map((entry) => toTermRef(entry, signed));
}

/**
 * Validator of the events-list `categories` / `tags` filters (terms.md 8.3): a non-empty list whose
 * every entry names an existing term of the taxonomy (numeric entries by ID, others by slug or name).
 * It hands on the term IDs the filter matches: each entry as a slug, then as an ID, then as an exact
 * name (events.md E32); categories with all their descendants. Events carrying any of them match.
 */
export async function resolveTermFilter(
  tax: Taxonomy,
  value: unknown,
  ctx: RequestContext,
): Promise<Validation | Valid<number[]>> {
  const refs = refsOf(value, false);
  if (!refs?.length || refs.some((r) => r === null)) return false;
  const db = ctx.app.db;
  const found = await lookupTermRefs(db, tax, refs as TermRef[]);
  if (!(refs as TermRef[]).every((r) => refExists(r, found))) return false;
  const ids = new Set<number>();
  for (const ref of refs as TermRef[]) {
    const term =
      found.bySlug.get(ref.slug) ??
      (ref.id !== undefined ? found.byId.get(ref.id) : undefined) ??
      found.byName.get(ref.name);
    if (term) ids.add(term.id);
  }
  return new Valid(tax.hierarchical ? await withDescendants(db, [...ids]) : [...ids]);
}

/** Entries of event input: an array, or one comma-separated string (terms.md 8.2). */
function inputEntries(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(',');
  return [value];
}

/**
 * The term IDs named by event input, in the given order without duplicates (terms.md 8.2): numeric
 * entries by ID (unknown IDs skipped); others by slug, then name, else a new top-level term is
 * created in `trx` (a name that cannot be stored is skipped). Call it only when the field was sent
 * and is not `null`; `""` and `[]` give `[]`, which clears the event's terms.
 */
export async function resolveTermInput(
  trx: Trx,
  tax: Taxonomy,
  value: unknown,
  ctx: RequestContext,
): Promise<number[]> {
  const refs = inputEntries(value)
    .map((entry) => toTermRef(entry, true))
    .filter((r): r is TermRef => r !== null);
  const found = await lookupTermRefs(trx, tax, refs, false);
  const ids: number[] = [];
  for (const ref of refs) {
    let id: number | undefined;
    if (ref.id !== undefined) id = found.byId.get(ref.id)?.id;
    else {
      id = (found.bySlug.get(ref.slug) ?? found.byName.get(ref.name))?.id;
      if (id === undefined) {
        id = await createNamed(trx, tax, ref, ctx);
        // The same name again in this input (any letter case) reuses the new term.
        if (id !== undefined) found.byName.set(ref.name, { id, slug: ref.slug, name: ref.name });
      }
    }
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * Auto-creation from an event write; a failed creation skips the entry (terms.md 8.2). A term of
 * that name made meanwhile by a concurrent write (`term_exists`, found once its name lock is held)
 * is the term the entry names.
 */
async function createNamed(trx: Trx, tax: Taxonomy, ref: TermRef, ctx: RequestContext): Promise<number | undefined> {
  if (ref.name.length > TERM_NAME_MAX_LENGTH) return undefined;
  try {
    return await addTerm(trx, tax, { name: ref.text }, ctx);
  } catch (err) {
    if (err instanceof RestError && err.code === 'term_exists') return Number(err.extra?.term_id);
    if (err instanceof RestError) return undefined;
    throw err;
  }
}

/**
 * Replaces the event's terms of the taxonomy with `ids`, keeping their order as assignment order.
 * `created`: the event was inserted in this transaction, so it has no terms to remove.
 */
export async function setEventTerms(
  trx: Trx,
  tax: Taxonomy,
  eventId: number,
  ids: number[],
  created = false,
): Promise<void> {
  if (!created) {
    await trx
      .deleteFrom('event_terms')
      .where('event_id', '=', eventId)
      .where('term_id', 'in', (eb) => eb.selectFrom('terms').select('terms.id').where('terms.taxonomy', '=', tax.name))
      .execute();
  }
  const unique = [...new Set(ids)];
  if (unique.length)
    await insertEventTerms(
      trx,
      unique.map((termId, position) => ({ event_id: eventId, term_id: termId, position })),
    );
}

const insertEventTerms = preparedInsert('event_terms');

/**
 * The terms of the taxonomies carried by each of the events, with `event_id`, by name
 * case-insensitively. The events' links drive, each term read by its key (SQLite keeps the order
 * of a CROSS JOIN): driven by the terms, SQLite looks up every term of the taxonomy for every event.
 * An event's links of every taxonomy sit together under its key, so one query reads them all once.
 */
export function termsOfEventsQuery(trx: Trx, taxonomyNames: readonly string[], eventIds: readonly number[]) {
  return trx
    .selectFrom('event_terms')
    .crossJoin('terms')
    .whereRef('terms.id', '=', 'event_terms.term_id')
    .select([
      'event_terms.event_id',
      'terms.id',
      'terms.taxonomy',
      'terms.name',
      'terms.slug',
      'terms.description',
      'terms.parent',
    ])
    .select(publishedCount('terms').as('count'))
    .where('event_terms.event_id', 'in', eventIds)
    .where('terms.taxonomy', 'in', taxonomyNames)
    .orderBy((eb) => eb.fn('lower', ['terms.name']))
    .orderBy('terms.id');
}

/** termsOfEventsQuery prepared; the shape is the number of (padded) IDs and the taxonomies' names. */
const termsOfEvents = preparedQuery((trx, v: { ids: number[] }, shape: string) => {
  const [size, names] = shape.split(':') as [string, string];
  return termsOfEventsQuery(trx, names.split(','), slotItems(v.ids, Number(size)));
});

/**
 * The embedded terms of each event (events.md 1.6), sorted by name case-insensitively, one map per
 * taxonomy in the order given, from one query. Every requested event gets an entry, `[]` when it
 * has no term of the taxonomy.
 */
export async function loadTermsForEvents(
  trx: Trx,
  taxonomies: readonly Taxonomy[],
  eventIds: number[],
  ctx: Pick<RequestContext, 'urls' | 'readFrom'>,
): Promise<Array<Map<number, object[]>>> {
  const out = taxonomies.map(() => new Map<number, object[]>(eventIds.map((id) => [id, []])));
  if (!eventIds.length || !taxonomies.length) return out;
  const ids = paddedIds(eventIds);
  const rows = await termsOfEvents(trx, { ids }, `${ids.length}:${taxonomies.map((tax) => tax.name).join(',')}`);
  for (const { event_id, ...row } of rows) {
    ctx.readFrom?.add(termTag(row.id)).add(countTag(row.id));
    const index = taxonomies.findIndex((tax) => tax.name === row.taxonomy);
    out[index]?.get(Number(event_id))?.push(representEmbeddedTerm(taxonomies[index]!, normalizeTermRow(row), ctx.urls));
  }
  return out;
}
