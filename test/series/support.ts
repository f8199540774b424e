import assert from 'node:assert/strict';
import type { Role } from '../../src/auth/roles.js';
import type { Credentials, TestServer } from '../support/server.js';
import { rowCount, tableCounts } from '../events/helpers.js';

/** A window that holds every series of these tests (the list's default window ends 24 months ahead). */
export const WIDE = { start_date: '2026-01-01', end_date: '2031-12-31' };

/** Creates a series over HTTP and returns the first event; fails the test unless 201. */
export async function makeSeries(
  srv: TestServer,
  fields: Record<string, unknown>,
  as: Role | Credentials = 'administrator',
) {
  const res = await srv.post('/events', { as, json: { title: 'A series', ...fields } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** The occurrences of a series (`post_parent`), every page, in start order, as anonymous callers see them. */
export async function occurrences(srv: TestServer, parentId: number, query: Record<string, string> = {}) {
  const events: any[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const res = await srv.get('/events', { query: { ...WIDE, post_parent: parentId, per_page: 50, page, ...query } });
    if (res.status === 404 && page > 1) break;
    assert.equal(res.status, 200, res.text);
    total = Number(res.headers.get('x-wp-total'));
    events.push(...res.body.events);
    if (events.length >= total) break;
  }
  assert.equal(events.length, total, 'X-WP-Total counts every occurrence listed');
  return events;
}

/** Rows of the event and series tables: what a refused write must leave unchanged. */
export async function seriesCounts(srv: TestServer) {
  return {
    ...(await tableCounts(srv)),
    event_series: await rowCount(srv, 'event_series'),
    event_series_members: await rowCount(srv, 'event_series_members'),
  };
}
