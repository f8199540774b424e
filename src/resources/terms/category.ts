import type { Taxonomy } from './taxonomy.js';

/** Event categories: hierarchical, managed by whoever may publish events (terms.md 2). */
export const categoryTaxonomy: Taxonomy = {
  name: 'tribe_events_cat',
  collection: 'categories',
  singular: 'category',
  hierarchical: true,
  manageCapability: 'manage_event_categories',
  archivePath: 'events/category',
};
