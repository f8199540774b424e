import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import { onPostgres } from './connect.js';
import * as initialSchema from './migrations/2026-11-22-01-initial-schema.js';
import * as eventCostCurrency from './migrations/2026-11-22-02-event-cost-currency.js';
import * as termsNameOrder from './migrations/2026-11-22-03-terms-name-order.js';
import * as listingColumns from './migrations/2026-11-22-04-listing-columns.js';
import * as searchIndex from './migrations/2026-11-22-05-search-index.js';
import * as termListing from './migrations/2026-11-25-06-term-listing.js';
import * as searchTrigramsPostgres from './migrations/2026-11-25-07-search-trigrams-postgres.js';
import * as eventDayCounts from './migrations/2026-11-25-08-event-day-counts.js';
import * as searchMergeFanIn from './migrations/2026-11-26-09-search-merge-fan-in.js';
import * as searchIndexAtCommit from './migrations/2026-11-26-10-search-index-at-commit.js';
import * as clearUnsafeUrls from './migrations/2026-11-27-11-clear-unsafe-urls.js';
import * as dateFormatChecks from './migrations/2026-11-27-12-date-format-checks.js';
import * as uncontendedCounters from './migrations/2026-11-27-13-uncontended-counters.js';
import * as eventSequence from './migrations/2026-11-28-14-event-sequence.js';
import * as importSources from './migrations/2026-11-28-15-import-sources.js';
import * as recordChanges from './migrations/2026-11-28-16a-record-changes.js';
import * as webhooks from './migrations/2026-11-28-16b-webhooks.js';
import * as eventSeries from './migrations/2026-11-28-17-event-series.js';
import * as cacheTags from './migrations/2026-11-28-18-cache-tags.js';
import * as slugCodePointIndex from './migrations/2026-11-28-19-slug-code-point-index.js';
import * as listCacheTags from './migrations/2026-11-28-20-list-cache-tags.js';
import * as dataVersionByTriggers from './migrations/2026-11-28-21-data-version-by-triggers.js';
import * as finerCacheTags from './migrations/2026-11-28-22-finer-cache-tags.js';

/** Every migration, in order. Names are date-prefixed; files are frozen once landed. */
const migrations: Record<string, Migration> = {
  '2026-11-22-01-initial-schema': initialSchema,
  '2026-11-22-02-event-cost-currency': eventCostCurrency,
  '2026-11-22-03-terms-name-order': termsNameOrder,
  '2026-11-22-04-listing-columns': listingColumns,
  '2026-11-22-05-search-index': searchIndex,
  '2026-11-25-06-term-listing': termListing,
  '2026-11-25-07-search-trigrams-postgres': searchTrigramsPostgres,
  '2026-11-25-08-event-day-counts': eventDayCounts,
  '2026-11-26-09-search-merge-fan-in': searchMergeFanIn,
  '2026-11-26-10-search-index-at-commit': searchIndexAtCommit,
  '2026-11-27-11-clear-unsafe-urls': clearUnsafeUrls,
  '2026-11-27-12-date-format-checks': dateFormatChecks,
  '2026-11-27-13-uncontended-counters': uncontendedCounters,
  '2026-11-28-14-event-sequence': eventSequence,
  '2026-11-28-15-import-sources': importSources,
  '2026-11-28-16a-record-changes': recordChanges,
  '2026-11-28-16b-webhooks': webhooks,
  '2026-11-28-17-event-series': eventSeries,
  '2026-11-28-18-cache-tags': cacheTags,
  '2026-11-28-19-slug-code-point-index': slugCodePointIndex,
  '2026-11-28-20-list-cache-tags': listCacheTags,
  '2026-11-28-21-data-version-by-triggers': dataVersionByTriggers,
  '2026-11-28-22-finer-cache-tags': finerCacheTags,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Every migration's name, oldest first. */
export const migrationNames: readonly string[] = Object.keys(migrations);

/**
 * On PostgreSQL the bookkeeping tables live in the connection's current schema: Kysely otherwise
 * takes a table of that name in any other schema for its own and skips creating it.
 */
async function migrationTableSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!onPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/**
 * Key of the PostgreSQL advisory lock held while schema changes run. Kysely's migrator reads the
 * catalog of the whole database before taking its own lock, and that read fails when another
 * process changes a table at the same moment (two instances starting, or schemas being created
 * and dropped side by side), so every schema change in the database takes this lock first.
 */
export const SCHEMA_CHANGE_LOCK_KEY = 7_352_019_404;

type Run = (migrator: Migrator) => Promise<MigrationResultSet>;

const migratorFor = (db: Kysely<any>, schema: string | undefined) =>
  new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });

async function migrate(db: Kysely<any>, schema: string | undefined, run: Run): Promise<string[]> {
  const { error, results } = await run(migratorFor(db, schema));
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function migrateUnderLock(db: Kysely<any>, run: Run): Promise<string[]> {
  const schema = await migrationTableSchema(db);
  if (schema === undefined) return migrate(db, undefined, run);
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${sql.lit(SCHEMA_CHANGE_LOCK_KEY)})`.execute(conn);
    try {
      return await migrate(conn, schema, run);
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(SCHEMA_CHANGE_LOCK_KEY)})`.execute(conn);
    }
  });
}

export function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return migrateUnderLock(db, (migrator) => migrator.migrateToLatest());
}

/**
 * Applies the migrations up to `name` included (calendar import loads a dump into the schema it was
 * taken at). Kysely's `migrateTo` would also run migrations down to reach an older one; nothing
 * here ever does, so a database past `name` is refused instead.
 */
export function migrateUpTo(db: Kysely<any>, name: string): Promise<string[]> {
  return migrateUnderLock(db, async (migrator) => {
    const later = (await migrator.getMigrations()).filter((m) => m.name > name && m.executedAt !== undefined);
    if (later.length) throw new Error(`the database is past migration ${name} (it has ${later[0]!.name})`);
    return migrator.migrateTo(name);
  });
}

async function migrationStates(db: Kysely<any>) {
  return migratorFor(db, await migrationTableSchema(db)).getMigrations();
}

/** Names of the migrations applied to the database, oldest first; reads only. */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  return (await migrationStates(db)).filter((m) => m.executedAt !== undefined).map((m) => m.name);
}

/** Names of the migrations not applied yet; reads only (when the bookkeeping tables exist). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  return (await migrationStates(db)).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
