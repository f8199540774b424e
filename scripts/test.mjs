// Runs the whole suite: SQLite always; PostgreSQL when TEST_DATABASE_URL is set or a server answers
// on 127.0.0.1:5432. Under CI=true a missing PostgreSQL is a failure, not a skip.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import net from 'node:net';

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { hostname, port } = new URL(pgUrl);

function answers(host, portNumber) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: portNumber, timeout: 1500 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'support' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const pgUp = await answers(hostname || '127.0.0.1', Number(port || 5432));
const backends = ['sqlite'];
if (pgUp) backends.push('postgres');
else if (process.env.CI === 'true') {
  console.error(
    `PostgreSQL does not answer at ${hostname}:${port || 5432}; under CI=true the PostgreSQL half is required.`,
  );
  process.exit(1);
} else {
  console.log(
    `PostgreSQL does not answer at ${hostname}:${port || 5432}: the PostgreSQL half of the suite is SKIPPED.`,
  );
}
console.log(`backends: ${backends.join(', ')}`);

const files = process.argv.slice(2).length ? process.argv.slice(2) : testFiles('test').sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  {
    stdio: 'inherit',
    env: { ...process.env, TEST_BACKENDS: backends.join(','), TEST_DATABASE_URL: pgUrl },
  },
);
process.exit(result.status ?? 1);
