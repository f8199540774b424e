import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import type { Role } from '../../src/auth/roles.js';
import { SEARCH_QUEUE_LIMIT } from '../../src/db/search-queue.js';
import type { Database } from '../../src/db/tables.js';
import type { Credentials, TestServer } from '../support/server.js';

/** `YYYY-MM-DD HH:MM:SS` of now (UTC) shifted by `days`, at the given clock time. */
export function daysFromNow(days: number, time = '10:00:00'): string {
  return `${DateTime.utc().plus({ days }).toISODate()} ${time}`;
}

/** Creates an event over HTTP and returns its representation; fails the test unless 201. */
export async function makeEvent(
  srv: TestServer,
  fields: Record<string, unknown> = {},
  as: Role | Credentials = 'administrator',
) {
  const res = await srv.post('/events', {
    as,
    json: { title: 'An event', start_date: daysFromNow(3), end_date: daysFromNow(3, '12:00:00'), ...fields },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** Rows of one table. */
export async function rowCount(srv: TestServer, table: keyof Database): Promise<number> {
  const row = await srv.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Row counts of the tables a write touches: a rejected write must leave them unchanged. */
export async function tableCounts(srv: TestServer) {
  const count = (
    table: 'posts' | 'events' | 'terms' | 'event_terms' | 'event_venues' | 'event_organizers' | 'images',
  ) => rowCount(srv, table);
  return {
    posts: await count('posts'),
    events: await count('events'),
    terms: await count('terms'),
    event_terms: await count('event_terms'),
    event_venues: await count('event_venues'),
    event_organizers: await count('event_organizers'),
    images: await count('images'),
  };
}

/** Inserts an image record directly (images are records in the shared ID space, decisions.md E7). */
export async function makeImage(srv: TestServer, url = 'https://cdn.example.org/pics/photo.jpg'): Promise<number> {
  const now = '2026-01-01 00:00:00';
  const { id } = await srv.db
    .insertInto('posts')
    .values({
      type: 'image',
      author: 0,
      status: 'inherit',
      slug: '',
      title: 'photo',
      description: '',
      excerpt: '',
      password: '',
      parent_id: 0,
      date: now,
      date_utc: now,
      modified: now,
      modified_utc: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await srv.db
    .insertInto('images')
    .values({ post_id: id, url, mime_type: 'image/jpeg', extension: 'jpg', width: 800, height: 600 })
    .execute();
  return id;
}

/**
 * Adds records (image posts) until SQLite's queue of records awaiting the full-text index is full,
 * so that it is indexed, the records queued before included (src/db/search-queue.ts). Harmless on
 * PostgreSQL, which has no queue.
 */
export async function fillSearchQueue(srv: TestServer) {
  const now = '2026-01-01 00:00:00';
  const filler = {
    type: 'image' as const,
    author: 0,
    status: 'inherit',
    slug: '',
    description: '',
    excerpt: '',
    password: '',
    parent_id: 0,
    date: now,
    date_utc: now,
    modified: now,
    modified_utc: now,
  };
  await srv.db
    .insertInto('posts')
    .values(Array.from({ length: SEARCH_QUEUE_LIMIT }, (_, i) => ({ ...filler, title: `queue filler ${i}` })))
    .execute();
}
