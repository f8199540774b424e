import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { createAppPassword } from '../../src/auth/app-passwords.js';
import { insertUser } from '../../src/auth/users.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { backends, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  method: string;
  status: number;
  code?: string;
  retryAfter: string | null;
  id?: number;
  title?: string;
}

/** During an outage a request is answered, or refused with the WordPress body and Retry-After; never 500. */
function assertAnsweredOrUnavailable(answers: Answer[]): void {
  for (const a of answers) {
    if (a.status === 200 || a.status === 201) continue;
    assert.equal(a.status, 503, `${a.method} answered ${a.status} ${a.code ?? ''}`);
    assert.equal(a.code, 'rest_database_unavailable');
    assert.match(a.retryAfter ?? '', /^[1-9]\d*$/);
  }
}

function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.method} ${a.status}`] = (counts[`${a.method} ${a.status}`] ?? 0) + 1;
  return counts;
}

async function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const parsed = (await res.json().catch(() => undefined)) as
    { code?: string; id?: number; title?: string } | undefined;
  return {
    method,
    status: res.status,
    code: parsed?.code,
    retryAfter: res.headers.get('retry-after'),
    id: parsed?.id,
    title: parsed?.title,
  };
}

/** Workers that create an event and read a list, one after the other, until stopped. */
function startLoad(root: string, authorization: string, workers: number) {
  const answers: (Answer & { at: number })[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const title = `Load ${n++}`;
      const created = await send(
        `${root}/events`,
        'POST',
        { authorization },
        { title, start_date: '2031-03-04 10:00:00', end_date: '2031-03-04 11:00:00', status: 'publish' },
      );
      answers.push({ ...created, title, at: Date.now() });
      answers.push({ ...(await send(`${root}/events?per_page=5`, 'GET', {})), at: Date.now() });
    }
  });
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function sparePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  return typeof address === 'object' && address ? address.port : 0;
}

async function waitForHttp(url: string, ms: number): Promise<void> {
  for (const until = Date.now() + ms; ;) {
    try {
      await fetch(url);
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await sleep(100);
    }
  }
}

function expectUnavailable(res: TestResponse | Response, body: { code?: string; data?: { status?: number } }): void {
  assert.equal(res.status, 503);
  assert.equal(body.code, 'rest_database_unavailable');
  assert.equal(body.data?.status, 503);
  assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
}

if (backends.includes('postgres')) {
  describe('PostgreSQL connections lost [postgres]', () => {
    let srv: TestServer;
    /** Terminates the service's own backends; returns how many were. */
    const terminate = async (): Promise<number> => {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        const { rows } = await admin.query(
          'select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = $1',
          [srv.applicationName],
        );
        return rows.length;
      } finally {
        await admin.end();
      }
    };
    // In a server of its own, an error event nobody handles would end the process.
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    before(async () => {
      process.on('uncaughtException', onUncaught);
      srv = await startTestServer('postgres');
    });
    after(async () => {
      process.off('uncaughtException', onUncaught);
      await srv.close();
    });
    afterEach(() => {
      assert.deepEqual(uncaught.map(String), []);
    });

    it('connections killed while idle are replaced: the process lives on and the next requests answer 200', async () => {
      await Promise.all(Array.from({ length: 5 }, () => srv.get('/events')));
      assert.ok((await terminate()) > 0, 'no connection of the service to terminate');
      await sleep(200);
      for (let i = 0; i < 10; i++) assert.equal((await srv.get('/events')).status, 200);
      const health = await srv.get(`${srv.origin}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { status: 'ok' });
    });

    it('connections killed under load: each answer is 200, 201 or 503 rest_database_unavailable with Retry-After, and every 201 is stored', async (t) => {
      const editor = await srv.user('editor');
      const load = startLoad(`${srv.origin}/wp-json/calendar/events/v1`, editor.header, 6);
      let killed = 0;
      for (let i = 0; i < 8; i++) {
        await sleep(150);
        killed += await terminate();
      }
      await load.stop();
      t.diagnostic(`terminated ${killed} connections; answers ${JSON.stringify(tally(load.answers))}`);
      assert.ok(killed > 0);
      assertAnsweredOrUnavailable(load.answers);

      const created = await srv.post('/events', {
        as: editor,
        json: { title: 'After the kills', start_date: '2031-03-05 10:00:00', end_date: '2031-03-05 11:00:00' },
      });
      assert.equal(created.status, 201);
      assert.equal((await srv.get('/events', { query: { per_page: 5 } })).status, 200);
      const acknowledged = load.answers.filter((a) => a.status === 201);
      assert.ok(acknowledged.length > 0);
      const stored = await srv.db
        .selectFrom('posts')
        .select(['id', 'title'])
        .where('title', 'like', 'Load %')
        .execute();
      const byId = new Map(stored.map((row) => [row.id, row.title]));
      for (const a of acknowledged)
        assert.equal(byId.get(a.id!), a.title, `acknowledged event ${a.id} (${a.title}) is not stored`);
    });
  });

  describe('PostgreSQL restart [postgres]', () => {
    it('a stopped database: 503 rest_database_unavailable with Retry-After and /healthz 503; started again, the service recovers by itself and keeps every 201', async (t) => {
      const cluster = await startPrivateCluster();
      if (typeof cluster === 'string') {
        t.skip(cluster);
        return;
      }
      let child: ChildProcess | undefined;
      let output = '';
      try {
        const port = await sparePort();
        const origin = `http://127.0.0.1:${port}`;
        const root = `${origin}/wp-json/calendar/events/v1`;
        const password = 'abcd efgh ijkl mnop qrst uvwx';
        child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
          env: {
            ...process.env,
            DATABASE_URL: cluster.url,
            PORT: String(port),
            LOG_LEVEL: 'warn',
            CALENDAR_ADMIN_USER: 'admin',
            CALENDAR_ADMIN_APP_PASSWORD: password,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout!.on('data', (d) => (output += String(d)));
        child.stderr!.on('data', (d) => (output += String(d)));
        await waitForHttp(root, 30_000);
        const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

        const load = startLoad(root, authorization, 4);
        await sleep(500);
        const stopped = Date.now();
        await cluster.pgCtl('stop', '-m', 'fast');
        await sleep(1000);
        const health = await fetch(`${origin}/healthz`);
        const healthBody = (await health.json()) as { status?: string; message?: string };
        const duringOutage = await fetch(`${root}/events`);
        expectUnavailable(duringOutage, (await duringOutage.json()) as { code?: string });
        const restarting = Date.now();
        await cluster.pgCtl('start');
        const started = Date.now();
        let recovered = 0;
        for (const until = Date.now() + 15_000; !recovered && Date.now() < until; await sleep(20)) {
          recovered = load.answers.find((a) => a.at > started && a.status === 201)?.at ?? 0;
        }
        await sleep(500);
        await load.stop();
        const outage = load.answers.filter((a) => a.at > stopped && a.at < started);
        t.diagnostic(
          `outage answers ${JSON.stringify(tally(outage))}; all answers ${JSON.stringify(tally(load.answers))}; ` +
            `database start took ${started - restarting} ms, first 201 ${recovered ? recovered - started : 'never'} ms after it`,
        );

        assert.equal(health.status, 503);
        assert.equal(healthBody.status, 'database_unavailable');
        assert.equal(typeof healthBody.message, 'string');
        assert.equal(child.exitCode, null, `the service exited: ${output}`);
        assertAnsweredOrUnavailable(load.answers);
        assert.ok(
          outage.some((a) => a.status === 503),
          'no 503 while the database was down',
        );
        assert.ok(recovered > 0, 'no write succeeded after the database came back');
        const healthAfter = await fetch(`${origin}/healthz`);
        assert.equal(healthAfter.status, 200);
        assert.deepEqual(await healthAfter.json(), { status: 'ok' });
        assert.equal((await send(`${root}/events?per_page=5`, 'GET', {})).status, 200);

        const probe = new pg.Client({ connectionString: cluster.url });
        await probe.connect();
        try {
          const { rows } = await probe.query<{ id: number; title: string }>(
            "select id, title from posts where title like 'Load %'",
          );
          const byId = new Map(rows.map((row) => [Number(row.id), row.title]));
          for (const a of load.answers.filter((answer) => answer.status === 201)) {
            assert.equal(byId.get(a.id!), a.title, `acknowledged event ${a.id} (${a.title}) is not stored`);
          }
        } finally {
          await probe.end();
        }
      } finally {
        if (child && child.exitCode === null) {
          child.kill('SIGTERM');
          await once(child, 'exit');
        }
        await cluster.remove();
      }
    });
  });
}

