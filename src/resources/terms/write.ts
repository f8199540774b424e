import { lockNames } from '../../db/name-locks.js';
import type { Trx } from '../../db/tables.js';
import { restErrors } from '../../http/errors.js';
import type { RequestContext } from '../../http/route.js';
import { sanitizeSlug } from '../../text/slug.js';
import {
  assertNoDuplicateName,
  insertTerm,
  slugTakenByOther,
  uniqueTermSlug,
  updateTermRow,
  type NewTerm,
  type TermRow,
} from './repository.js';
import type { Taxonomy } from './taxonomy.js';
import { sanitizeTermDescription, sanitizeTermName } from './text.js';

type Sanitizing = Pick<RequestContext, 'user' | 'settings'>;

export interface TermInput {
  name: string;
  description?: string;
  slug?: string;
  parent?: number;
}

/**
 * What a term write decides by reading (db/name-locks.ts): whether the name is taken in the
 * taxonomy (any letter case), and whether the slug is, in either taxonomy (unique slugs look at both).
 */
function termNameLocks(tax: Taxonomy, name: string, slug: string): string[] {
  return [`term-name:${tax.name}:${name.toLowerCase()}`, ...(slug ? [`term-slug:${slug}`] : [])];
}

/** A stored name, or 400 `empty_term_name` when nothing is left after sanitation (terms.md 5.1, O8). */
function storedName(name: string): string {
  const stored = sanitizeTermName(name);
  if (!stored) throw restErrors.emptyTermName();
  return stored;
}

/**
 * Creates a term (terms.md 5): sanitized name, `term_exists` on duplicate names (5.3), a unique
 * slug (5.4). Used by the create route and by event writes naming unknown terms (8.2).
 */
export async function addTerm(trx: Trx, tax: Taxonomy, input: TermInput, ctx: Sanitizing): Promise<number> {
  const name = storedName(input.name);
  const supplied = input.slug !== undefined ? sanitizeSlug(input.slug) : '';
  const slug = supplied || sanitizeSlug(name);
  const parent = tax.hierarchical ? (input.parent ?? 0) : 0;
  await lockNames(trx, termNameLocks(tax, name, slug));
  await assertNoDuplicateName(trx, tax, name, slug, supplied !== '', parent);
  return insertTerm(trx, tax, {
    name,
    slug: slug && (await uniqueTermSlug(trx, tax, slug, parent)),
    description: input.description !== undefined ? sanitizeTermDescription(input.description, ctx) : '',
    parent,
  });
}

export interface TermChanges {
  name?: string;
  /** `null` clears (decisions.md O9, principle 3). */
  description?: string | null;
  slug?: string;
  /** `0` or `null` moves a category to the top level (O9). */
  parent?: number | null;
}

/** Applies a partial update (terms.md 6): only what the request names changes. */
export async function changeTerm(
  trx: Trx,
  tax: Taxonomy,
  term: TermRow,
  input: TermChanges,
  ctx: Sanitizing,
): Promise<void> {
  const changes: Partial<NewTerm> = {};
  if (input.name !== undefined) changes.name = storedName(input.name);
  if (input.slug !== undefined)
    await lockNames(trx, termNameLocks(tax, changes.name ?? term.name, sanitizeSlug(input.slug)));
  if (input.description !== undefined)
    changes.description = input.description === null ? '' : sanitizeTermDescription(input.description, ctx);
  const parent = tax.hierarchical && input.parent !== undefined ? (input.parent ?? 0) : term.parent;
  if (parent !== term.parent) changes.parent = parent;
  if (input.slug !== undefined) {
    const wanted = sanitizeSlug(input.slug);
    if (!wanted) {
      // A slug that sanitizes to nothing is regenerated from the (new or current) name (6.3).
      const base = sanitizeSlug(changes.name ?? term.name) || String(term.id);
      changes.slug = await uniqueTermSlug(trx, tax, base, parent, term.id);
    } else if (wanted !== term.slug && (await slugTakenByOther(trx, tax, wanted, term.id))) {
      if (parent === term.parent) throw restErrors.duplicateTermSlug(wanted);
      changes.slug = await uniqueTermSlug(trx, tax, wanted, parent, term.id);
    } else {
      changes.slug = wanted;
    }
  }
  await updateTermRow(trx, term.id, changes);
}
