import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { cliInvocation, firstAdminCommands, localOrigin, startBanner } from '../../src/banner.js';
import { displayDatabaseUrl } from '../../src/db/display-url.js';
import { forEachBackend } from '../support/server.js';

describe('start banner', () => {
  const facts = {
    origin: 'http://localhost:8080',
    restPrefix: '/wp-json',
    databaseUrl: 'sqlite:./data/calendar.sqlite',
  };

  it('names the REST API, the reference page and the database', () => {
    const banner = startBanner(facts);
    assert.match(banner, /REST API {7}http:\/\/localhost:8080\/wp-json\/calendar\/events\/v1\/\n/);
    assert.match(banner, /API reference {2}http:\/\/localhost:8080\/docs\n/);
    assert.match(banner, new RegExp(`Database {7}sqlite:${resolve('data/calendar.sqlite')}\n`));
    assert.doesNotMatch(banner, /No user/);
  });

  it('shows the commands that create the first administrator only while no user exists', () => {
    const banner = startBanner({ ...facts, firstAdmin: ['node dist/cli.js user create admin --role administrator'] });
    assert.match(banner, /No user exists yet\. .*\n {2}node dist\/cli\.js user create admin --role administrator\n/);
  });

  it('never prints a PostgreSQL user or password in the database line', () => {
    const url = 'postgres://calendar:s3cret@db.example:5433/calendar?sslmode=require&password=other';
    assert.equal(displayDatabaseUrl(url), 'postgres://db.example:5433/calendar?sslmode=require');
    assert.doesNotMatch(startBanner({ ...facts, databaseUrl: url }), /s3cret|other|calendar@/);
  });

  it('the administrator commands name a database other than the default, its password left to fill in', () => {
    assert.deepEqual(firstAdminCommands('calendar', 'sqlite:./data/calendar.sqlite'), [
      'calendar user create admin --role administrator && calendar app-password create admin',
    ]);
    assert.equal(
      firstAdminCommands('calendar', 'postgres://calendar:s3cret@db.example/calendar')[0],
      "export DATABASE_URL='postgres://calendar:PASSWORD@db.example/calendar'",
    );
    assert.equal(
      firstAdminCommands('calendar', "sqlite:/srv/o'neil/calendar.sqlite")[0],
      "export DATABASE_URL='sqlite:/srv/o'\\''neil/calendar.sqlite'",
    );
  });

  it('the command is called as this process was: installed bin, checkout script through tsx, or built file', () => {
    assert.equal(cliInvocation('/usr/local/bin/calendar', '/srv/app'), 'calendar');
    assert.equal(cliInvocation('/srv/app/src/cli.ts', '/srv/app'), 'npm run calendar --');
    assert.equal(cliInvocation('/srv/app/dist/cli.js', '/srv/app'), 'node dist/cli.js');
    assert.equal(cliInvocation('/srv/app/dist/cli.js', '/home/me'), 'node /srv/app/dist/cli.js');
  });

  it('a wildcard or loopback address is shown as localhost', () => {
    assert.equal(localOrigin({ address: '0.0.0.0', family: 'IPv4', port: 8080 }), 'http://localhost:8080');
    assert.equal(localOrigin({ address: '::1', family: 'IPv6', port: 8080 }), 'http://localhost:8080');
    assert.equal(localOrigin({ address: '192.0.2.7', family: 'IPv4', port: 80 }), 'http://192.0.2.7:80');
    assert.equal(localOrigin({ address: 'fd00::7', family: 'IPv6', port: 80 }), 'http://[fd00::7]:80');
  });
});

/** util-linux's `script` gives the server a pseudo-terminal as stdout, as an interactive `npm start` has. */
const noScript = spawnSync('script', ['--version']).error
  ? 'script (util-linux) is not installed: no pseudo-terminal to start the server in'
  : false;

/** Starts `calendar serve` and collects its stdout until `until` matches it. */
async function startServe(
  databaseUrl: string,
  tty: boolean,
  until: RegExp,
): Promise<{ child: ChildProcess; output: () => string }> {
  const node = [process.execPath, '--import', 'tsx', 'src/cli.ts', 'serve'];
  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info' };
  const child = tty
    ? spawn('script', ['-qec', node.map((a) => `'${a}'`).join(' '), '/dev/null'], { env, detached: true })
    : spawn(node[0]!, node.slice(1), { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const seen = new Promise<void>((done, fail) => {
    child.stdout!.on('data', (d) => {
      stdout += String(d).replaceAll('\r\n', '\n');
      if (until.test(stdout)) done();
    });
    child.on('exit', (code) => fail(new Error(`serve exited (${code}) before ${until}: ${stdout}${stderr}`)));
  });
  await seen;
  return { child, output: () => stdout };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 50));
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

forEachBackend('calendar serve start-up output', (srv) => {
  it(
    'at a terminal: a banner with the API, /docs and the database, and commands that create a working administrator',
    { skip: noScript, timeout: 60_000 },
    async () => {
      const { child, output } = await startServe(
        srv().databaseUrl,
        true,
        /No user exists yet[^]*app-password create admin\n/,
      );
      try {
        const banner = output();
        const api = /REST API +(\S+)/.exec(banner)![1]!;
        assert.match(/API reference +(\S+)/.exec(banner)![1]!, /^http:\/\/localhost:\d+\/docs$/);
        assert.ok(banner.includes(`  Database       ${displayDatabaseUrl(srv().databaseUrl)}\n`), banner);
        const commands = banner
          .slice(banner.indexOf('No user exists yet'))
          .split('\n')
          .slice(1)
          .filter((l) => l.startsWith('  '));
        const created = spawnSync('sh', ['-c', commands.join('\n')], { encoding: 'utf8' });
        assert.equal(created.status, 0, created.stderr);
        const password = created.stdout.trim().split('\n').at(-1)!;
        const res = await fetch(api, {
          headers: { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` },
        });
        assert.equal(res.status, 200, 'the password printed last authenticates the new administrator');
      } finally {
        await stop(child);
      }
    },
  );

  it('without a terminal: JSON log lines only, no banner', { timeout: 60_000 }, async () => {
    const { child, output } = await startServe(srv().databaseUrl, false, /Server listening at/);
    try {
      // The banner would follow the start; a request logged after it shows the start is over.
      const origin = /Server listening at (http:\S+?)"/.exec(output())![1]!;
      assert.equal((await fetch(`${origin}/wp-json/`)).status, 200);
      await waitUntil(() => /request completed/.test(output()));
    } finally {
      await stop(child);
    }
    const lines = output().trim().split('\n');
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not a JSON log line: ${line}`);
    assert.doesNotMatch(output(), /Calendar Server is ready/);
  });
});
