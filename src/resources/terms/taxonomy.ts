import type { Capability } from '../../auth/roles.js';

/**
 * What distinguishes categories from tags: one table per taxonomy over one implementation
 * (style.md rule 9). Tags are categories without a parent.
 */
export interface Taxonomy {
  /** Stored and wire value of `taxonomy` (terms.md 1.1, O1). */
  name: 'tribe_events_cat' | 'post_tag';
  /** Collection path segment and list envelope key. */
  collection: 'categories' | 'tags';
  /** One term, in English argument descriptions. */
  singular: string;
  /** Categories have parents; tags never do (terms.md 1.1). */
  hierarchical: boolean;
  /** Managing terms needs this besides `edit_posts` of events (common.md 7.4). */
  manageCapability: Capability;
  /** Public archive path under the site URL, before the slug (chain) (terms.md 1.6). */
  archivePath: string;
}
