import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';

function cli(srv: TestServer, ...argv: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
    env: { ...process.env, DATABASE_URL: srv.databaseUrl },
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

/** Runs a command that must succeed; its stderr explains a failure. */
function ok(srv: TestServer, ...argv: string[]): string {
  const res = cli(srv, ...argv);
  assert.equal(res.code, 0, `calendar ${argv.join(' ')} failed: ${res.err}`);
  return res.out;
}

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

forEachBackend('calendar CLI', (srv) => {
  it('user create / list / set-role / delete manage users', () => {
    const created = cli(srv(), 'user', 'create', 'alice', '--role', 'editor', '--email', 'alice@example.org');
    assert.equal(created.code, 0, created.err);
    assert.match(created.out, /created user alice \(id \d+, editor\)/);
    assert.match(ok(srv(), 'user', 'list'), /\talice\teditor\talice@example\.org\tenabled/);
    const dup = cli(srv(), 'user', 'create', 'alice', '--role', 'editor');
    assert.equal(dup.code, 1);
    assert.match(dup.err, /already exists/);
    const badRole = cli(srv(), 'user', 'create', 'bob', '--role', 'king');
    assert.notEqual(badRole.code, 0);
    assert.match(badRole.err, /king/);
    ok(srv(), 'user', 'set-role', 'alice', 'author');
    assert.match(ok(srv(), 'user', 'list'), /\talice\tauthor\t/);
    ok(srv(), 'user', 'delete', 'alice');
    assert.doesNotMatch(ok(srv(), 'user', 'list'), /alice/);
    const missing = cli(srv(), 'user', 'delete', 'alice');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no user with login "alice"/);
  });

  it('app-password create prints the password alone on the last line, and it authenticates', async () => {
    ok(srv(), 'user', 'create', 'carol', '--role', 'administrator');
    const created = cli(srv(), 'app-password', 'create', 'carol', '--name', 'laptop');
    assert.equal(created.code, 0, created.err);
    const lines = created.out.trim().split('\n');
    const password = lines[lines.length - 1]!;
    assert.match(password, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const res = await srv().get('/', { headers: { authorization: basic('carol', password) } });
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('cache-control'));

    assert.match(ok(srv(), 'app-password', 'list', 'carol'), /\tlaptop\tcreated /);
    const again = cli(srv(), 'app-password', 'create', 'carol', '--name', 'LAPTOP');
    assert.equal(again.code, 1);
    assert.match(again.err, /already exists/);

    ok(srv(), 'app-password', 'revoke', 'carol', 'laptop');
    expectRestError(
      await srv().get('/', { headers: { authorization: basic('carol', password) } }),
      401,
      'incorrect_password',
    );
    assert.equal(cli(srv(), 'app-password', 'revoke', 'carol', 'laptop').code, 1);
  });

  it('settings set/get/list validate values and a running server sees a change within a second', async () => {
    const set = cli(srv(), 'settings', 'set', 'site_name', 'Jazz Club');
    assert.equal(set.code, 0, set.err);
    assert.equal(ok(srv(), 'settings', 'get', 'site_name').trim(), 'Jazz Club');
    await new Promise((r) => setTimeout(r, 1000));
    const index = await srv().get(`${srv().origin}/wp-json/`);
    assert.equal(index.body.name, 'Jazz Club');

    const bad = cli(srv(), 'settings', 'set', 'posts_per_page', '0');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /posts_per_page must be a positive whole number/);
    const unknown = cli(srv(), 'settings', 'set', 'colour', 'red');
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /unknown setting "colour"/);
    const list = ok(srv(), 'settings', 'list');
    for (const name of [
      'posts_per_page=10',
      'max_per_page=50',
      'timezone=UTC',
      'trash_days=30',
      'geoloc_unit=miles',
      'currency_code=USD',
      'require_https=false',
    ]) {
      assert.ok(list.includes(name), `${name} missing from settings list`);
    }
  });

  it('migrate reports an up-to-date database; trash empty purges', () => {
    const migrate = cli(srv(), 'migrate');
    assert.equal(migrate.code, 0);
    assert.match(migrate.out, /database is up to date/);
    const trash = cli(srv(), 'trash', 'empty');
    assert.equal(trash.code, 0);
    assert.match(trash.out, /purged \d+ trashed record/);
  });
});

it('a bad DATABASE_URL is refused with a clear message', () => {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], {
    env: { ...process.env, DATABASE_URL: 'mysql://x' },
    encoding: 'utf8',
  });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /DATABASE_URL must start with sqlite: or postgres:\/\//);
});

it('a bad PORT is refused with a clear message', () => {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    env: { ...process.env, PORT: 'eighty' },
    encoding: 'utf8',
  });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /PORT must be a whole number \(got "eighty"\)/);
});

it('RESPONSE_CACHE_MB defaults to 48, 0 turns the cache off, and a bad value is refused', async () => {
  const { loadConfig } = await import('../../src/config.js');
  assert.equal(loadConfig({}).responseCacheMb, 48);
  assert.equal(loadConfig({ RESPONSE_CACHE_MB: '0' }).responseCacheMb, 0);
  assert.equal(loadConfig({ RESPONSE_CACHE_MB: '256' }).responseCacheMb, 256);
  assert.throws(
    () => loadConfig({ RESPONSE_CACHE_MB: 'lots' }),
    /RESPONSE_CACHE_MB must be a whole number \(got "lots"\)/,
  );
});

it('HEAP_GROWTH_PERCENT defaults to 30, 0 leaves the heap to V8, and a bad value is refused', async () => {
  const { loadConfig } = await import('../../src/config.js');
  assert.equal(loadConfig({}).heapGrowthPercent, 30);
  assert.equal(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0);
  assert.equal(loadConfig({ HEAP_GROWTH_PERCENT: '75' }).heapGrowthPercent, 75);
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    env: { ...process.env, HEAP_GROWTH_PERCENT: '2000' },
    encoding: 'utf8',
  });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /HEAP_GROWTH_PERCENT must be between 0 and 1000 \(got 2000\)/);
});
