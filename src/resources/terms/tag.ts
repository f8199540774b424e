import type { Taxonomy } from './taxonomy.js';

/** Event tags: flat, managed by whoever may manage blog categories (terms.md 2). */
export const tagTaxonomy: Taxonomy = {
  name: 'post_tag',
  collection: 'tags',
  singular: 'tag',
  hierarchical: false,
  manageCapability: 'manage_categories',
  archivePath: 'tag',
};