interface Cluster {
  url: string;
  pgCtl(...args: string[]): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory on a spare port; a string says
 * why none could be started. PostgreSQL refuses to run as root, so under root it runs as `postgres`.
 */
async function startPrivateCluster(): Promise<Cluster | string> {
  if (!existsSync(join(PG_BIN, 'initdb'))) return `no PostgreSQL server binaries in ${PG_BIN}`;
  const asRoot = process.getuid?.() === 0;
  let prefix: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'calendar-pg-'));
  if (asRoot) {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (uid.status !== 0 || !existsSync('/usr/sbin/runuser')) {
      rmSync(dir, { recursive: true, force: true });
      return 'running as root without a postgres user and runuser: PostgreSQL cannot be started';
    }
    chownSync(dir, Number(uid.stdout), Number(gid.stdout));
    prefix = ['/usr/sbin/runuser', '-u', 'postgres', '--'];
  }
  const exec = (command: string, args: string[]) =>
    run(prefix[0] ?? command, [...prefix.slice(1), ...(prefix.length ? [command] : []), ...args], { timeout: 30_000 });
  const port = await sparePort();
  const data = join(dir, 'data');
  try {
    await exec(join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return `initdb failed: ${(err as Error).message.split('\n')[0]}`;
  }
  const pgCtl = async (...args: string[]) => {
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await exec(join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '20', '-o', options, ...args]);
  };
  await pgCtl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pgCtl,
    remove: async () => {
      await pgCtl('stop', '-m', 'immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (backends.includes('sqlite')) {
  describe('SQLite writes that fail [sqlite]', () => {
    let srv: TestServer;
    before(async () => {
      srv = await startTestServer('sqlite');
    });
    after(async () => {
      await srv.close();
    });

    /** The disk is full: the service's connection may not grow the file past its size now. */
    const fillDisk = async () => {
      const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(srv.db);
      await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(srv.db);
    };
    const freeDisk = () => sql.raw('pragma max_page_count = 2147483646').execute(srv.db);
    const bigEvent = (title: string) => ({
      title,
      description: 'x'.repeat(40_000),
      start_date: '2031-05-06 10:00:00',
      end_date: '2031-05-06 11:00:00',
      status: 'publish',
    });

    it('a write on a full disk fails with SQLITE_FULL itself, not with the rollback that follows it', async () => {
      await fillDisk();
      try {
        await assert.rejects(
          srv.built.app.transact((trx) =>
            sql`insert into settings (name, value) values ('fault_probe', ${'x'.repeat(40_000)})`.execute(trx),
          ),
          { code: 'SQLITE_FULL' },
        );
      } finally {
        await freeDisk();
      }
    });

    it('writes on a full disk answer 507 rest_insufficient_storage and store nothing; reads answer 200; /healthz reports the failing writes until a write succeeds', async () => {
      const editor = await srv.user('editor');
      await fillDisk();
      try {
        const answers = await Promise.all(
          [1, 2, 3].map((i) => srv.post('/events', { as: editor, json: bigEvent(`Full ${i}`) })),
        );
        for (const res of answers) {
          assert.equal(res.status, 507, res.text);
          assert.equal(res.body.code, 'rest_insufficient_storage');
          assert.equal(res.body.data.status, 507);
          assert.equal(typeof res.body.message, 'string');
        }
        assert.equal((await srv.get('/events')).status, 200);
        const health = await srv.get(`${srv.origin}/healthz`);
        assert.equal(health.status, 503);
        assert.equal(health.body.status, 'writes_failing');
        assert.equal(health.body.code, 'SQLITE_FULL');
        assert.ok(!Number.isNaN(Date.parse(health.body.since)), health.text);
        const stored = await srv.db.selectFrom('posts').select('id').where('title', 'like', 'Full %').execute();
        assert.deepEqual(stored, []);
      } finally {
        await freeDisk();
      }
      const created = await srv.post('/events', { as: editor, json: bigEvent('Room again') });
      assert.equal(created.status, 201);
      const health = await srv.get(`${srv.origin}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { status: 'ok' });
    });
  });

  describe('SQLite start-up on a database that refuses writes [sqlite]', () => {
    it('starts anyway: reads answer 200, writes 503 rest_database_write_failed with Retry-After, /healthz reports it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'calendar-faults-'));
      const handle = openDatabase(`sqlite:${join(dir, 'test.sqlite')}`);
      try {
        await migrateToLatest(handle.db);
        const { id } = await handle.db.transaction().execute(async (trx) => {
          const userId = await insertUser(trx, { login: 'writer', role: 'editor' });
          return { id: userId, ...(await createAppPassword(trx, userId, 'tests', 'abcd efgh ijkl mnop')) };
        });
        assert.ok(id > 0);
        // Every write of this connection now fails with SQLITE_READONLY: the start-up writes
        // (migrations' lock, statistics, the bootstrap administrator) included.
        await sql`pragma query_only = 1`.execute(handle.db);
        const config = loadConfig({
          LOG_LEVEL: 'silent',
          PORT: '0',
          CALENDAR_ADMIN_USER: 'admin',
          CALENDAR_ADMIN_APP_PASSWORD: 'abcd efgh ijkl mnop',
        });
        const built = await buildApp(config, { database: handle });
        try {
          await built.fastify.listen({ port: 0, host: '127.0.0.1' });
          const address = built.fastify.server.address();
          const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
          const root = `${origin}/wp-json/calendar/events/v1`;
          assert.equal((await fetch(`${root}/events`)).status, 200);
          const authorization = `Basic ${Buffer.from('writer:abcd efgh ijkl mnop').toString('base64')}`;
          const write = await fetch(`${root}/events`, {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify({
              title: 'Read-only',
              start_date: '2031-05-06 10:00:00',
              end_date: '2031-05-06 11:00:00',
            }),
          });
          const body = (await write.json()) as { code: string; data: { status: number } };
          assert.equal(write.status, 503);
          assert.equal(body.code, 'rest_database_write_failed');
          assert.equal(body.data.status, 503);
          assert.match(write.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
          const health = await fetch(`${origin}/healthz`);
          const healthBody = (await health.json()) as { status: string; code: string };
          assert.equal(health.status, 503);
          assert.equal(healthBody.status, 'writes_failing');
          assert.equal(healthBody.code, 'SQLITE_READONLY');
          await sql`pragma query_only = 0`.execute(handle.db);
          assert.deepEqual(
            await handle.db.selectFrom('posts').select('id').where('title', '=', 'Read-only').execute(),
            [],
          );
        } finally {
          await built.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses to start when migrations are pending and cannot be applied, saying so', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'calendar-faults-'));
      const handle = openDatabase(`sqlite:${join(dir, 'test.sqlite')}`);
      try {
        await sql`pragma query_only = 1`.execute(handle.db);
        await assert.rejects(
          buildApp(loadConfig({ LOG_LEVEL: 'silent', PORT: '0' }), { database: handle }),
          /migrations .*SQLITE_READONLY|SQLITE_READONLY.*migrations/i,
        );
      } finally {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('An SQLite database that cannot be opened [sqlite]', () => {
    it('calendar serve exits 1 with one line naming the file and DATABASE_URL', async () => {
      // /sys is mounted read-only: no file can be created there, even by root.
      const url = 'sqlite:/sys/calendar-faults.sqlite';
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
        env: { ...process.env, DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += String(d)));
      const [code] = await once(child, 'exit');
      assert.equal(code, 1, stderr);
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0]!, /^calendar: cannot open the SQLite database \/sys\/calendar-faults\.sqlite /);
      assert.match(lines[0]!, /DATABASE_URL/);
    });

    it('a directory that cannot be created is named the same way', () => {
      assert.throws(
        () => openDatabase('sqlite:/sys/calendar-faults/test.sqlite'),
        (err: Error) => {
          assert.match(err.message, /^cannot open the SQLite database \/sys\/calendar-faults\/test\.sqlite /);
          assert.match(err.message, /DATABASE_URL/);
          return true;
        },
      );
    });
  });
}
