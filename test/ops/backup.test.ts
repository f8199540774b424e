import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { startTestServer, type TestServer } from '../support/server.js';
import { openDatabase } from '../../src/db/connect.js';
import { pendingMigrations } from '../../src/db/migrate.js';
import { daysFromNow } from '../events/helpers.js';
import { calendar } from './support.js';

/** Large posts written before the backup, so that the copy lasts long enough for writes to land while it runs. */
async function pad(srv: TestServer, posts: number): Promise<void> {
  const now = '2026-01-01 00:00:00';
  const rows = Array.from({ length: posts }, (_, i) => ({
    type: 'image' as const,
    author: 0,
    parent_id: 0,
    status: 'inherit',
    slug: '',
    title: `pad ${i}`,
    excerpt: '',
    password: '',
    description: 'x'.repeat(4000),
    date: now,
    date_utc: now,
    modified: now,
    modified_utc: now,
  }));
  for (let i = 0; i < posts; i += 200)
    await srv.db
      .insertInto('posts')
      .values(rows.slice(i, i + 200))
      .execute();
}

/** Terms whose counts disagree with their links: a copy torn between two writes could have some. */
const MISCOUNTED_TERMS = `select t.id from terms t where t.event_count <> (select count(*) from event_terms et
  join posts p on p.id = et.event_id where et.term_id = t.id and p.status = 'publish')`;

describe('calendar backup', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-backup-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a backup taken while the service writes opens, passes integrity_check, and holds every record committed before it', async () => {
    const srv = await startTestServer('sqlite');
    try {
      await pad(srv, 2000);
      const admin = await srv.user('administrator');
      const committed: number[] = [];
      let writing = true;
      const writer = async () => {
        for (let i = 0; writing; i++) {
          const json = { title: `Write ${i}`, start_date: daysFromNow(2), end_date: daysFromNow(2), tags: ['busy'] };
          const res = await srv.post('/events', { as: admin, json });
          assert.equal(res.status, 201, res.text);
          committed.push(res.body.id);
        }
      };
      const writers = [writer(), writer()];
      while (committed.length < 20) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = [...committed];
      const file = join(dir, 'busy.sqlite');
      const res = await calendar(srv.databaseUrl, 'backup', file);
      const during = committed.length - before.length;
      writing = false;
      await Promise.all(writers);
      assert.equal(res.code, 0, res.err);
      assert.match(res.out, /^backed up .*test\.sqlite to .*busy\.sqlite \(\d+ pages\)\n$/);
      assert.ok(during > 0, 'no write committed while the backup ran');

      const copy = new SQLite(file, { readonly: true, fileMustExist: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete');
        const events = new Set(copy.prepare(`select post_id from events`).pluck().all());
        for (const id of before) assert.ok(events.has(id), `event ${id}, committed before the backup, is missing`);
        const posts = copy.prepare(`select count(*) from posts where type = 'event'`).pluck().get();
        assert.equal(posts, events.size);
        assert.deepEqual(copy.prepare(MISCOUNTED_TERMS).all(), []);
      } finally {
        copy.close();
      }
      const opened = openDatabase(`sqlite:${file}`);
      try {
        assert.deepEqual(await pendingMigrations(opened.db), []);
      } finally {
        await opened.close();
      }
      assert.deepEqual(
        readdirSync(dir).filter((name) => name.includes('partial')),
        [],
      );
    } finally {
      await srv.close();
    }
  });

  it('on PostgreSQL backup refuses in one line that points to pg_dump', async () => {
    const file = join(dir, 'pg.backup');
    const res = await calendar('postgres://nobody@127.0.0.1:1/none', 'backup', file);
    assert.equal(res.code, 1);
    assert.equal(
      res.err,
      'calendar: calendar backup copies SQLite databases; back up PostgreSQL with pg_dump (pg_dump -Fc -f FILE "$DATABASE_URL", see docs/operations.md)\n',
    );
    assert.equal(existsSync(file), false);
  });

  it('backup onto the database file itself refuses, leaving the database as it was', async () => {
    const srv = await startTestServer('sqlite');
    try {
      const file = srv.databaseUrl.replace(/^sqlite:/, '');
      const res = await calendar(srv.databaseUrl, 'backup', file);
      assert.equal(res.code, 1);
      assert.equal(res.err, `calendar: ${file} is the database itself: name another file for the backup\n`);
      assert.equal((await srv.get('/events')).status, 200);
    } finally {
      await srv.close();
    }
  });

  it('backup of an SQLite file that does not exist refuses, creating neither file', async () => {
    const missing = join(dir, 'missing.sqlite');
    const file = join(dir, 'missing.backup');
    const res = await calendar(`sqlite:${missing}`, 'backup', file);
    assert.equal(res.code, 1);
    assert.match(res.err, /^calendar: cannot open the SQLite database .*missing\.sqlite: .*\n$/);
    assert.deepEqual([existsSync(missing), existsSync(file)], [false, false]);
  });
});
