import { Value } from '@sinclair/typebox/value';
import { sql } from 'kysely';
import { onPostgres } from '../db/connect.js';
import { appliedMigrations, migrateToLatest, migrateUpTo, migrationNames } from '../db/migrate.js';
import type { Db, Trx } from '../db/tables.js';
import { DUMPED_TABLES, planOf, type DumpedTable } from './dump-tables.js';
import { DUMP_FORMAT, DUMP_VERSION, DumpEnd, DumpHeader, DumpRow, DumpTableStart } from './dump-format.js';
import { DumpReader, type DumpLine } from './dump-lines.js';
import { OpsError } from './errors.js';
import { setNextIds } from './sequences.js';

/** Values bound per insert statement, well under SQLite's 32,766 and PostgreSQL's 65,535. */
const BATCH_PARAMETERS = 10_000;

export interface ImportSummary {
  /** The migration the dump was taken at. */
  migration: string;
  rows: Partial<Record<DumpedTable, number>>;
  /** Migrations applied after the load, when the dump was taken at an older one. */
  upgraded: string[];
}

function readHeader(reader: DumpReader, line: DumpLine | undefined): DumpHeader {
  const header = line?.value as Partial<DumpHeader> | undefined;
  if (header?.format !== DUMP_FORMAT)
    throw new OpsError(
      `${reader.file} was not written by calendar export (its first line has no "format":"${DUMP_FORMAT}")`,
    );
  if (header.version !== DUMP_VERSION)
    throw new OpsError(
      `${reader.file} has dump format version ${JSON.stringify(header.version)}; this calendar reads version ${DUMP_VERSION}`,
    );
  if (!Value.Check(DumpHeader, header)) throw reader.malformed('a header without its migration, backend or next IDs');
  if (!migrationNames.includes(header.migration))
    throw new OpsError(
      `${reader.file} was taken at migration ${header.migration}, which this calendar does not know: upgrade calendar, then import`,
    );
  return header;
}

/** The dumped tables that hold rows already. */
async function tablesWithRows(db: Trx): Promise<DumpedTable[]> {
  const found: DumpedTable[] = [];
  for (const table of DUMPED_TABLES) {
    const { rows } = await sql`select 1 as found from ${sql.table(table)} limit 1`.execute(db);
    if (rows.length) found.push(table);
  }
  return found;
}

async function refuseUnlessEmpty(db: Trx): Promise<void> {
  const found = await tablesWithRows(db);
  if (found.length)
    throw new OpsError(
      `the database is not empty (${found.join(', ')} hold rows): calendar import loads into an empty database only, such as a new SQLite file or a new PostgreSQL database`,
    );
}

/**
 * Brings the database to the schema the dump was taken at: its rows fit that schema, and the
 * migrations after it, run once the rows are in, change them as they change every database.
 */
async function prepareSchema(db: Db, migration: string): Promise<void> {
  const last = (await appliedMigrations(db)).at(-1);
  if (last !== undefined) {
    if (last > migration)
      throw new OpsError(
        `the database is at migration ${last}, past the dump's ${migration}: import into a database without tables, which calendar import migrates itself`,
      );
    await refuseUnlessEmpty(db);
  }
  await migrateUpTo(db, migration);
}

interface TableLoad {
  table: DumpedTable;
  columns: string[];
  batch: DumpRow[];
  count: number;
}

async function flush(trx: Trx, reader: DumpReader, load: TableLoad): Promise<void> {
  if (!load.batch.length) return;
  const columns = sql.join(load.columns.map((column) => sql.ref(column)));
  const values = sql.join(load.batch.map((row) => sql`(${sql.join(row)})`));
  try {
    await sql`insert into ${sql.table(load.table)} (${columns}) values ${values}`.execute(trx);
  } catch (err) {
    throw new OpsError(`cannot load the ${load.table} rows of ${reader.file}: ${(err as Error).message}`);
  }
  load.batch = [];
}

