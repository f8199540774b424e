import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends } from '../support/server.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `calendar …` to its end with only these settings (none inherited from the test's environment). */
async function calendar(
  argv: string[],
  env: Record<string, string>,
  as: { uid?: number; gid?: number } = {},
): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Exit code 1 and one line on stderr, which must say this. */
function assertOneLine(outcome: Outcome, expected: RegExp): void {
  assert.equal(outcome.code, 1, outcome.stderr);
  const lines = outcome.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${outcome.stderr}`);
  assert.match(lines[0]!, expected);
}

/** A port nothing listens on: taken, then released. */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

function withUrl(url: string, change: (parsed: URL) => void): string {
  const parsed = new URL(url);
  change(parsed);
  return parsed.href;
}

describe('calendar serve: start-up failures are one line naming the setting, exit code 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-start-'));
  const sqlite = `sqlite:${join(dir, 'calendar.sqlite')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('a port in use', () => {
    const occupant = net.createServer();
    let port = 0;
    before(async () => {
      occupant.listen(0, '127.0.0.1');
      await once(occupant, 'listening');
      port = (occupant.address() as net.AddressInfo).port;
    });
    after(() => occupant.close());

    it('names the port and PORT', async () => {
      const outcome = await calendar(['serve'], { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: sqlite });
      assertOneLine(
        outcome,
        new RegExp(
          `^calendar: port ${port} on 127\\.0\\.0\\.1 is already in use: .*set PORT \\(--port\\) to a free port$`,
        ),
      );
    });

    it('adds the stack at LOG_LEVEL=debug', async () => {
      const outcome = await calendar(['serve'], {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: sqlite,
        LOG_LEVEL: 'debug',
      });
      assert.equal(outcome.code, 1);
      assert.match(outcome.stderr, /^calendar: port \d+ on 127\.0\.0\.1 is already in use/);
      assert.match(outcome.stderr, /EADDRINUSE/);
      assert.match(outcome.stderr, /\n {4}at /);
    });
  });

  it('an address that is not this machine names HOST', async () => {
    const outcome = await calendar(['serve'], { PORT: '0', HOST: '192.0.2.1', DATABASE_URL: sqlite });
    assertOneLine(outcome, /^calendar: 192\.0\.2\.1 is not an address of this machine: set HOST \(--host\)/);
  });

  it('a PostgreSQL port nothing answers on names the server and DATABASE_URL, without the password', async () => {
    const url = `postgres://calendar:s3cret@127.0.0.1:${await freePort()}/calendar`;
    const outcome = await calendar(['serve'], { PORT: '0', DATABASE_URL: url });
    assertOneLine(
      outcome,
      /^calendar: PostgreSQL does not answer on 127\.0\.0\.1:\d+ \(ECONNREFUSED\): .*DATABASE_URL/,
    );
    assert.doesNotMatch(outcome.stderr, /s3cret/);
  });

  it('administrative commands say the same', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/calendar`;
    assertOneLine(await calendar(['user', 'list'], { DATABASE_URL: url }), /^calendar: PostgreSQL does not answer on /);
    assertOneLine(await calendar(['migrate'], { DATABASE_URL: url }), /^calendar: PostgreSQL does not answer on /);
  });

  it('an SQLite file in a folder this user may not write to names the file and DATABASE_URL', async () => {
    const folder = mkdtempSync(join(dir, 'read-only-'));
    chmodSync(folder, 0o555);
    // root may write anywhere: the server then runs as nobody, who may enter the folder but not write to it.
    const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    chmodSync(dir, 0o755);
    const url = `sqlite:${join(folder, 'calendar.sqlite')}`;
    const outcome = await calendar(['serve'], { PORT: '0', DATABASE_URL: url }, as);
    assertOneLine(
      outcome,
      /^calendar: cannot open the SQLite database .*read-only-.*\/calendar\.sqlite \(DATABASE_URL=/,
    );
  });
});

describe(
  'calendar serve: PostgreSQL refusals [postgres]',
  {
    skip: backends.includes('postgres') ? false : 'PostgreSQL is not part of this run',
  },
  () => {
    it('a database that does not exist is named, with DATABASE_URL', async () => {
      const url = withUrl(PG_URL, (u) => (u.pathname = '/calendar_no_such_database'));
      const outcome = await calendar(['serve'], { PORT: '0', DATABASE_URL: url });
      assertOneLine(
        outcome,
        /^calendar: PostgreSQL database "calendar_no_such_database" does not exist on [^ ]+: create it .*set DATABASE_URL/,
      );
    });

    it('a user the server refuses is named, with DATABASE_URL', async () => {
      const url = withUrl(PG_URL, (u) => (u.username = 'calendar_no_such_user'));
      const outcome = await calendar(['serve'], { PORT: '0', DATABASE_URL: url });
      assertOneLine(
        outcome,
        /^calendar: PostgreSQL on [^ ]+ refused user "calendar_no_such_user" \(.+\): set the user and password in DATABASE_URL$/,
      );
    });
  },
);
