import { sql } from 'kysely';
import type { TestServer } from './server.js';

/**
 * The plan of a compiled query: SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's EXPLAIN, by default with
 * sequential scans priced out (`seqScans: true` leaves the planner its own costs, to see what it
 * chooses on a table large enough).
 */
export async function planOf(
  srv: TestServer,
  query: { compile(): { sql: string; parameters: readonly unknown[] } },
  { seqScans = false }: { seqScans?: boolean } = {},
): Promise<string> {
  const { sql: text, parameters } = query.compile();
  if (srv.backend === 'sqlite') {
    const rows = await sql
      .raw<{ detail: string }>(`explain query plan ${inline(text, parameters, '?')}`)
      .execute(srv.db);
    return rows.rows.map((r) => r.detail).join('\n');
  }
  return srv.db.connection().execute(async (conn) => {
    if (!seqScans) await sql`set enable_seqscan = off`.execute(conn);
    const rows = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inline(text, parameters, '$')}`).execute(conn);
    if (!seqScans) await sql`reset enable_seqscan`.execute(conn);
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

/** Parameters written into the statement as literals (EXPLAIN takes no bound values on PostgreSQL). */
export function inline(text: string, parameters: readonly unknown[], style: '?' | '$'): string {
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  if (style === '?') {
    let i = 0;
    return text.replace(/\?/g, () => literal(parameters[i++]));
  }
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(parameters[Number(n) - 1]));
}
