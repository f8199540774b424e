import type { Urls } from '../../http/route.js';
import type { TermLink, TermRow } from './repository.js';
import type { Taxonomy } from './taxonomy.js';

/** `urls` of a term: self, collection and, for child categories, up (terms.md 1.2). */
function termUrls(tax: Taxonomy, term: TermRow, urls: Urls): Record<string, string> {
  const collection = `${urls.root}/${tax.collection}`;
  const out: Record<string, string> = { self: `${collection}/${term.id}`, collection };
  if (term.parent) out.up = `${collection}/${term.parent}`;
  return out;
}

/**
 * Public archive URL: categories carry every ancestor's slug, outermost first (terms.md 1.6, O2).
 * `ancestors` holds at least the term's ancestors.
 */
export function termUrl(tax: Taxonomy, term: TermRow, ancestors: Map<number, TermLink>, urls: Urls): string {
  const chain = [term.slug];
  let at = term.parent;
  for (let guard = 0; at !== 0 && guard <= ancestors.size; guard++) {
    const link = ancestors.get(at);
    if (!link) break;
    chain.unshift(link.slug);
    at = link.parent;
  }
  return `${urls.site}/${tax.archivePath}/${chain.join('/')}/`;
}

/**
 * A term on the term routes, in TEC's key order (terms.md 1.2); `_links` only on single reads and
 * writes (1.4, decisions.md X 28).
 */
export function representTerm(
  tax: Taxonomy,
  term: TermRow,
  ancestors: Map<number, TermLink>,
  urls: Urls,
  withLinks: boolean,
): Record<string, unknown> {
  const links = termUrls(tax, term, urls);
  const out: Record<string, unknown> = {
    id: term.id,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: tax.name,
  };
  if (tax.hierarchical) out.parent = term.parent;
  out.meta = [];
  out.url = termUrl(tax, term, ancestors, urls);
  out.urls = links;
  if (withLinks) {
    out._links = {
      self: [{ href: links.self }],
      collection: [{ href: links.collection }],
      ...(links.up ? { up: [{ embeddable: true, href: links.up }] } : {}),
    };
  }
  return out;
}

/** A term inside an event: the raw stored shape plus `id` and `urls` (events.md 1.6, terms.md 8.1, O5). */
export function representEmbeddedTerm(tax: Taxonomy, term: TermRow, urls: Urls): Record<string, unknown> {
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: tax.name,
    description: term.description,
    parent: term.parent,
    count: term.count,
    filter: 'raw',
    id: term.id,
    urls: termUrls(tax, term, urls),
  };
}
