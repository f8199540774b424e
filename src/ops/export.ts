import { sql } from 'kysely';
import type { Backend } from '../db/connect.js';
import { appliedMigrations } from '../db/migrate.js';
import type { Db, Trx } from '../db/tables.js';
import { DUMPED_TABLES, planOf, type DumpedTable } from './dump-tables.js';
import { DUMP_FORMAT, DUMP_VERSION, type DumpEnd, type DumpHeader, type DumpTableStart } from './dump-format.js';
import { LineWriter } from './dump-lines.js';
import { OpsError } from './errors.js';
import { writeAtomically } from './files.js';
import { readNextIds } from './sequences.js';

/** Rows read per query: pages follow the key, so each one reads only its own rows. */
const PAGE_ROWS = 1000;

export interface ExportSummary {
  migration: string;
  rows: Record<DumpedTable, number>;
}

function pageAfter(trx: Trx, table: DumpedTable, last: unknown[] | undefined) {
  const key = sql.join(planOf(table).key.map((column) => sql.ref(column)));
  const after = last ? sql`where (${key}) > (${sql.join(last)})` : sql``;
  return sql<Record<string, unknown>>`select * from ${sql.table(table)} ${after} order by ${key} limit ${PAGE_ROWS}`
    .execute(trx)
    .then((result) => result.rows);
}

/** Writes the table's line and its rows; returns how many. */
async function writeTable(trx: Trx, out: LineWriter, table: DumpedTable): Promise<number> {
  const { key, derived } = planOf(table);
  let page = await pageAfter(trx, table, undefined);
  const columns = Object.keys(page[0] ?? {}).filter((column) => !derived.includes(column));
  await out.write({ table, columns } satisfies DumpTableStart);
  let count = 0;
  for (;;) {
    for (const row of page) await out.write(columns.map((column) => row[column]));
    count += page.length;
    if (page.length < PAGE_ROWS) return count;
    const lastKey = key.map((column) => page.at(-1)![column]);
    page = await pageAfter(trx, table, lastKey);
  }
}

async function writeDump(trx: Trx, backend: Backend, out: LineWriter): Promise<ExportSummary> {
  const migration = (await appliedMigrations(trx)).at(-1);
  if (migration === undefined)
    throw new OpsError('the database has no tables yet (no migration applied): nothing to export');
  const header: DumpHeader = {
    format: DUMP_FORMAT,
    version: DUMP_VERSION,
    migration,
    backend,
    exported_at: new Date().toISOString(),
    next_ids: await readNextIds(trx),
  };
  await out.write(header);
  const rows = {} as Record<DumpedTable, number>;
  for (const table of DUMPED_TABLES) rows[table] = await writeTable(trx, out, table);
  await out.write({ end: rows } satisfies DumpEnd);
  await out.close();
  return { migration, rows };
}

/**
 * Writes every record of the database to `file` (dump-format.ts), read in one transaction: one
 * snapshot of every table, consistent while the service goes on writing (on PostgreSQL that takes
 * `repeatable read`; an SQLite read transaction is one snapshot already).
 */
export function exportDump(db: Db, backend: Backend, file: string): Promise<ExportSummary> {
  return writeAtomically(file, (partial) =>
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const out = new LineWriter(partial);
        try {
          return await writeDump(trx, backend, out);
        } catch (err) {
          out.destroy();
          throw err;
        }
      }),
  );
}
