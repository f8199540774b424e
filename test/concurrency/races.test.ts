import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { forEachBackend, type TestResponse, type TestServer } from '../support/server.js';

/**
 * Races of concurrent writes (style.md rule 10): each sends many requests at once, then probes the
 * database for the outcome a serial order gives: no duplicates, no dropped links, exactly one
 * successful delete, and never a 5xx.
 */

/** Runs `n` requests, `at` at a time. */
async function together(n: number, at: number, send: (i: number) => Promise<TestResponse>): Promise<TestResponse[]> {
  const out: TestResponse[] = [];
  for (let i = 0; i < n; i += at)
    out.push(...(await Promise.all(Array.from({ length: Math.min(at, n - i) }, (_, j) => send(i + j)))));
  return out;
}

function statuses(responses: TestResponse[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of responses) {
    const key = `${r.status}${r.status >= 400 ? ` ${r.body?.code}` : ''}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

function event(srv: TestServer, extra: Record<string, unknown>) {
  return srv.post('/events', {
    as: 'administrator',
    json: { title: 'Race', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00', ...extra },
  });
}

async function count(srv: TestServer, query: ReturnType<typeof sql<{ n: number | string }>>): Promise<number> {
  const { rows } = await query.execute(srv.db);
  return Number(rows[0]?.n ?? 0);
}

forEachBackend('Concurrent writes reach the serial outcome', (srv) => {
  before(async () => {
    await srv().user('administrator');
  });

  it('64 event creates naming one new category all link it, and one category exists', async () => {
    const responses = await together(64, 16, () => event(srv(), { categories: ['Brand new category'] }));
    assert.deepEqual(statuses(responses), { 201: 64 });
    const ids = new Set(responses.map((r) => r.body.categories.map((c: { id: number }) => c.id).join()));
    assert.equal(ids.size, 1, 'every answer names the same single category');
    assert.equal(
      await count(
        srv(),
        sql`select count(*) as n from terms where taxonomy = 'tribe_events_cat' and lower(name) = 'brand new category'`,
      ),
      1,
    );
    const linked = await count(
      srv(),
      sql`select count(*) as n from event_terms l join terms t on t.id = l.term_id where lower(t.name) = 'brand new category'`,
    );
    assert.equal(linked, 64);
  });

  it('32 event creates of one title get distinct slugs: race, race-2, race-3, …', async () => {
    const responses = await together(32, 16, () => event(srv(), { title: 'Same title' }));
    assert.deepEqual(statuses(responses), { 201: 32 });
    const slugs = responses.map((r) => r.body.slug as string);
    assert.equal(new Set(slugs).size, 32);
    assert.equal(
      await count(srv(), sql`select count(*) - count(distinct slug) as n from posts where type = 'event'`),
      0,
    );
    assert.ok(slugs.includes('same-title') && slugs.includes('same-title-32'), slugs.sort().join());
  });

  for (const kind of ['venue', 'organizer'] as const) {
    it(`16 creates of a ${kind} with one name reuse one record (the reuse-by-name rule)`, async () => {
      const name = `Same ${kind} name`;
      const responses = await together(16, 16, () =>
        srv().post(`/${kind}s`, { as: 'administrator', json: { [kind]: name } }),
      );
      assert.deepEqual(statuses(responses), { 201: 16 });
      assert.equal(new Set(responses.map((r) => r.body.id)).size, 1);
      assert.equal(
        await count(srv(), sql`select count(*) as n from posts where type = ${kind} and title = ${name}`),
        1,
      );
    });

    it(`16 event creates with one new inline ${kind} link one record`, async () => {
      const name = `Inline ${kind} name`;
      const responses = await together(16, 16, () => event(srv(), { [kind]: { [kind]: name } }));
      assert.deepEqual(statuses(responses), { 201: 16 });
      assert.equal(
        await count(srv(), sql`select count(*) as n from posts where type = ${kind} and title = ${name}`),
        1,
      );
    });

    it(`16 deletes of one ${kind} at once: exactly one 200, the rest 410`, async () => {
      const made = await srv().post(`/${kind}s`, { as: 'administrator', json: { [kind]: `Doomed ${kind}` } });
      assert.equal(made.status, 201);
      const responses = await together(16, 16, () =>
        srv().request('DELETE', `/${kind}s/${made.body.id}`, { as: 'administrator' }),
      );
      assert.deepEqual(statuses(responses), { 200: 1, [`410 ${kind}-is-in-trash`]: 15 });
    });
  }

  for (const collection of ['categories', 'tags'] as const) {
    it(`16 creates of ${collection} with one name: one 201, the rest 400 term_exists naming it`, async () => {
      const name = `Same ${collection} name`;
      const responses = await together(16, 16, () =>
        srv().post(`/${collection}`, { as: 'administrator', json: { name } }),
      );
      assert.deepEqual(statuses(responses), { 201: 1, '400 term_exists': 15 });
      const id = responses.find((r) => r.status === 201)!.body.id;
      for (const r of responses.filter((x) => x.status === 400)) assert.equal(r.body.data.term_id, id);
      assert.equal(await count(srv(), sql`select count(*) as n from terms where name = ${name}`), 1);
    });
  }

  it('deleting a tag while 15 events link it: every answer is 2xx, and no link points at nothing', async () => {
    const first = await event(srv(), { tags: ['Doomed tag'] });
    const tagId = first.body.tags[0].id;
    const responses = await Promise.all([
      srv().request('DELETE', `/tags/${tagId}`, { as: 'administrator', query: { force: 'true' } }),
      ...Array.from({ length: 15 }, () => event(srv(), { tags: [tagId] })),
    ]);
    assert.deepEqual(statuses(responses), { 200: 1, 201: 15 });
    assert.equal(await count(srv(), sql`select count(*) as n from terms where id = ${tagId}`), 0);
    assert.equal(await count(srv(), sql`select count(*) as n from event_terms where term_id = ${tagId}`), 0);
  });

  it('16 deletes of one event at once: exactly one 200, the rest 410 event-is-in-trash', async () => {
    const made = await event(srv(), {});
    const responses = await together(16, 16, () =>
      srv().request('DELETE', `/events/${made.body.id}`, { as: 'administrator' }),
    );
    assert.deepEqual(statuses(responses), { 200: 1, '410 event-is-in-trash': 15 });
  });

  it('32 concurrent updates of one event: each answer shows its own title', async () => {
    const made = await event(srv(), {});
    const responses = await together(32, 16, (i) =>
      srv().post(`/events/${made.body.id}`, { as: 'administrator', json: { title: `Title ${i}` } }),
    );
    assert.deepEqual(statuses(responses), { 200: 32 });
    responses.forEach((r, i) => assert.equal(r.body.title, `Title ${i}`));
  });

  it('16 concurrent updates of one venue: each answer shows its own city', async () => {
    const made = await srv().post('/venues', { as: 'administrator', json: { venue: 'Updated hall' } });
    const responses = await together(16, 16, (i) =>
      srv().post(`/venues/${made.body.id}`, { as: 'administrator', json: { city: `City ${i}` } }),
    );
    assert.deepEqual(statuses(responses), { 200: 16 });
    responses.forEach((r, i) => assert.equal(r.body.city, `City ${i}`));
  });
});

forEachBackend('PostgreSQL writes that conflict are run again', (srv) => {
  const conflict = (code: string) => Object.assign(new Error(`conflict ${code}`), { code });

  it('a write failing with a deadlock, a serialization failure or a unique violation is run again whole until it succeeds', async (t) => {
    if (srv().backend !== 'postgres') return t.skip('SQLite runs one write at a time: nothing conflicts');
    let runs = 0;
    const value = await srv().built.app.transact(async (trx) => {
      runs++;
      await sql`insert into settings (name, value) values (${`retry-probe-${runs}`}, 'x')`.execute(trx);
      if (runs < 4) throw conflict(['40P01', '40001', '23505'][runs - 1]!);
      return runs;
    });
    assert.equal(value, 4);
    // The rolled-back runs left nothing: only the fourth run's row is there.
    const rows = await srv().db.selectFrom('settings').select('name').where('name', 'like', 'retry-probe-%').execute();
    assert.deepEqual(
      rows.map((r) => r.name),
      ['retry-probe-4'],
    );
  });

  it('a write that keeps conflicting is 503 rest_write_conflict with Retry-After, and other errors are not retried', async (t) => {
    if (srv().backend !== 'postgres') return t.skip('SQLite runs one write at a time: nothing conflicts');
    let runs = 0;
    await assert.rejects(
      srv().built.app.transact(async () => {
        runs++;
        throw conflict('40001');
      }),
      (err: { code?: string; status?: number; headers?: Record<string, string> }) =>
        err.code === 'rest_write_conflict' && err.status === 503 && err.headers?.['Retry-After'] === '1',
    );
    assert.equal(runs, 5);
    runs = 0;
    await assert.rejects(
      srv().built.app.transact(async () => {
        runs++;
        throw conflict('22P02');
      }),
      /conflict 22P02/,
    );
    assert.equal(runs, 1);
  });
});
