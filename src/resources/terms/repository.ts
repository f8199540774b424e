import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { preparedQuery, slotItems } from '../../db/prepared.js';
import type { Database, Trx } from '../../db/tables.js';
import { restErrors } from '../../http/errors.js';
import { isRecordId } from '../post-like/ids.js';
import type { Taxonomy } from './taxonomy.js';

/** A stored term with its `count` of published events (terms.md 1.1, 1.5). */
export interface TermRow {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
}

/** Slug and parent of a term, enough to build ancestor chains (terms.md 1.6). */
export interface TermLink {
  slug: string;
  parent: number;
}

/**
 * `count` (terms.md 1.5): the published events carrying the term, stored in `terms.event_count`
 * and kept current by triggers on every write (migration 04). Never computed in JavaScript.
 */
export function publishedCount(alias: string): RawBuilder<number> {
  return sql<number>`${sql.ref(`${alias}.event_count`)}`;
}

/** The term carries at least one published event. */
function hasPublishedEvent(alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.event_count`)} > 0`;
}

const termColumns = [
  'terms.id',
  'terms.taxonomy',
  'terms.name',
  'terms.slug',
  'terms.description',
  'terms.parent',
] as const;

function selectTerms(trx: Trx, tax: Taxonomy) {
  return trx
    .selectFrom('terms')
    .select(termColumns)
    .select(publishedCount('terms').as('count'))
    .where('terms.taxonomy', '=', tax.name);
}

/** A term row with its numeric columns read as numbers. */
export function normalizeTermRow(row: TermRow): TermRow {
  return { ...row, id: Number(row.id), parent: Number(row.parent), count: Number(row.count) };
}

export async function findTermById(trx: Trx, tax: Taxonomy, id: number): Promise<TermRow | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await selectTerms(trx, tax).where('terms.id', '=', id).executeTakeFirst();
  return row && normalizeTermRow(row);
}

/** The term, or the reference's answer for an unknown ID: 400 `rest_invalid_param` on `id` (terms.md 4). */
export async function getTermById(trx: Trx, tax: Taxonomy, id: number): Promise<TermRow> {
  const row = await findTermById(trx, tax, id);
  if (!row) throw restErrors.invalidParam('id');
  return row;
}

/** Slug and parent of the given terms and all their ancestors, in one recursive query. */
export async function loadAncestors(trx: Trx, ids: number[]): Promise<Map<number, TermLink>> {
  const out = new Map<number, TermLink>();
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (!wanted.length) return out;
  const { rows } = await sql<{ id: number; slug: string; parent: number }>`
    with recursive anc(id, slug, parent) as (
      select id, slug, parent from terms where id in (${sql.join(wanted)})
      union
      select t.id, t.slug, t.parent from terms t join anc a on t.id = a.parent
    )
    select id, slug, parent from anc`.execute(trx);
  for (const r of rows) out.set(Number(r.id), { slug: r.slug, parent: Number(r.parent) });
  return out;
}

/** `candidate` is `id` itself or one of its descendants (terms.md O9). */
export async function isSelfOrDescendant(trx: Trx, id: number, candidate: number): Promise<boolean> {
  if (candidate === id) return true;
  const chain = await loadAncestors(trx, [candidate]);
  let at = chain.get(candidate)?.parent ?? 0;
  for (let guard = 0; at !== 0 && guard <= chain.size; guard++) {
    if (at === id) return true;
    at = chain.get(at)?.parent ?? 0;
  }
  return false;
}

/** Terms matched by references: IDs, and for text entries slugs (already sanitized) or names. */
export interface TermRefs {
  ids: number[];
  slugs: string[];
  names: string[];
}

export interface TermRefRow {
  id: number;
  slug: string;
  name: string;
}

