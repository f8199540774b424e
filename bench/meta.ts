import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { backendOfSpec, type DatabaseSpec } from './databases.js';
import { ROOT } from './processes.js';

/** Where and on what a run happened, for the JSON result. */
export interface Meta {
  date: string;
  commit: string | null;
  /** Uncommitted changes in the tree at the time of the run. */
  dirty: boolean | null;
  machine: { cores: number; cpu: string; memoryGb: number; os: string };
  versions: Record<string, string>;
}

function git(args: string[]): string | null {
  // --no-optional-locks: reading the state must not write the index.
  const out = spawnSync('git', ['--no-optional-locks', ...args], { cwd: ROOT, encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : null;
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

export async function collectMeta(databases: DatabaseSpec[]): Promise<Meta> {
  const versions: Record<string, string> = {
    node: process.versions.node,
    'calendar-server': (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    autocannon: packageVersion('autocannon'),
    fastify: packageVersion('fastify'),
    kysely: packageVersion('kysely'),
    'better-sqlite3': packageVersion('better-sqlite3'),
    pg: packageVersion('pg'),
  };
  const memory = new SQLite(':memory:');
  versions.sqlite = String(memory.prepare('select sqlite_version() as v').pluck().get());
  memory.close();
  for (const spec of databases) {
    if (backendOfSpec(spec) !== 'postgres') continue;
    const client = new pg.Client({ connectionString: spec });
    await client.connect();
    versions.postgresql = String(
      (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version,
    );
    await client.end();
  }
  const status = git(['status', '--porcelain']);
  return {
    date: new Date().toISOString(),
    commit: git(['rev-parse', 'HEAD']),
    dirty: status === null ? null : status.length > 0,
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
      os: `${osType()} ${release()}`,
    },
    versions,
  };
}
