import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { sql } from 'kysely';
import type { Credentials, RequestOptions, TestServer } from '../support/server.js';
import type { Db } from '../../src/db/tables.js';
import { daysFromNow } from '../events/helpers.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Runs `calendar …` on a database, in a process of its own, without holding up this one's server. */
export function calendar(databaseUrl: string, ...argv: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...argv],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
      (err, out, errOut) => resolve({ code: err ? Number(err.code ?? 1) : 0, out, err: errOut }),
    );
  });
}

/** Runs a command that must succeed; its stderr explains a failure. */
export async function calendarOk(databaseUrl: string, ...argv: string[]): Promise<string> {
  const res = await calendar(databaseUrl, ...argv);
  assert.equal(res.code, 0, `calendar ${argv.join(' ')} failed: ${res.err}`);
  return res.out;
}

/** What `seedSite` made: the records the reads name. */
export interface Seeded {
  admin: Credentials;
  editor: Credentials;
  events: number[];
  draft: number;
  locked: number;
  trashed: number;
  /** Deleted for good: the highest ID handed out, and no longer in the database. */
  purged: number;
  venues: number[];
  organizers: number[];
  categories: number[];
}

async function created(srv: TestServer, path: string, json: Record<string, unknown>, as: Credentials) {
  const res = await srv.post(path, { as, json });
  assert.equal(res.status, 201, `${path}: ${res.text}`);
  return res.body.id as number;
}

/**
 * A site with something in every table, written over HTTP: events with venues, organizers,
 * categories and tags, an image, a draft (by an editor with an application password), a
 * password-protected event, a trashed one, one deleted for good, changed settings.
 */
export async function seedSite(srv: TestServer): Promise<Seeded> {
  const admin = await srv.user('administrator');
  const editor = await srv.user('editor', 'erin');
  await srv.setSetting('site_name', 'Moved Site');
  await srv.setSetting('posts_per_page', '3');
  const make = (path: string, json: Record<string, unknown>, as = admin) => created(srv, path, json, as);
  const music = await make('/categories', { name: 'Music', description: 'Live music' });
  const jazz = await make('/categories', { name: 'Jazz', parent: music });
  const venues = [
    await make('/venues', { venue: 'Blue Hall', address: '1 Main St', city: 'Lyon', geo_lat: 45.764, geo_lng: 4.8357 }),
    await make('/venues', { venue: 'Red Barn', city: 'Paris', phone: '+33 1 23 45 67 89' }),
  ];
  const organizers = [
    await make('/organizers', { organizer: 'Ann Org', email: 'ann@example.org' }),
    await make('/organizers', { organizer: 'Bob Org', website: 'https://bob.example.org' }),
  ];
  const event = (title: string, days: number, fields: Record<string, unknown> = {}, as = admin) =>
    make(
      '/events',
      { title, start_date: daysFromNow(days, '20:00:00'), end_date: daysFromNow(days, '23:00:00'), ...fields },
      as,
    );
  const events = [
    await event('Jazz Night', 3, {
      description: '<p>Trumpets and <strong>brass</strong> all night.</p>',
      venue: venues[0],
      organizer: [organizers[0]],
      categories: [jazz],
      tags: ['late', 'brass'],
      image: 'https://cdn.example.org/pics/jazz.jpg',
      cost: '10',
    }),
    await event('Brass Brunch', 4, {
      venue: venues[1],
      organizer: organizers,
      categories: [music],
      tags: ['brass'],
      featured: true,
    }),
    await event('Quiet Reading', 5, { all_day: true, cost: '0' }),
  ];
  const draft = await event('Erin Draft', 6, { status: 'draft', categories: [jazz] }, editor);
  const locked = await event('Locked Session', 7, { post_password: 'secret', venue: venues[0] });
  const trashed = await event('Old Show', 8, { categories: [music], tags: ['late'] });
  assert.equal((await srv.request('DELETE', `/events/${trashed}`, { as: admin })).status, 200);
  const purged = await event('Gone', 9, { tags: ['brass'] });
  const force = { as: admin, query: { force: true } };
  assert.equal((await srv.request('DELETE', `/events/${purged}`, force)).status, 200);
  return { admin, editor, events, draft, locked, trashed, purged, venues, organizers, categories: [music, jazz] };
}

