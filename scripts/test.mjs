// Runs the whole suite: SQLite always; PostgreSQL when TEST_DATABASE_URL is set or a server answers
// on 127.0.0.1:5432. Under CI=true a missing PostgreSQL is a failure, not a skip. Whatever was
// skipped is listed, with the reason, right under the final summary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
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

/** One line per file and reason, from the lines scripts/skip-reporter.mjs wrote (none if the run never started). */
function skipSummary(log) {
  let lines;
  try {
    lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
  const counts = new Map();
  for (const line of lines) {
    const { file, reason } = JSON.parse(line);
    const key = JSON.stringify([relative(process.cwd(), file), reason === true ? 'no reason given' : reason]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => {
    const [file, reason] = JSON.parse(key);
    return `skipped: ${file} (${n} test${n === 1 ? '' : 's'}): ${reason}`;
  });
}

const files = process.argv.slice(2).length ? process.argv.slice(2) : testFiles('test').sort();
const logDir = mkdtempSync(join(tmpdir(), 'calendar-test-run-'));
const skipLog = join(logDir, 'skipped.jsonl');
const reporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${new URL('./skip-reporter.mjs', import.meta.url).href}`,
  `--test-reporter-destination=${skipLog}`,
];
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', ...reporters, '--test-concurrency=2', ...files],
  {
    stdio: 'inherit',
    env: { ...process.env, TEST_BACKENDS: backends.join(','), TEST_DATABASE_URL: pgUrl },
  },
);
for (const line of skipSummary(skipLog)) console.log(line);
rmSync(logDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
