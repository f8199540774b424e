import assert from 'node:assert/strict';
import type { Role } from '../../src/auth/roles.js';
import { readDataVersion } from '../../src/db/data-version.js';
import type { TestServer } from '../support/server.js';

export type Kind = 'venue' | 'organizer';
export const KINDS: Kind[] = ['venue', 'organizer'];
export const plural = (kind: Kind) => (kind === 'venue' ? 'venues' : 'organizers');
export const linkTable = (kind: Kind) => (kind === 'venue' ? 'event_venues' : 'event_organizers');
export const linkColumn = (kind: Kind) => (kind === 'venue' ? 'venue_id' : 'organizer_id');

const wall = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** Creates a record over HTTP and returns its body (201 asserted). */
export async function create(srv: TestServer, kind: Kind, fields: Record<string, unknown>, as: Role = 'administrator') {
  const res = await srv.post(`/${plural(kind)}`, { as, json: { [kind]: `A ${kind}`, ...fields } });
  assert.equal(res.status, 201, res.text);
  return res.body as Record<string, any>;
}

/** Inserts an event row directly (the events routes are another resource), linked to the given records. */
export async function insertEvent(
  srv: TestServer,
  opts: {
    status?: string;
    startsInDays: number;
    author?: number;
    venues?: number[];
    organizers?: number[];
    hidden?: boolean;
  },
): Promise<number> {
  const start = new Date(Date.now() + opts.startsInDays * 86_400_000);
  const end = new Date(start.getTime() + 2 * 3_600_000);
  const now = wall(new Date());
  const { id } = await srv.db
    .insertInto('posts')
    .values({
      type: 'event',
      author: opts.author ?? 0,
      status: opts.status ?? 'publish',
      slug: `event-${Math.random().toString(36).slice(2)}`,
      title: 'An event',
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
    .insertInto('events')
    .values({
      post_id: id,
      start_date: wall(start),
      end_date: wall(end),
      utc_start_date: wall(start),
      utc_end_date: wall(end),
      timezone: 'UTC',
      all_day: 0,
      cost: '',
      sticky: 0,
      featured: 0,
      hide_from_listings: opts.hidden ? 1 : 0,
    })
    .execute();
  for (const [position, venue_id] of (opts.venues ?? []).entries()) {
    await srv.db.insertInto('event_venues').values({ event_id: id, venue_id, position }).execute();
  }
  for (const [position, organizer_id] of (opts.organizers ?? []).entries()) {
    await srv.db.insertInto('event_organizers').values({ event_id: id, organizer_id, position }).execute();
  }
  return id;
}

/** How many records of the kind the database holds. */
export async function countRecords(srv: TestServer, kind: Kind | 'image' | 'event'): Promise<number> {
  const row = await srv.db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes every record of the kinds and every event, so a test starts from a known set. */
export async function clearAll(srv: TestServer) {
  await srv.db.deleteFrom('event_venues').execute();
  await srv.db.deleteFrom('event_organizers').execute();
  await srv.db.deleteFrom('events').execute();
  await srv.db.deleteFrom('venues').execute();
  await srv.db.deleteFrom('organizers').execute();
  await srv.db.updateTable('posts').set({ image_id: null }).execute();
  await srv.db.deleteFrom('images').execute();
  await srv.db.deleteFrom('posts').execute();
}

export async function dataVersion(srv: TestServer): Promise<number> {
  return readDataVersion(srv.db);
}

/** Inserts an image record directly, returning its ID. */
export async function insertImage(srv: TestServer, url: string): Promise<number> {
  const now = wall(new Date());
  const { id } = await srv.db
    .insertInto('posts')
    .values({
      type: 'image',
      author: 0,
      status: 'inherit',
      slug: '',
      title: 'img',
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
