import { readDataVersion } from '../../src/db/data-version.js';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { TestServer } from '../support/server.js';

/** Creates a term through the API as an editor and returns its body. */
export async function makeTerm(
  srv: TestServer,
  collection: 'categories' | 'tags',
  json: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await srv.post(`/${collection}`, { as: 'editor', json });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

let clock = 0;

/** Inserts a bare post-like record of another type (for "not an event" checks). */
export async function insertPost(srv: TestServer, type: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    insert into posts (type, status, title, slug, date, date_utc, modified, modified_utc)
    values (${type}, 'publish', 'Other', ${`other-${Math.random().toString(36).slice(2, 8)}`},
            '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00')
    returning id`.execute(srv.db);
  return Number(rows[0]!.id);
}

/**
 * Inserts an event directly (posts + events rows) carrying the given terms in order, so that
 * term counts and the `post`/`event` filters can be tested without the events routes.
 */
export async function insertEvent(
  srv: TestServer,
  opts: { status?: string; author?: number; termIds?: number[]; title?: string } = {},
): Promise<number> {
  const stamp = `2026-01-01 00:00:${String(clock++ % 60).padStart(2, '0')}`;
  // Only the columns without defaults: the fixture survives later schema additions.
  const { rows } = await sql<{ id: number }>`
    insert into posts (type, author, status, slug, title, date, date_utc, modified, modified_utc)
    values ('event', ${opts.author ?? 0}, ${opts.status ?? 'publish'}, ${`event-${clock}-${Math.random().toString(36).slice(2, 8)}`},
            ${opts.title ?? 'Event'}, ${stamp}, ${stamp}, ${stamp}, ${stamp})
    returning id`.execute(srv.db);
  const id = Number(rows[0]!.id);
  await sql`
    insert into events (post_id, start_date, end_date, utc_start_date, utc_end_date)
    values (${id}, '2030-01-01 10:00:00', '2030-01-01 12:00:00', '2030-01-01 10:00:00', '2030-01-01 12:00:00')`.execute(
    srv.db,
  );
  const termIds = opts.termIds ?? [];
  if (termIds.length) {
    await srv.db
      .insertInto('event_terms')
      .values(termIds.map((termId, position) => ({ event_id: id, term_id: termId, position })))
      .execute();
  }
  return id;
}

/** Every stored term, for probes after rejected writes. */
export async function termRows(srv: TestServer) {
  return srv.db.selectFrom('terms').selectAll().orderBy('id').execute();
}

export async function dataVersion(srv: TestServer): Promise<number> {
  return readDataVersion(srv.db);
}
