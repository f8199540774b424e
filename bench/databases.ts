import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { backendOf, openDatabase, type Backend, type DatabaseHandle } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { seedDataset, type DatasetOptions, type DatasetSummary } from './dataset.js';

/** A database made for one benchmark step, removed afterwards. */
export interface BenchDatabase {
  backend: Backend;
  url: string;
  /**
   * Whether the database server is still running statements of this database (PostgreSQL; SQLite runs in the service).
   */
  busy(): Promise<boolean>;
  drop(): Promise<void>;
}

/** `sqlite` or a PostgreSQL URL, as given to `--db`. */
export type DatabaseSpec = string;

export function backendOfSpec(spec: DatabaseSpec): Backend {
  return spec === 'sqlite' ? 'sqlite' : backendOf(spec);
}

/** The URL without its password, for printing. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * A fresh, empty database: an SQLite file under `dir`, or a dedicated PostgreSQL database created
 * next to the one `spec` names (the benchmark never writes into the database it was given).
 */
export async function createBenchDatabase(spec: DatabaseSpec, dir: string, name: string): Promise<BenchDatabase> {
  if (backendOfSpec(spec) === 'sqlite') {
    const file = join(dir, `${name}.sqlite`);
    const drop = async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    };
    await drop();
    return { backend: 'sqlite', url: `sqlite:${file}`, busy: async () => false, drop };
  }
  const database = `calendar_bench_${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(3).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: spec });
    await client.connect();
    try {
      return (await client.query<{ n: string }>(statement)).rows;
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${database}`);
  const url = new URL(spec);
  url.pathname = `/${database}`;
  return {
    backend: 'postgres',
    url: url.toString(),
    busy: async () => {
      const rows = await admin(
        `select count(*) as n from pg_stat_activity where datname = '${database}' and state = 'active' and pid <> pg_backend_pid()`,
      );
      return Number(rows[0]?.n ?? 0) > 0;
    },
    drop: async () => {
      await admin(`drop database if exists ${database} with (force)`);
    },
  };
}

/** Applies the migrations, then writes the dataset (the `--seed-only` path and every benchmark step). */
export async function migrateAndSeed(url: string, options: Omit<DatasetOptions, 'backend'>): Promise<DatasetSummary> {
  const handle: DatabaseHandle = openDatabase(url);
  try {
    await migrateToLatest(handle.db);
    return await seedDataset(handle.db, { ...options, backend: handle.backend });
  } finally {
    await handle.close();
  }
}
