import type { Trx } from '../../db/tables.js';
import type { Taxonomy } from './taxonomy.js';

/** A term as its public archive names it. */
export interface ArchiveTerm {
  id: number;
  slug: string;
  name: string;
}

const termColumns = ['id', 'slug', 'name', 'parent'] as const;

/**
 * The term a public archive path names (terms.md 1.6), given its slugs, percent-decoded and
 * normalized: a tag by its slug; a category by its chain `{root-ancestor}/…/{parent}/{slug}`, the
 * last slug naming the category and the others its ancestors, outermost first, as in its `url`.
 */
export async function findArchiveTerm(trx: Trx, tax: Taxonomy, slugs: string[]): Promise<ArchiveTerm | undefined> {
  if (!slugs.length || slugs.some((slug) => !slug) || (!tax.hierarchical && slugs.length > 1)) return undefined;
  const term = await trx
    .selectFrom('terms')
    .select(termColumns)
    .where('taxonomy', '=', tax.name)
    .where('slug', '=', slugs[slugs.length - 1]!)
    .executeTakeFirst();
  let link = term;
  for (let i = slugs.length - 2; link && i >= 0; i--) {
    if (!link.parent) return undefined;
    link = await trx.selectFrom('terms').select(termColumns).where('id', '=', link.parent).executeTakeFirst();
    if (link?.slug !== slugs[i]) return undefined;
  }
  return term && link && !link.parent ? { id: term.id, slug: term.slug, name: term.name } : undefined;
}