/** Every term of the taxonomy matching any of the references, in one query. */
export async function findTermsByRefs(trx: Trx, tax: Taxonomy, refs: TermRefs): Promise<TermRefRow[]> {
  const ids = [...new Set(refs.ids.filter(isRecordId))];
  const slugs = [...new Set(refs.slugs.filter(Boolean))];
  const names = [...new Set(refs.names.map((n) => n.toLowerCase()).filter(Boolean))];
  if (!ids.length && !slugs.length && !names.length) return [];
  const rows = await termsByRefs(
    trx,
    { taxonomy: tax.name, ids, slugs, names },
    `${ids.length}:${slugs.length}:${names.length}`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The query of findTermsByRefs; the shape is the length of each list. */
const termsByRefs = preparedQuery(
  (trx, v: { taxonomy: string; ids: number[]; slugs: string[]; names: string[] }, shape: string) => {
    const [ids, slugs, names] = shape.split(':').map(Number) as [number, number, number];
    return trx
      .selectFrom('terms')
      .select(['id', 'slug', 'name'])
      .where('taxonomy', '=', v.taxonomy)
      .where((eb) =>
        eb.or([
          ...(ids ? [eb('id', 'in', slotItems(v.ids, ids))] : []),
          ...(slugs ? [eb('slug', 'in', slotItems(v.slugs, slugs))] : []),
          ...(names ? [eb(sql`lower(name)`, 'in', slotItems(v.names, names))] : []),
        ]),
      )
      .orderBy('id');
  },
);

/** The given categories and all their descendants (terms.md 8.3: a parent filter includes children). */
export async function withDescendants(trx: Trx, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const { rows } = await sql<{ id: number }>`
    with recursive d(id) as (
      select id from terms where id in (${sql.join(ids)})
      union
      select t.id from terms t join d on t.parent = d.id
    )
    select id from d`.execute(trx);
  return rows.map((r) => Number(r.id));
}

// ---------------------------------------------------------------------------------------------
// Lists

/** The filters of a term list after validation (terms.md 3.1). */
export interface TermFilter {
  search?: string;
  /** Numeric entries of `exclude`; ignored when `include` is given. */
  exclude?: number[];
  /** Numeric entries of `include`; an empty array (only slugs/names given) selects nothing. */
  include?: number[];
  hideEmpty: boolean;
  parent?: number;
  eventId?: number;
  slug?: string;
}

/** `%`, `_` and the escape character itself are literal in `search` (terms.md 3.1). */
function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/**
 * Categories shown by `hide_empty`: those with published events and every ancestor of one
 * (terms.md 3.2), as one recursive subquery.
 */
function shownCategories(tax: Taxonomy): RawBuilder<SqlBool> {
  return sql<SqlBool>`terms.id in (
    with recursive shown(id) as (
      select s_t.id from terms s_t where s_t.taxonomy = ${tax.name} and ${hasPublishedEvent('s_t')}
      union
      select p_t.parent from terms p_t join shown on p_t.id = shown.id where p_t.parent <> 0
    )
    select id from shown)`;
}

/** One `where` for a list's page and its total (style.md rule 6). */
export function termWhere(tax: Taxonomy, f: TermFilter) {
  return (eb: ExpressionBuilder<Database, 'terms'>): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [eb('terms.taxonomy', '=', tax.name)];
    if (f.search !== undefined) {
      const pattern = likeContains(f.search);
      all.push(
        sql<SqlBool>`(lower(terms.name) like ${pattern} escape '!' or lower(terms.slug) like ${pattern} escape '!')`,
      );
    }
    if (f.include !== undefined) {
      all.push(f.include.length ? eb('terms.id', 'in', f.include) : sql<SqlBool>`1 = 0`);
    } else if (f.exclude?.length) {
      all.push(eb('terms.id', 'not in', f.exclude));
    }
    if (f.parent !== undefined) all.push(eb('terms.parent', '=', f.parent));
    if (f.slug !== undefined) all.push(eb('terms.slug', '=', f.slug));
    if (f.eventId !== undefined) {
      all.push(
        eb(
          'terms.id',
          'in',
          eb.selectFrom('event_terms').select('event_terms.term_id').where('event_terms.event_id', '=', f.eventId),
        ),
      );
    } else if (f.hideEmpty) {
      // Terms of one event are listed whatever their count (terms.md 3.2).
      all.push(tax.hierarchical ? shownCategories(tax) : hasPublishedEvent('terms'));
    }
    return eb.and(all);
  };
}

/** Sort keys of `orderby` (terms.md 3.3); anything unknown sorts by name. */
function sortKey(orderby: string, f: TermFilter): RawBuilder<unknown> | null {
  switch (orderby.toLowerCase()) {
    case 'slug':
      return sql`terms.slug`;
    case 'id':
    case 'term_id':
    case 'term_taxonomy_id':
      return sql`terms.id`;
    case 'count':
      return publishedCount('terms');
    case 'description':
      return sql`lower(terms.description)`;
    case 'parent':
      return sql`terms.parent`;
    // Constant columns and `none`: only the ID tie-breaker orders (terms.md O10).
    case 'term_group':
    case 'taxonomy':
    case 'none':
      return null;
    case 'include':
      if (f.include?.length) {
        return sql`case terms.id ${sql.join(
          f.include.map((id, i) => sql`when ${id} then ${sql.lit(i)}`),
          sql` `,
        )} else ${sql.lit(f.include.length)} end`;
      }
      return sql`lower(terms.name)`;
    case 'term_order':
      // With an event: the order in which its terms were assigned; otherwise the term ID.
      return f.eventId !== undefined
        ? sql`(select o_et.position from event_terms o_et where o_et.event_id = ${f.eventId} and o_et.term_id = terms.id)`
        : sql`terms.id`;
    default:
      return sql`lower(terms.name)`;
  }
}

export interface TermPageQuery {
  filter: TermFilter;
  orderby: string;
  descending: boolean;
  limit: number;
  offset: number;
}

/** One page of a term list, ordered by the key then by ID ascending (terms.md O10). */
export async function listTermRows(trx: Trx, tax: Taxonomy, q: TermPageQuery): Promise<TermRow[]> {
  let query = trx
    .selectFrom('terms')
    .select(termColumns)
    .select(publishedCount('terms').as('count'))
    .where(termWhere(tax, q.filter));
  const key = sortKey(q.orderby, q.filter);
  if (key) query = query.orderBy(key, q.descending ? 'desc' : 'asc');
  const rows = await query.orderBy('terms.id', 'asc').limit(q.limit).offset(q.offset).execute();
  return rows.map(normalizeTermRow);
}

/** The number of terms the same filter matches over all pages. */
export async function countTerms(trx: Trx, tax: Taxonomy, filter: TermFilter): Promise<number> {
  const row = await trx
    .selectFrom('terms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(termWhere(tax, filter))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------------------------------------
// Writes

/** A term of the taxonomy with the same parent whose name matches, ignoring letter case (terms.md 5.3). */
async function findSiblingsByName(trx: Trx, tax: Taxonomy, name: string, parent: number) {
  return trx
    .selectFrom('terms')
    .select(['id', 'name', 'slug', 'parent'])
    .where('taxonomy', '=', tax.name)
    .where('parent', '=', parent)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .orderBy('id')
    .execute();
}

async function findBySlug(trx: Trx, tax: Taxonomy, slug: string, exceptId = 0) {
  return trx
    .selectFrom('terms')
    .select(['id', 'parent'])
    .where('taxonomy', '=', tax.name)
    .where('slug', '=', slug)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
}

/**
 * Rejects a new term that duplicates a name (terms.md 5.3) with `term_exists` naming the
 * existing term. `slug` is S: the sanitized supplied slug, or the slug generated from the name.
 */
export async function assertNoDuplicateName(
  trx: Trx,
  tax: Taxonomy,
  name: string,
  slug: string,
  slugSupplied: boolean,
  parent: number,
): Promise<void> {
  const siblings = await findSiblingsByName(trx, tax, name, parent);
  const match = siblings[0];
  if (!match) return;
  const holder = slug ? await findBySlug(trx, tax, slug) : undefined;
  if (slugSupplied && slug !== match.slug && !holder) return;
  if (!tax.hierarchical) throw restErrors.termExists(false, Number(match.id));
  if (!slugSupplied || slug === match.slug) {
    const exact = siblings.find((s) => s.name === name);
    if (exact) throw restErrors.termExists(true, Number(exact.id));
  }
  if (holder && Number(holder.parent) === parent) throw restErrors.termExists(true, Number(holder.id));
}

/** Whether any term of either taxonomy (other than `exceptId`) has the slug, or also the name. */
async function slugOrNameUsed(trx: Trx, candidate: string, withNames: boolean, exceptId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('terms')
    .select('id')
    .where('id', '<>', exceptId)
    .where((eb) =>
      withNames ? eb.or([eb('slug', '=', candidate), eb('name', '=', candidate)]) : eb('slug', '=', candidate),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * WordPress's unique term slug (terms.md 5.4): the slug itself when free in the taxonomy; for a
 * child category the ancestors' slugs appended one by one; then `-2`, `-3`, ….
 */
export async function uniqueTermSlug(
  trx: Trx,
  tax: Taxonomy,
  slug: string,
  parent: number,
  exceptId = 0,
): Promise<string> {
  if (!(await findBySlug(trx, tax, slug, exceptId))) return slug;
  let candidate = slug;
  if (tax.hierarchical && parent) {
    const chain = await loadAncestors(trx, [parent]);
    let at = parent;
    for (let guard = 0; at !== 0 && guard <= chain.size; guard++) {
      const link = chain.get(at);
      if (!link) break;
      candidate = `${candidate}-${link.slug}`;
      if (!(await slugOrNameUsed(trx, candidate, true, exceptId))) return candidate;
      at = link.parent;
    }
  }
  if (!(await slugOrNameUsed(trx, candidate, false, exceptId))) return candidate;
  const taken = new Set(
    (
      await trx
        .selectFrom('terms')
        .select('slug')
        .where('id', '<>', exceptId)
        .where(sql<SqlBool>`slug like ${`${candidate.replace(/[!%_]/g, (c) => `!${c}`)}-%`} escape '!'`)
        .execute()
    ).map((r) => r.slug),
  );
  let n = 2;
  while (taken.has(`${candidate}-${n}`)) n++;
  return `${candidate}-${n}`;
}

export interface NewTerm {
  name: string;
  slug: string;
  description: string;
  parent: number;
}

/** Inserts a term; an empty slug becomes the term's ID (terms.md 1.7). */
export async function insertTerm(trx: Trx, tax: Taxonomy, term: NewTerm): Promise<number> {
  // A placeholder that no sanitized slug can equal (sanitized slugs have no spaces) keeps the
  // (taxonomy, slug) index satisfied until the ID is known.
  const placeholder = term.slug || `pending ${Date.now()} ${Math.random()}`;
  const row = await trx
    .insertInto('terms')
    .values({
      taxonomy: tax.name,
      name: term.name,
      slug: placeholder,
      description: term.description,
      parent: term.parent,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  if (!term.slug) {
    const slug = await uniqueTermSlug(trx, tax, String(id), term.parent, id);
    await trx.updateTable('terms').set({ slug }).where('id', '=', id).execute();
  }
  return id;
}

export async function updateTermRow(trx: Trx, id: number, changes: Partial<NewTerm>): Promise<void> {
  if (Object.keys(changes).length) await trx.updateTable('terms').set(changes).where('id', '=', id).execute();
}

/** Another term of the taxonomy already uses the slug (terms.md 6.3). */
export async function slugTakenByOther(trx: Trx, tax: Taxonomy, slug: string, id: number): Promise<boolean> {
  return (await findBySlug(trx, tax, slug, id)) !== undefined;
}

/**
 * Deletes a term permanently: events lose it, direct children move to its parent (terms.md 7).
 */
export async function deleteTermRow(trx: Trx, tax: Taxonomy, term: TermRow): Promise<void> {
  if (tax.hierarchical) {
    await trx
      .updateTable('terms')
      .set({ parent: term.parent })
      .where('taxonomy', '=', tax.name)
      .where('parent', '=', term.id)
      .execute();
  }
  await trx.deleteFrom('event_terms').where('term_id', '=', term.id).execute();
  await trx.deleteFrom('terms').where('id', '=', term.id).execute();
}
