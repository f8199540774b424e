import { Type, type Static } from '@sinclair/typebox';

/**
 * The file `calendar export` writes and `calendar import` reads: JSON lines, one JSON value per
 * line, so that a dump of any size is written and read a row at a time, and each line is still
 * plain JSON for jq or a script.
 *
 *     {"format":"calendar-server-dump","version":1,"migration":"2026-11-27-13-…",…}   DumpHeader
 *     {"table":"users","columns":["id","login",…]}                                   DumpTableStart
 *     [1,"admin",…]                                                                   DumpRow, in key order
 *     …                                                                               each table in turn
 *     {"end":{"users":2,"app_passwords":2,…}}                                          DumpEnd
 *
 * Rows are arrays in the order of their table's `columns`, which names each column once rather than
 * on every row. The closing line counts the rows of each table: a file cut short has none, and is
 * refused.
 */
export const DUMP_FORMAT = 'calendar-server-dump';

/** The layout of the file. The schema's own changes do not change it: the header names the migration. */
export const DUMP_VERSION = 1;

export const DumpHeader = Type.Object({
  format: Type.Literal(DUMP_FORMAT),
  version: Type.Integer(),
  /** The last migration applied to the database dumped: the schema its rows fit. */
  migration: Type.String(),
  backend: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  exported_at: Type.String(),
  /** Per table keyed by `id`, the ID its sequence hands out next (sequences.ts). */
  next_ids: Type.Record(Type.String(), Type.Integer({ minimum: 1 })),
});
export type DumpHeader = Static<typeof DumpHeader>;

export const DumpTableStart = Type.Object({
  table: Type.String(),
  /** Empty when the table has no rows. */
  columns: Type.Array(Type.String({ pattern: '^[a-z_][a-z0-9_]*$' })),
});
export type DumpTableStart = Static<typeof DumpTableStart>;

export const DumpRow = Type.Array(Type.Union([Type.String(), Type.Number(), Type.Null()]));
export type DumpRow = Static<typeof DumpRow>;

export const DumpEnd = Type.Object({ end: Type.Record(Type.String(), Type.Integer({ minimum: 0 })) });
export type DumpEnd = Static<typeof DumpEnd>;
