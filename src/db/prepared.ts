import { createHash } from 'node:crypto';
import { CompiledQuery, PostgresAdapter, type Compilable, type Kysely } from 'kysely';

/** Stands in a query for the value named `name` (or its item `index`), given at each run. */
class Slot {
  constructor(
    readonly name: string,
    readonly index?: number,
  ) {}
}

/**
 * In a prepared query's `build`, the first `length` items of a list value (an `in` list): the
 * length belongs to the shape.
 */
export function slotItems<T>(list: readonly T[], length: number): T[] {
  const slot = list as unknown as Slot;
  return Array.from({ length }, (_, i) => new Slot(slot.name, i) as unknown as T);
}

/**
 * Shapes kept per prepared query and dialect. Some shapes follow a request's list lengths, so the
 * number of them is bounded; past it they are compiled again.
 */
const SHAPE_LIMIT = 256;

/** SQL texts of prepared queries known by a statement name, at most this many. */
const SERVER_PREPARED_LIMIT = 1000;
const serverPrepared = new Map<string, string>();

/**
 * The name a prepared query's SQL text runs under on PostgreSQL (named-statement-client.ts), or
 * undefined for any other statement. A name is derived from the text alone, so it means the same
 * statement on every connection and for the whole process; past the limit new texts run unnamed.
 */
export function serverStatementName(sql: string): string | undefined {
  return serverPrepared.get(sql);
}

function nameForServer(sql: string): void {
  if (serverPrepared.has(sql) || serverPrepared.size >= SERVER_PREPARED_LIMIT) return;
  serverPrepared.set(sql, `q${createHash('sha1').update(sql).digest('base64url')}`);
}

interface Compiled {
  sql: string;
  /** The query's parameters in order: a slot for each given value, constants as they are. */
  parameters: readonly unknown[];
}

/**
 * A query whose SQL text depends only on its shape, built once and then run with new values.
 *
 * Building a query with Kysely's builder and compiling it costs as much as running a small one on
 * SQLite, and an event create runs many. A prepared query is built on first use with a stand-in
 * for each value, compiled by the handle's dialect (kept per dialect instance: the request
 * connection, its transactions and the list reads each have their own), and each run only puts the
 * values in place of the stand-ins.
 *
 * `build` must give the same SQL for every set of values: anything that changes the text (an
 * optional condition, an `in` list's length) is part of `shape`, which names the variant. On
 * PostgreSQL the text also runs as a named statement (`serverStatementName`): parsed once per
 * connection, its plans kept by the server.
 */
export function preparedQuery<V extends Record<string, unknown>, R, S extends string = ''>(
  build: (db: Kysely<any>, values: V, shape: S) => Compilable<R>,
): (db: Kysely<any>, values: V, shape?: S) => Promise<R[]> {
  const byDialect = new WeakMap<object, Map<string, Compiled>>();
  const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as V;
  return async (db, values, shape = '' as S) => {
    const adapter = db.getExecutor().adapter;
    let shapes = byDialect.get(adapter);
    if (!shapes) byDialect.set(adapter, (shapes = new Map()));
    let compiled = shapes.get(shape);
    if (!compiled) {
      const query = build(db, slots, shape).compile();
      compiled = { sql: query.sql, parameters: query.parameters };
      if (adapter instanceof PostgresAdapter) nameForServer(query.sql);
      if (shapes.size >= SHAPE_LIMIT) shapes.clear();
      shapes.set(shape, compiled);
    }
    const parameters = compiled.parameters.map((p) => {
      if (!(p instanceof Slot)) return p;
      return p.index === undefined ? values[p.name] : (values[p.name] as readonly unknown[])[p.index];
    });
    const result = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters));
    return result.rows;
  };
}

/**
 * Inserts rows into `table`, prepared per list of columns (those of the first row whose value is
 * not `undefined`, in the order given, as Kysely's `values` takes them) and number of rows; every
 * row has the same columns. Returns the `returning` columns of the rows.
 */
export function preparedInsert<R = Record<string, unknown>>(table: string, returning: readonly string[] = []) {
  // Values by column, one item per row.
  const insert = preparedQuery((db, v: Record<string, unknown[]>, shape: string) => {
    const [count, names] = shape.split(':') as [string, string];
    const columns = names.split(',').map((column) => [column, slotItems(v[column]!, Number(count))] as const);
    const rows = Array.from({ length: Number(count) }, (_, i) =>
      Object.fromEntries(columns.map(([column, items]) => [column, items[i]])),
    );
    const query = db.insertInto(table).values(rows);
    return returning.length ? query.returning(returning) : query;
  });
  return async (db: Kysely<any>, rows: ReadonlyArray<Record<string, unknown>>): Promise<R[]> => {
    const columns = Object.keys(rows[0]!).filter((column) => rows[0]![column] !== undefined);
    const values: Record<string, unknown[]> = {};
    for (const column of columns) values[column] = rows.map((row) => row[column]);
    return (await insert(db, values, `${rows.length}:${columns.join(',')}`)) as R[];
  };
}
