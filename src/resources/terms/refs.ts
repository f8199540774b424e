import type { Trx } from '../../db/tables.js';
import { sanitizeSlug } from '../../text/slug.js';
import { findTermsByRefs, type TermRefRow } from './repository.js';
import type { Taxonomy } from './taxonomy.js';
import { sanitizeTermName } from './text.js';

/**
 * One entry of a list naming terms (`include`, `exclude`, the events filters and event input):
 * its ID when numeric, and the slug and name it would match as text.
 */
export interface TermRef {
  id?: number;
  slug: string;
  /** Lower-cased stored form of the entry as a name. */
  name: string;
  /** The entry as given, trimmed. */
  text: string;
}

/**
 * A ref from a list entry, `null` when the entry is not usable. `signed`: event input reads `-12`
 * as 12 (terms.md 8.2); elsewhere only unsigned digits are IDs.
 */
export function toTermRef(entry: unknown, signed = false): TermRef | null {
  if (typeof entry === 'number') {
    if (!Number.isInteger(entry)) return null;
    const text = String(entry);
    return { id: signed ? Math.abs(entry) : entry, slug: sanitizeSlug(text), name: text, text };
  }
  if (typeof entry !== 'string') return null;
  const text = entry.trim();
  if (text === '') return null;
  const ref: TermRef = { slug: sanitizeSlug(text), name: sanitizeTermName(text).toLowerCase(), text };
  if ((signed ? /^[+-]?\d+$/ : /^\d+$/).test(text)) ref.id = Math.abs(Number(text));
  return ref;
}

/** The terms of a taxonomy matching refs, indexed by ID, slug and lower-cased name. */
export interface FoundTerms {
  byId: Map<number, TermRefRow>;
  bySlug: Map<string, TermRefRow>;
  byName: Map<string, TermRefRow>;
}

/**
 * Looks every ref up in one query (style.md rule 5). `numbersAsText`: a numeric entry is also
 * looked up as a slug and a name (filters); event input reads it as an ID only.
 */
export async function lookupTermRefs(
  trx: Trx,
  tax: Taxonomy,
  refs: TermRef[],
  numbersAsText = true,
): Promise<FoundTerms> {
  const texts = numbersAsText ? refs : refs.filter((r) => r.id === undefined);
  const rows = await findTermsByRefs(trx, tax, {
    ids: refs.flatMap((r) => (r.id !== undefined ? [r.id] : [])),
    slugs: texts.map((r) => r.slug),
    names: texts.map((r) => r.name),
  });
  const found: FoundTerms = { byId: new Map(), bySlug: new Map(), byName: new Map() };
  for (const row of rows) {
    found.byId.set(row.id, row);
    found.bySlug.set(row.slug, row);
    const name = row.name.toLowerCase();
    // Rows come by ascending ID: the oldest term wins a shared name.
    if (!found.byName.has(name)) found.byName.set(name, row);
  }
  return found;
}

/**
 * Whether the ref names an existing term the way the reference's validators check it: a numeric
 * entry by ID, any other by slug or name (terms.md 3.1 `include`/`exclude`, 8.3).
 */
export function refExists(ref: TermRef, found: FoundTerms): boolean {
  if (ref.id !== undefined) return found.byId.has(ref.id);
  return found.bySlug.has(ref.slug) || (ref.name !== '' && found.byName.has(ref.name));
}
