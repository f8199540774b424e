import { sql } from 'kysely';
import { onPostgres } from '../db/connect.js';
import type { Trx } from '../db/tables.js';
import { SEQUENCE_TABLES } from './dump-tables.js';

/**
 * The ID each table's sequence hands out next. It can be past the highest ID in the table: the IDs
 * of records deleted for good are not handed out again, and a move keeps it that way.
 */
export async function readNextIds(trx: Trx): Promise<Record<string, number>> {
  const next: Record<string, number> = {};
  for (const table of SEQUENCE_TABLES) {
    const last = onPostgres(trx)
      ? sql<{
          last: number | null;
        }>`select pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass) as last`
      : sql<{ last: number | null }>`select seq as last from sqlite_sequence where name = ${table}`;
    const { rows } = await last.execute(trx);
    next[table] = Number(rows[0]?.last ?? 0) + 1;
  }
  return next;
}

/** Sets each sequence to hand out the larger of `wanted` (the source's next ID) and the table's highest ID plus one. */
export async function setNextIds(trx: Trx, wanted: Record<string, number>): Promise<void> {
  for (const table of SEQUENCE_TABLES) {
    const { rows } = await sql<{ top: number | null }>`select max(id) as top from ${sql.table(table)}`.execute(trx);
    const next = Math.max(wanted[table] ?? 1, Number(rows[0]?.top ?? 0) + 1);
    if (onPostgres(trx)) {
      // A sequence never used (is_called false) hands out its value itself; once used, the one after.
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${Math.max(next - 1, 1)}, ${next > 1})`.execute(
        trx,
      );
    } else {
      await sql`delete from sqlite_sequence where name = ${table}`.execute(trx);
      await sql`insert into sqlite_sequence (name, seq) values (${table}, ${next - 1})`.execute(trx);
    }
  }
}