/** A table's line: known, after the table before it in insert order, without derived columns. */
function startTable(reader: DumpReader, value: unknown, previous: DumpedTable | undefined): TableLoad {
  if (!Value.Check(DumpTableStart, value)) throw reader.malformed('neither a row, a table nor the last line');
  const table = DUMPED_TABLES.find((name) => name === value.table);
  if (!table) throw reader.malformed(`${value.table} is not a table a dump holds`);
  if (previous && DUMPED_TABLES.indexOf(table) <= DUMPED_TABLES.indexOf(previous))
    throw reader.malformed(`${table} out of order (after ${previous})`);
  const derived = value.columns.find((column) => planOf(table).derived.includes(column));
  if (derived) throw reader.malformed(`${table}.${derived} is kept by the database itself`);
  return { table, columns: value.columns, batch: [], count: 0 };
}

/** The closing line must count the rows read, and be the last. */
async function finishDump(reader: DumpReader, end: DumpEnd, rows: Partial<Record<DumpedTable, number>>) {
  for (const table of new Set([...Object.keys(end.end), ...Object.keys(rows)])) {
    const read = rows[table as DumpedTable] ?? 0;
    if ((end.end[table] ?? 0) !== read)
      throw reader.malformed(`${read} ${table} rows were read, the last line counts ${end.end[table] ?? 0}`);
  }
  if (await reader.next()) throw reader.malformed('a line after the last one');
}

/** Inserts the rows table by table, so that the triggers rebuild what the dump leaves out. */
async function loadTables(trx: Trx, reader: DumpReader): Promise<Partial<Record<DumpedTable, number>>> {
  const rows: Partial<Record<DumpedTable, number>> = {};
  let load: TableLoad | undefined;
  for (let line = await reader.next(); line; line = await reader.next()) {
    const { value } = line;
    if (Array.isArray(value)) {
      if (!load) throw reader.malformed('a row before any table');
      if (!Value.Check(DumpRow, value) || value.length !== load.columns.length)
        throw reader.malformed(`not a row of the ${load.columns.length} ${load.table} columns`);
      load.batch.push(value);
      load.count += 1;
      if (load.batch.length * load.columns.length >= BATCH_PARAMETERS) await flush(trx, reader, load);
      continue;
    }
    if (load) {
      await flush(trx, reader, load);
      rows[load.table] = load.count;
    }
    if (Value.Check(DumpEnd, value)) {
      await finishDump(reader, value, rows);
      return rows;
    }
    load = startTable(reader, value, load?.table);
  }
  throw new OpsError(
    `${reader.file} ends before its last line: the dump is incomplete (an export or a copy cut short?)`,
  );
}

/**
 * Loads a dump (dump-format.ts) into an empty database, in one transaction, with the IDs it holds.
 * Rows go in through the tables, so the triggers rebuild every derived row and column (term
 * counts, day counts, listing copies, SQLite's search index); the sequences are moved past the
 * IDs loaded; the data version is bumped, so that the caches of a service running on the database
 * drop what they hold.
 */
export async function importDump(db: Db, file: string): Promise<ImportSummary> {
  const reader = await DumpReader.open(file);
  try {
    const header = readHeader(reader, await reader.next());
    await prepareSchema(db, header.migration);
    const rows = await db.transaction().execute(async (trx) => {
      // So that no write comes in between the check that the database is empty and the load.
      if (onPostgres(trx))
        await sql`lock table ${sql.join(DUMPED_TABLES.map((table) => sql.table(table)))} in exclusive mode`.execute(
          trx,
        );
      await refuseUnlessEmpty(trx);
      const loaded = await loadTables(trx, reader);
      await setNextIds(trx, header.next_ids);
      return loaded;
    });
    return { migration: header.migration, rows, upgraded: await migrateToLatest(db) };
  } finally {
    await reader.close();
  }
}
