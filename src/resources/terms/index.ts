/** Categories and tags: the routes, and what events use of them (team contract). */
export { categoryTaxonomy } from './category.js';
export { tagTaxonomy } from './tag.js';
export type { Taxonomy } from './taxonomy.js';
export { termRoutes } from './routes.js';
export { loadTermsForEvents, resolveTermFilter, resolveTermInput, setEventTerms } from './events.js';
