import { Type } from '@sinclair/typebox';
import { termListJson } from '../../http/pagination.js';
import { LinkList, int, str, strict } from '../../http/schemas.js';

/** Wire formats of categories and tags, alone and inside an event (terms.md 1.2, events.md 1.6). */

const TermUrls = Type.Object(
  {
    self: str('REST URL of the term.'),
    collection: str('REST URL of the term collection.'),
    up: Type.Optional(str('REST URL of the parent category.')),
  },
  { ...strict, description: 'REST URLs of the term.' },
);

const Taxonomy = Type.Union([Type.Literal('tribe_events_cat'), Type.Literal('post_tag')], {
  description: 'Taxonomy: tribe_events_cat for categories, post_tag for tags.',
});

/** A category or tag as the term routes return it (terms.md 1.2). */
export const TermJson = Type.Object(
  {
    id: int('Term ID.'),
    count: int('Number of published events carrying the term.'),
    description: str('Term description (HTML).'),
    name: str('Term name.'),
    slug: str('Term slug.'),
    taxonomy: Taxonomy,
    parent: Type.Optional(int('Parent category ID, 0 at the top level (categories only).')),
    meta: Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty.' }),
    url: str('Public archive URL of the term.'),
    urls: TermUrls,
    _links: Type.Optional(
      Type.Object(
        { self: LinkList, collection: LinkList, up: Type.Optional(LinkList) },
        { ...strict, description: 'Hypermedia links (single-term responses only).' },
      ),
    ),
  },
  { ...strict, description: 'An event category or tag.' },
);

/** A category or tag embedded in an event (events.md 1.6). */
export const EventTermJson = Type.Object(
  {
    name: str('Term name.'),
    slug: str('Term slug.'),
    term_group: Type.Literal(0, { description: 'Always 0.' }),
    term_taxonomy_id: int('Equals the term ID.'),
    taxonomy: Taxonomy,
    description: str('Term description (HTML).'),
    parent: int('Parent category ID, 0 at the top level.'),
    count: int('Number of published events carrying the term.'),
    filter: Type.Literal('raw', { description: 'Always raw.' }),
    id: int('Term ID.'),
    urls: TermUrls,
  },
  { ...strict, description: 'A category or tag as shown inside an event.' },
);

export const CategoryListJson = termListJson('categories', TermJson, 'A page of event categories.');
export const TagListJson = termListJson('tags', TermJson, 'A page of event tags.');
