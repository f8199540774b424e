import type { Compilable } from 'kysely';
import type { Db } from './tables.js';

const MAX_ENTRIES = 10_000;

/**
 * Totals of list queries, remembered for one `data_version` (which every write bumps in its
 * transaction): the pages of one filter, and the same filter asked again, count once until the
 * next write. A count's SQL and parameters are its key, so every filter value, the caller's
 * visibility and the date window computed from the clock are part of it. Without a version
 * (a request that did not read one) the query simply runs.
 */
export class CountMemo {
  private version: number | null = null;
  private readonly totals = new Map<string, Promise<number>>();

  constructor(private readonly db: Db) {}

  count(query: Compilable<{ n: unknown }>, version: number | undefined): Promise<number> {
    const compiled = query.compile();
    const run = () => this.db.executeQuery<{ n: unknown }>(compiled).then(({ rows }) => Number(rows[0]?.n ?? 0));
    // Versions only grow: a request that read an older one (a write committed since) just counts.
    if (version === undefined || (this.version !== null && version < this.version)) return run();
    if (version !== this.version) {
      this.totals.clear();
      this.version = version;
    }
    const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
    const known = this.totals.get(key);
    if (known) return known;
    if (this.totals.size >= MAX_ENTRIES) this.totals.clear();
    const total = run();
    this.totals.set(key, total);
    // A failed count is not remembered.
    total.catch(() => {
      if (this.totals.get(key) === total) this.totals.delete(key);
    });
    return total;
  }
}
