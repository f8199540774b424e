// Runs the whole suite: SQLite always; PostgreSQL when the server at TEST_DATABASE_URL (by default
// 127.0.0.1:5432, database test) accepts a connection, the database being created first when the
// server answers without it. Under CI=true a PostgreSQL that cannot be used is a failure, not a
// skip. Whatever was skipped is listed, with the reason, right under the final summary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'support' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The error connecting to `url` gives, or undefined when it connects. */
async function connectionError(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return undefined;
  } catch (err) {
    return err;
  } finally {
    await client.end();
  }
}

/** Creates the database `url` names, from the server's maintenance database; why it could not, otherwise. */
async function createDatabase(url) {
  const maintenance = new URL(url);
  const name = decodeURIComponent(maintenance.pathname.slice(1));
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.href, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(`create database "${name.replaceAll('"', '""')}"`);
    console.log(`created the PostgreSQL database "${name}" for the tests`);
    return undefined;
  } catch (err) {
    // duplicate_database: a run started at the same time created it first.
    if (err.code === '42P04') return undefined;
    return `database "${name}" does not exist and cannot be created (${err.message}): create it, or set TEST_DATABASE_URL`;
  } finally {
    await client.end();
  }
}

/** Why the PostgreSQL half cannot run, or undefined when the test database is there (created if need be). */
async function postgresProblem(url) {
  const err = await connectionError(url);
  if (!err) return undefined;
  if (err.code === '3D000') return createDatabase(url);
  const shown = new URL(url);
  shown.password = '';
  // Sockets fail with a system code; node-postgres ends a connection that timed out without one.
  if (/^E[A-Z]+$/.test(err.code ?? '') || /^Connection terminated/.test(err.message))
    return `PostgreSQL does not answer at ${shown.host || 'localhost'} (${err.code ?? err.message}): start it, or set TEST_DATABASE_URL`;
  return `PostgreSQL at ${shown.href} cannot be used (${err.message}): set TEST_DATABASE_URL`;
}

const pgProblem = await postgresProblem(pgUrl);
const backends = pgProblem ? ['sqlite'] : ['sqlite', 'postgres'];
if (pgProblem && process.env.CI === 'true') {
  console.error(`${pgProblem}; under CI=true the PostgreSQL half is required.`);
  process.exit(1);
}
const pgSkipped = pgProblem && `skipped: the PostgreSQL half of the suite: ${pgProblem}`;
if (pgSkipped) console.log(pgSkipped);
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
if (pgSkipped) console.log(pgSkipped);
rmSync(logDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
