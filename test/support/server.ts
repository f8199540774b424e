import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { buildApp, type BuiltApp, type LogStream } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Backend, type DatabaseHandle } from '../../src/db/connect.js';
import { SCHEMA_CHANGE_LOCK_KEY, migrateToLatest } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/tables.js';
import { createAppPassword } from '../../src/auth/app-passwords.js';
import { insertUser } from '../../src/auth/users.js';
import type { Role } from '../../src/auth/roles.js';
import { writeSetting, type SettingName } from '../../src/settings.js';

/** The backends this run covers (scripts/test.mjs sets TEST_BACKENDS). */
export const backends: Backend[] = (process.env.TEST_BACKENDS ?? 'sqlite').split(',').filter(Boolean) as Backend[];
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Credentials {
  id: number;
  login: string;
  password: string;
  header: string;
}

export interface RequestOptions {
  /** A role name (a user with that role is created once per server) or explicit credentials. */
  as?: Role | Credentials;
  query?: Record<string, string | number | boolean | Array<string | number>>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent form-encoded (a raw string, or an object encoded with URLSearchParams). */
  form?: string | Record<string, string>;
  /** Raw body with its own content type header. */
  body?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface TestServer {
  backend: Backend;
  origin: string;
  /** `{origin}/wp-json` */
  base: string;
  /** `{origin}/wp-json/calendar/events/v1` */
  root: string;
  db: Kysely<Database>;
  /** A DATABASE_URL naming this server's database (for the CLI). */
  databaseUrl: string;
  /** PostgreSQL: the `application_name` of the server's connections, its own (to find them in `pg_stat_activity`). */
  applicationName?: string;
  built: BuiltApp;
  config: Config;
  /** `path` is relative to the namespace root (`/events`), or an absolute URL (`${srv.origin}/healthz`). */
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  get(path: string, opts?: RequestOptions): Promise<TestResponse>;
  post(path: string, opts?: RequestOptions): Promise<TestResponse>;
  /** Credentials of a user with the role (created on first use); `user(role, login)` for a second one. */
  user(role: Role, login?: string): Promise<Credentials>;
  setSetting(name: SettingName, value: string): Promise<void>;
  close(): Promise<void>;
}

async function openTestDatabase(
  backend: Backend,
): Promise<{ handle: DatabaseHandle; url: string; applicationName?: string; drop: () => Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-test-'));
    const url = `sqlite:${join(dir, 'test.sqlite')}`;
    const handle = openDatabase(url);
    return { handle, url, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  // Every PostgreSQL test server gets a schema of its own, so runs never collide.
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const applicationName = `calendar-test-${schema}`;
  const handle = openDatabase(PG_URL, { schema, poolSize: 5, applicationName });
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    handle,
    url,
    applicationName,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`select pg_advisory_lock(${SCHEMA_CHANGE_LOCK_KEY})`);
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

/** `logStream`: where the server's log lines go (give `LOG_LEVEL` in `env` too; the default is `silent`). */
export async function startTestServer(
  backend: Backend,
  env: Record<string, string> = {},
  logStream?: LogStream,
): Promise<TestServer> {
  const { handle, url: databaseUrl, applicationName, drop } = await openTestDatabase(backend);
  await migrateToLatest(handle.db);
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', ...env });
  const built = await buildApp(config, { database: handle, skipMigrations: true, logStream });
  await built.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = built.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  if (!env.SITE_URL) config.siteUrl = `http://localhost:${port}`;
  const users = new Map<string, Credentials>();

  const user = async (role: Role, login: string = role): Promise<Credentials> => {
    const key = `${role}:${login}`;
    const known = users.get(key);
    if (known) return known;
    const created = await handle.db.transaction().execute(async (trx) => {
      const id = await insertUser(trx, { login, role, email: `${login}@example.org` });
      const { password } = await createAppPassword(trx, id, 'tests');
      return { id, password };
    });
    const creds = {
      id: created.id,
      login,
      password: created.password,
      header: `Basic ${Buffer.from(`${login}:${created.password}`).toString('base64')}`,
    };
    users.set(key, creds);
    return creds;
  };

  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> => {
    // Absolute URLs as they are; anything else is relative to the namespace root.
    const url = new URL(path.startsWith('http') ? path : `${origin}/wp-json/calendar/events/v1${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.as) headers.authorization = (typeof opts.as === 'string' ? await user(opts.as) : opts.as).header;
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    } else if (opts.form !== undefined) {
      body = typeof opts.form === 'string' ? opts.form : new URLSearchParams(opts.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (opts.body !== undefined) body = opts.body;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };

  return {
    backend,
    origin,
    base: `${config.siteUrl}/wp-json`,
    root: `${config.siteUrl}/wp-json/calendar/events/v1`,
    db: handle.db,
    databaseUrl,
    applicationName,
    built,
    config,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, opts) => request('POST', path, opts),
    user,
    setSetting: async (name, value) => {
      await writeSetting(handle.db, name, value);
      built.app.settings.invalidate();
    },
    close: async () => {
      await built.close();
      await drop();
    },
  };
}

/**
 * Declares a suite once per backend with a fresh server (and database) per backend:
 * `forEachBackend('GET /events', (srv) => { it('…', async () => { await srv().get('/events') }) })`.
 */
export function forEachBackend(
  name: string,
  body: (server: () => TestServer) => void,
  env: Record<string, string> = {},
): void {
  for (const backend of backends) {
    describe(`${name} [${backend}]`, () => {
      let server: TestServer | undefined;
      before(async () => {
        server = await startTestServer(backend, env);
      });
      after(async () => {
        await server?.close();
      });
      body(() => {
        assert.ok(server, 'test server not started');
        return server;
      });
    });
  }
}

/** Asserts a WordPress error body `{code, message, data: {status}}` with the given status and code. */
export function expectRestError(res: TestResponse, status: number, code: string, message?: string | RegExp): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${res.text}`);
  assert.equal(res.body?.code, code, `expected code ${code}, got ${res.text}`);
  assert.equal(typeof res.body?.message, 'string');
  assert.equal(res.body?.data?.status, status);
  if (message instanceof RegExp) assert.match(res.body.message, message);
  else if (message !== undefined) assert.equal(res.body.message, message);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
}

/**
 * Sends an event create as `credentials` and abandons it once the service is handling it: the
 * client goes away before the answer. A credential's first use is checked by a slow hash (~0.1 s),
 * so the request is still being handled then.
 */
export async function abandonEventCreate(
  srv: TestServer,
  credentials: Credentials,
  title: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const client = new AbortController();
  const sent = fetch(`${srv.origin}/wp-json/calendar/events/v1/events`, {
    method: 'POST',
    headers: { authorization: credentials.header, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ title, start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' }),
    signal: client.signal,
  }).catch(() => 'gone');
  for (const until = Date.now() + 5000; srv.built.inFlight.count() === 0;) {
    assert.ok(Date.now() < until, 'the request never reached the dispatcher');
    await new Promise((r) => setTimeout(r, 2));
  }
  client.abort();
  assert.equal(await sent, 'gone');
}