type Read = [path: string, options?: RequestOptions];

/** The reads two sites with the same data must answer alike. */
function reads(s: Seeded, site: TestServer): Read[] {
  const { admin, editor } = s;
  const wrong: Credentials = { ...editor, header: `Basic ${Buffer.from('erin:wrong').toString('base64')}` };
  return [
    [`${site.origin}/wp-json/`],
    ['/events'],
    ['/events', { query: { page: 2 } }],
    ['/events', { query: { per_page: 50 }, as: admin }],
    ['/events', { query: { status: 'draft' }, as: editor }],
    ['/events', { query: { search: 'brass' } }],
    ['/events', { query: { search: 'trumpets' } }],
    ['/events', { query: { categories: 'music' } }],
    ['/events', { query: { tags: 'brass' } }],
    ['/events', { query: { venue: s.venues[0]!, featured: false } }],
    ['/events', { query: { geoloc: true } }],
    ...[...s.events, s.locked].map((id): Read => [`/events/${id}`]),
    [`/events/${s.locked}`, { query: { password: 'secret' } }],
    [`/events/${s.draft}`, { as: editor }],
    [`/events/${s.draft}`, { as: wrong }],
    [`/events/${s.draft}`],
    [`/events/${s.trashed}`, { as: admin }],
    [`/events/${s.purged}`, { as: admin }],
    ['/categories'],
    ['/categories', { query: { hide_empty: 0 } }],
    ['/tags', { query: { hide_empty: 0 } }],
    ...s.categories.map((id): Read => [`/categories/${id}`]),
    ['/venues'],
    ['/organizers', { query: { per_page: 50 } }],
    ...[...s.venues.map((id) => `/venues/${id}`), ...s.organizers.map((id) => `/organizers/${id}`)].map(
      (path): Read => [path],
    ),
  ];
}

const HEADERS = ['x-tec-total', 'x-tec-totalpages', 'x-wp-total', 'x-wp-totalpages', 'link'];

/** A response with the server's own address (its port) taken out. */
async function answer(site: TestServer, [path, options]: Read) {
  const res = await site.request('GET', path, options);
  const local = (text: string | null) => text?.replace(/(localhost|127\.0\.0\.1):\d+/g, 'SITE');
  return {
    status: res.status,
    headers: Object.fromEntries(HEADERS.map((name) => [name, local(res.headers.get(name))])),
    body: local(res.text),
  };
}

/** Every read of `reads` answers on `copy` with the status, totals, links and body it has on `original`. */
export async function assertSameAnswers(original: TestServer, copy: TestServer, seeded: Seeded): Promise<void> {
  const originalReads = reads(seeded, original);
  const copyReads = reads(seeded, copy);
  for (const [i, read] of originalReads.entries()) {
    const expected = await answer(original, read);
    assert.ok(expected.status < 500, `${read[0]}: ${expected.body}`);
    assert.deepEqual(await answer(copy, copyReads[i]!), expected, `${copy.backend} answers ${read[0]} otherwise`);
  }
}

/** What triggers keep: term counts, listing copies, day counts (summed over shards). */
export async function derivedState(db: Db) {
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows;
  return {
    terms: await rows(sql`select id, event_count from terms order by id`),
    events: await rows(sql`select post_id, status, author from events order by post_id`),
    eventTerms: await rows(sql`select * from event_terms order by event_id, term_id`),
    dayCounts: await rows(sql`select clock, status, hide_from_listings, featured, start_day, end_day, sum(n) as n
      from event_day_counts group by clock, status, hide_from_listings, featured, start_day, end_day
      having sum(n) <> 0 order by clock, status, hide_from_listings, featured, start_day, end_day`),
  };
}

/** Creates an event and returns its ID: a site moved with its sequences hands out the same next ID. */
export function nextEventId(srv: TestServer, as: Credentials): Promise<number> {
  return created(
    srv,
    '/events',
    { title: 'After the move', start_date: daysFromNow(10), end_date: daysFromNow(10, '12:00:00') },
    as,
  );
}
