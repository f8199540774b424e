import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { purgeChanges } from '../../src/resources/changes/feed.js';
import { purgeTrash } from '../../src/resources/post-like/trash.js';
import { expectRestError, forEachBackend, type TestResponse, type TestServer } from '../support/server.js';

/** The current token: the answer without `since`. */
async function currentToken(srv: TestServer): Promise<string> {
  const res = await srv.get('/changes', { as: 'administrator' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['changes', 'next_since', 'more']);
  assert.deepEqual(res.body.changes, []);
  assert.equal(res.body.more, false);
  return res.body.next_since as string;
}

/** Every change after `since`, following `next_since` page by page. */
async function changesAfter(srv: TestServer, since: string, as: 'administrator' | null = 'administrator') {
  const changes: Record<string, any>[] = [];
  for (;;) {
    const res = await srv.get('/changes', { as: as ?? undefined, query: { since, per_page: 50 } });
    assert.equal(res.status, 200, res.text);
    changes.push(...res.body.changes);
    since = res.body.next_since;
    if (!res.body.more) return { changes, since };
  }
}

const brief = (changes: Record<string, any>[]) => changes.map((c) => `${c.type} ${c.id} ${c.action}`);

async function createEvent(srv: TestServer, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await srv.post('/events', {
    as: 'administrator',
    json: { title: 'Sync', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00', ...extra },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
}

async function changeRows(srv: TestServer): Promise<number> {
  const row = await srv.db
    .selectFrom('record_changes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

forEachBackend('GET /changes', (srv) => {
  describe('GET /changes', () => {
    it('without since answers the current token, and that token then yields only later changes', async () => {
      await createEvent(srv());
      const token = await currentToken(srv());
      assert.match(token, /^c1\.[0-9a-z]+$/);
      const id = await createEvent(srv());
      const res = await srv().get('/changes', { as: 'administrator', query: { since: token } });
      assert.equal(res.status, 200);
      assert.equal(res.body.more, false);
      assert.equal(res.body.changes.length, 1);
      const [change] = res.body.changes;
      assert.deepEqual(Object.keys(change), ['type', 'id', 'action', 'modified_utc', 'rest_url']);
      assert.equal(change.type, 'event');
      assert.equal(change.id, id);
      assert.equal(change.action, 'created');
      assert.match(change.modified_utc, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.equal(change.rest_url, `${srv().root}/events/${id}`);
      assert.notEqual(res.body.next_since, token);
      const after = await srv().get('/changes', { as: 'administrator', query: { since: res.body.next_since } });
      assert.deepEqual(after.body, { changes: [], next_since: res.body.next_since, more: false });
    });

    it('an event is reported created, updated, trashed, restored, then deleted by the purge', async () => {
      const token = await currentToken(srv());
      const id = await createEvent(srv());
      assert.equal(
        (await srv().post(`/events/${id}`, { as: 'administrator', json: { title: 'Renamed' } })).status,
        200,
      );
      assert.equal((await srv().request('DELETE', `/events/${id}`, { as: 'administrator' })).status, 200);
      const restore = await srv().post(`/events/${id}`, { as: 'administrator', json: { status: 'publish' } });
      assert.equal(restore.status, 200, restore.text);
      assert.equal((await srv().request('DELETE', `/events/${id}`, { as: 'administrator' })).status, 200);
      await srv()
        .db.transaction()
        .execute((trx) => purgeTrash(trx, 0));
      const { changes } = await changesAfter(srv(), token);
      assert.deepEqual(brief(changes), [
        `event ${id} created`,
        `event ${id} updated`,
        `event ${id} trashed`,
        `event ${id} restored`,
        `event ${id} trashed`,
        `event ${id} deleted`,
      ]);
      assert.equal(changes[1].rest_url, `${srv().root}/events/${id}`);
    });

    it('venues, organizers, categories and tags are reported with their own collections', async () => {
      const token = await currentToken(srv());
      const ids: Record<string, number> = {};
      for (const [collection, body] of [
        ['venues', { venue: 'Hall' }],
        ['organizers', { organizer: 'Org' }],
        ['categories', { name: 'Jazz' }],
        ['tags', { name: 'Outdoor' }],
      ] as const) {
        const res = await srv().post(`/${collection}`, { as: 'administrator', json: body });
        assert.equal(res.status, 201, res.text);
        ids[collection] = res.body.id;
        const updated = await srv().post(`/${collection}/${res.body.id}`, {
          as: 'administrator',
          json: { description: 'More' },
        });
        assert.equal(updated.status, 200, updated.text);
        const removed = await srv().request('DELETE', `/${collection}/${res.body.id}`, { as: 'administrator' });
        assert.equal(removed.status, 200, removed.text);
      }
      const { changes } = await changesAfter(srv(), token);
      const linkedEnd = (type: string) => (type === 'venue' || type === 'organizer' ? 'trashed' : 'deleted');
      assert.deepEqual(
        brief(changes),
        (
          [
            ['venue', 'venues'],
            ['organizer', 'organizers'],
            ['category', 'categories'],
            ['tag', 'tags'],
          ] as const
        ).flatMap(([type, collection]) => [
          `${type} ${ids[collection]} created`,
          `${type} ${ids[collection]} updated`,
          `${type} ${ids[collection]} ${linkedEnd(type)}`,
        ]),
      );
      assert.equal(changes[6].rest_url, `${srv().root}/categories/${ids.categories}`);
      assert.equal(changes[9].rest_url, `${srv().root}/tags/${ids.tags}`);
    });

    it('a term created without a slug is one change, though its slug is written after its row', async () => {
      const token = await currentToken(srv());
      const res = await srv().post('/tags', { as: 'administrator', json: { name: '!!!' } });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.slug, String(res.body.id));
      assert.deepEqual(brief((await changesAfter(srv(), token)).changes), [`tag ${res.body.id} created`]);
    });

    it('anonymous callers see a draft or private change as hidden; administrators see the action', async () => {
      const token = await currentToken(srv());
      const draft = await createEvent(srv(), { status: 'draft' });
      const published = await createEvent(srv());
      await srv().post(`/events/${published}`, { as: 'administrator', json: { status: 'private' } });
      await srv().request('DELETE', `/events/${draft}`, { as: 'administrator' });
      const anonymous = await changesAfter(srv(), token, null);
      assert.deepEqual(brief(anonymous.changes), [
        `event ${draft} hidden`,
        `event ${published} created`,
        `event ${published} hidden`,
        `event ${draft} hidden`,
      ]);
      const admin = await changesAfter(srv(), token);
      assert.deepEqual(brief(admin.changes), [
        `event ${draft} created`,
        `event ${published} created`,
        `event ${published} updated`,
        `event ${draft} trashed`,
      ]);
      assert.equal(anonymous.since, admin.since, 'the positions do not depend on the caller');
    });

    it('per_page pages through the changes in order, with more until the last page', async () => {
      const token = await currentToken(srv());
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await createEvent(srv()));
      const seen: number[] = [];
      let since = token;
      const mores: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await srv().get('/changes', { query: { since, per_page: 2 } });
        assert.equal(res.status, 200);
        seen.push(...res.body.changes.map((c: { id: number }) => c.id));
        mores.push(res.body.more);
        since = res.body.next_since;
      }
      assert.deepEqual(seen, ids);
      assert.deepEqual(mores, [true, true, false]);
    });

    it('per_page above max_per_page is clamped to it', async () => {
      const token = await currentToken(srv());
      await srv().setSetting('max_per_page', '2');
      try {
        for (let i = 0; i < 3; i++) await createEvent(srv());
        const res = await srv().get('/changes', { query: { since: token, per_page: 100 } });
        assert.equal(res.body.changes.length, 2);
        assert.equal(res.body.more, true);
      } finally {
        await srv().setSetting('max_per_page', '50');
      }
    });

    for (const bad of ['', 'abc', 'c1.', 'c1.-5', 'c1.zzzzzzzzzzzz', '12']) {
      it(`since=${JSON.stringify(bad)} is rest_invalid_param not_a_sync_token`, async () => {
        const res = await srv().get('/changes', { query: { since: bad } });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): since');
        assert.equal(res.body.data.details.since.code, 'not_a_sync_token');
      });
    }

    it('per_page=0 is rest_invalid_param', async () => {
      const res = await srv().get('/changes', { query: { since: await currentToken(srv()), per_page: 0 } });
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): per_page');
    });

    it('a rejected write records no change', async () => {
      const token = await currentToken(srv());
      const rows = await changeRows(srv());
      const res = await srv().post('/events', { as: 'administrator', json: { title: 'No dates', venue: 999_999 } });
      assert.equal(res.status, 400, res.text);
      assert.equal(await changeRows(srv()), rows, 'no change row was written');
      assert.deepEqual((await changesAfter(srv(), token)).changes, []);
    });

    it('a token older than the retention answers 410 sync_token_expired; one at the horizon still works', async () => {
      const old = await currentToken(srv());
      await createEvent(srv());
      const horizon = await currentToken(srv());
      const kept = await createEvent(srv());
      // Ages every change up to the horizon past the retention period.
      const position = Number.parseInt(horizon.slice(3), 36);
      await srv()
        .db.updateTable('record_changes')
        .set({ changed_utc: '2000-01-01 00:00:00' })
        .where('token', '<=', position)
        .execute();
      const removed = await srv()
        .db.transaction()
        .execute((trx) => purgeChanges(trx, 30));
      assert.ok(removed > 0);
      expectRestError(
        await srv().get('/changes', { query: { since: old } }),
        410,
        'sync_token_expired',
        'The sync token is older than the changes kept: read every list again, then start from a new token.',
      );
      const fromHorizon = await changesAfter(srv(), horizon);
      assert.deepEqual(brief(fromHorizon.changes), [`event ${kept} created`]);
    });

    it('a client that syncs only through /changes ends with exactly the server’s records after random writes', async () => {
      const token = await currentToken(srv());
      const client = new Map<string, unknown>();
      let since = token;
      const sync = async () => {
        const { changes, since: next } = await changesAfter(srv(), since);
        for (const change of changes) {
          const key = `${change.type} ${change.id}`;
          if (change.action === 'deleted' || change.action === 'hidden') {
            client.delete(key);
            continue;
          }
          const res = await srv().get(change.rest_url, { as: 'administrator' });
          if (res.status === 200) client.set(key, res.body);
          else client.delete(key);
        }
        since = next;
      };
      let seed = 7;
      const random = (n: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        return seed % n;
      };
      const collections = [
        ['event', 'events'],
        ['venue', 'venues'],
        ['organizer', 'organizers'],
        ['category', 'categories'],
        ['tag', 'tags'],
      ] as const;
      const created: Record<string, number[]> = { event: [], venue: [], organizer: [], category: [], tag: [] };
      const createBody = (type: string, i: number) =>
        type === 'event'
          ? { title: `E${i}`, start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00' }
          : type === 'venue' || type === 'organizer'
            ? { [type]: `${type} ${i}` }
            : { name: `${type} ${i}` };
      for (let i = 0; i < 80; i++) {
        const [type, collection] = collections[random(collections.length)]!;
        const ids = created[type]!;
        const op = ids.length ? random(5) : 0;
        const id = ids[random(Math.max(ids.length, 1))];
        let res: TestResponse;
        if (op === 0) {
          res = await srv().post(`/${collection}`, { as: 'administrator', json: createBody(type, i) });
          if (res.status === 201) ids.push(res.body.id);
        } else if (op === 1) {
          res = await srv().request('DELETE', `/${collection}/${id}`, { as: 'administrator' });
        } else if (op === 2 && (type === 'event' || type === 'venue' || type === 'organizer')) {
          res = await srv().post(`/${collection}/${id}`, { as: 'administrator', json: { status: 'draft' } });
        } else {
          const field = type === 'event' ? 'title' : type === 'category' || type === 'tag' ? 'description' : type;
          res = await srv().post(`/${collection}/${id}`, { as: 'administrator', json: { [field]: `v${i}` } });
        }
        assert.ok(res.status < 500, res.text);
        if (random(10) === 0)
          await srv()
            .db.transaction()
            .execute((trx) => purgeTrash(trx, 0));
        if (random(8) === 0) await sync();
      }
      await sync();
      const server = new Map<string, unknown>();
      for (const [type, collection] of collections) {
        for (const id of created[type]!) {
          const res = await srv().get(`/${collection}/${id}`, { as: 'administrator' });
          if (res.status === 200) server.set(`${type} ${id}`, res.body);
        }
      }
      assert.ok(server.size > 10, 'the run kept records');
      assert.deepEqual(new Map([...client].sort()), new Map([...server].sort()));
    });
  });
});

forEachBackend('GET /changes with two service processes', (srv) => {
  it('a change recorded first but committed last is reported after the change committed before it', async (t) => {
    if (srv().backend !== 'postgres') return t.skip('SQLite has one writer at a time: tokens are in commit order');
    const before = await currentToken(srv());
    // A transaction that records a change first and commits last.
    const other = new pg.Client({ connectionString: srv().databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      const { rows } = await other.query<{ id: number }>(
        `insert into terms (taxonomy, name, slug, description, parent) values ('post_tag', 'Slow', 'slow', '', 0) returning id`,
      );
      const fast = await createEvent(srv());
      const first = await changesAfter(srv(), before);
      assert.deepEqual(brief(first.changes), [`event ${fast} created`], 'the open transaction is not seen');
      await other.query('commit');
      const second = await changesAfter(srv(), first.since);
      assert.deepEqual(brief(second.changes), [`tag ${rows[0]!.id} created`], 'and is seen after its commit');
    } finally {
      await other.end();
    }
  });

  it('two service instances writing at once: a reader following next_since sees every change once, in token order', async (t) => {
    if (srv().backend !== 'postgres') return t.skip('two instances on one database are a PostgreSQL deployment');
    const second = await buildApp(loadConfig({ LOG_LEVEL: 'silent', PORT: '0' }), {
      database: openDatabase(srv().databaseUrl),
      skipMigrations: true,
    });
    await second.fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = second.fastify.server.address();
    const secondRoot = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/wp-json/calendar/events/v1`;
    try {
      const start = await currentToken(srv());
      const admin = await srv().user('administrator');
      const write = (i: number) =>
        srv().post(i % 2 ? `${secondRoot}/events` : '/events', {
          as: admin,
          json: { title: `Both ${i}`, start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00' },
        });
      const seen: Record<string, any>[] = [];
      let since = start;
      let writing = true;
      const reader = (async () => {
        while (writing) {
          const page = await changesAfter(srv(), since);
          seen.push(...page.changes);
          since = page.since;
        }
      })();
      const created: number[] = [];
      for (let i = 0; i < 60; i += 12) {
        const batch = await Promise.all(Array.from({ length: 12 }, (_, j) => write(i + j)));
        for (const res of batch) {
          assert.equal(res.status, 201, res.text);
          created.push(res.body.id);
        }
      }
      writing = false;
      await reader;
      seen.push(...(await changesAfter(srv(), since)).changes);
      const all = (await changesAfter(srv(), start)).changes;
      assert.deepEqual(brief(seen), brief(all), 'the reader saw what a later full read sees, in the same order');
      assert.deepEqual(
        seen.map((c) => c.id).sort((a, b) => a - b),
        created.sort((a, b) => a - b),
      );
    } finally {
      await second.close();
    }
  });
});
