import type { Selectable } from 'kysely';
import type { PostsTable } from '../../db/tables.js';

/**
 * What distinguishes venues from organizers: the name field, the attribute table and its fields,
 * the link table of events, and the schema.org object (style.md rule 9). Everything else is one
 * implementation in this folder.
 */

/** How one attribute is validated, stored and represented. */
export type AttributeKind =
  /** Plain text, normalised on save (venues-organizers.md 4.5). */
  | 'text'
  /** Plain text that must be empty or an http(s) URL, stored cleaned (text/url.ts). */
  | 'url'
  /** A map flag stored as '1'/'0'; unset reads as true (1.3). */
  | 'flag'
  /** Decimal degrees within `range` (decisions.md E19). */
  | 'coordinate';

export interface AttributeField {
  /** Wire and column name. */
  name: string;
  kind: AttributeKind;
  /** English description shown by discovery and /doc. */
  description: string;
  /** Matched by the list `search` (venues-organizers.md 2.3). */
  searchable?: boolean;
  /** Inclusive bounds of a coordinate. */
  range?: [number, number];
}

/** A stored record: the posts row joined with its attribute row (attribute columns by field name). */
export type LinkedRow = Omit<Selectable<PostsTable>, 'type'> & { [attribute: string]: unknown };

/** What a schema.org builder gets besides the row. */
export interface JsonLdInput {
  row: LinkedRow;
  name: string;
  description: string;
  imageUrl: string | undefined;
  url: string;
}

export interface LinkedKind {
  /** Post type, name field and noun of the error codes: `venue` / `organizer`. */
  type: 'venue' | 'organizer';
  /** Collection path segment and list envelope key. */
  collection: 'venues' | 'organizers';
  /** Attribute table. */
  table: 'venues' | 'organizers';
  /** Link table of events and its column naming this record. */
  linkTable: 'event_venues' | 'event_organizers';
  linkColumn: 'venue_id' | 'organizer_id';
  /** Attributes in the reference's key order (representation and arguments). */
  fields: AttributeField[];
  /** Attributes whose arguments come after `image` (extensions of the reference, common.md 2.1.1). */
  extensionFields: string[];
  /** Create arguments discovery shows with `"default": null` (common.md 2.1.1). */
  nullDefaults: string[];
  /** Derived attributes recomputed from the merged values when one of `inputs` is given (4.4, VO-9). */
  derive?: {
    inputs: string[];
    apply: (merged: Record<string, unknown>, given: Record<string, unknown>) => Record<string, unknown>;
  };
  /** The schema.org object without `@context` (1.6 as decided by VO-21). */
  jsonLd: (input: JsonLdInput) => Record<string, unknown>;
}

/** `keyOf` of a memo over kinds (memo.ts). */
export const byKind = (kind: LinkedKind): string => kind.type;
