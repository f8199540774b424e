import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { allRoutes } from '../../src/app.js';
import type { Method } from '../../src/http/route.js';
import type { TestResponse, TestServer } from './server.js';

/** One callable endpoint of the route table with a concrete path naming records that exist. */
export interface RouteTarget {
  /** Relative to the namespace root, e.g. `/events/12`. */
  path: string;
  /** The same path with `{id}` or `{slug}` left to fill: `(value) => '/events/' + value`. */
  withTarget: ((value: string) => string) | null;
  methods: Method[];
  /** The endpoint's argument names. */
  args: string[];
}

/** Creates one record of every kind and returns every endpoint of the route table with a path that names them. */
export async function routeTargets(srv: TestServer): Promise<RouteTarget[]> {
  const create = async (path: string, json: Record<string, unknown>) => {
    const res = await srv.post(path, { as: 'administrator', json });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: number; slug: string };
  };
  const records: Record<string, { id: number; slug: string }> = {
    events: await create('/events', {
      title: 'Walked event',
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 11:00:00',
    }),
    venues: await create('/venues', { venue: 'Walked venue' }),
    organizers: await create('/organizers', { organizer: 'Walked organizer' }),
    categories: await create('/categories', { name: 'Walked category' }),
    tags: await create('/tags', { name: 'Walked tag' }),
  };
  return allRoutes().flatMap((route) => {
    const resource = /^\/(\w+)/.exec(route.pattern)?.[1] ?? '';
    const record = records[resource];
    const path = route.pattern
      .replace(/\(\?P<id>[^)]*\)/, String(record?.id ?? 1))
      .replace(/\(\?P<slug>[^)]*\)/, record?.slug ?? 'x');
    const slot = /\(\?P<(?:id|slug)>[^)]*\)/;
    const withTarget = slot.test(route.pattern) ? (value: string) => route.pattern.replace(slot, value) : null;
    return route.endpoints.map((endpoint) => ({
      path,
      withTarget,
      methods: endpoint.methods,
      args: Object.keys(endpoint.args),
    }));
  });
}

/** Asserts an answer that is not a server error, and a 4xx that has the WordPress error shape. */
export function expectHandled(res: TestResponse, what: string): void {
  assert.ok(res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status < 400) return;
  assert.equal(typeof res.body?.code, 'string', `${what}: no error code in ${res.text.slice(0, 300)}`);
  assert.equal(typeof res.body?.message, 'string', `${what}: no message in ${res.text.slice(0, 300)}`);
  if (res.body.data !== null)
    assert.equal(res.body.data?.status, res.status, `${what}: data.status in ${res.text.slice(0, 300)}`);
}

/** The own names of `Object.prototype` and `Array.prototype`: compared before and after hostile requests. */
export function prototypeKeys(): string[] {
  return [...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Array.prototype)];
}

/**
 * Rows that break what every write must keep (one transaction per write): a record without its
 * post, a link to a record that is gone, a date that is not a date. Empty when consistent.
 */
export async function inconsistencies(srv: TestServer): Promise<string[]> {
  const found: string[] = [];
  const check = async (what: string, query: ReturnType<typeof sql<{ n: number | string }>>) => {
    const { rows } = await query.execute(srv.db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found.push(`${what}: ${n}`);
  };
  await check(
    'events without a post',
    sql`select count(*) as n from events e where not exists (select 1 from posts p where p.id = e.post_id)`,
  );
  await check(
    'event posts without an event',
    sql`select count(*) as n from posts p where p.type = 'event' and not exists (select 1 from events e where e.post_id = p.id)`,
  );
  await check(
    'venue links to nothing',
    sql`select count(*) as n from event_venues l where not exists (select 1 from posts p where p.id = l.venue_id)`,
  );
  await check(
    'organizer links to nothing',
    sql`select count(*) as n from event_organizers l where not exists (select 1 from posts p where p.id = l.organizer_id)`,
  );
  await check(
    'term links to nothing',
    sql`select count(*) as n from event_terms l where not exists (select 1 from terms t where t.id = l.term_id)`,
  );
  await check(
    'dates that are not dates',
    sql`select count(*) as n from posts where date not like '____-__-__ __:__:__' or date_utc not like '____-__-__ __:__:__' or modified not like '____-__-__ __:__:__'`,
  );
  await check(
    'event dates that are not dates',
    sql`select count(*) as n from events where start_date not like '____-__-__ __:__:__' or end_date not like '____-__-__ __:__:__' or utc_start_date not like '____-__-__ __:__:__'`,
  );
  return found;
}
