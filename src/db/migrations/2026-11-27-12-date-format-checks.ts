import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

// Every stored date is a wall-clock string `YYYY-MM-DD HH:MM:SS` (WordPress's "never set" marker
// `0000-00-00 00:00:00` included): reads split it into `*_details`, compare it as text and resolve
// it in a zone. A site time zone the time code could not use once let "Invalid DateTime" in, and
// such a record breaks every later read. The database now refuses any other text in the date
// columns of `posts` and `events`: a CHECK constraint on PostgreSQL; on SQLite, where adding one
// means rebuilding the tables, BEFORE INSERT / UPDATE triggers that abort, which mean the same.
//
// Rows already stored that way are repaired first, so the migration cannot fail on them. What they
// meant is lost, so the repair keeps what is still known, read as UTC (the site zone falls back to
// UTC when its stored value is unusable): a post's malformed local date takes its UTC date and the
// other way round, then the other pair, then the Unix epoch; an event with a malformed date gets
// its start and end from its UTC columns, else its local ones, else its post's UTC date, with
// local and UTC columns equal and its time zone set to UTC so the pair stays consistent.

const POSTS = ['date', 'date_utc', 'modified', 'modified_utc'] as const;
const EVENTS = ['start_date', 'end_date', 'utc_start_date', 'utc_end_date'] as const;

const GLOB = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]';
const REGEX = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';
const FLOATING = '0000-00-00 00:00:00';
const EPOCH = '1970-01-01 00:00:00';

type Check = (column: string) => RawBuilder<boolean>;

const checkFor = (postgres: boolean): Check => (column) =>
  postgres ? sql<boolean>`(${sql.ref(column)} ~ ${sql.lit(REGEX)})` : sql<boolean>`(${sql.ref(column)} glob ${sql.lit(GLOB)})`;

const allOf = (check: Check, columns: readonly string[]) => sql.join(columns.map(check), sql` and `);

/** The first of `columns` that is well-formed (and, with `dated`, not the "never set" marker), else `fallback`. */
function firstWellFormed(check: Check, columns: string[], fallback: RawBuilder<unknown> = sql.lit(EPOCH), dated = false): RawBuilder<string> {
  const choices = columns.map((c) => sql`case when ${check(c)}${dated ? sql` and ${sql.ref(c)} <> ${sql.lit(FLOATING)}` : sql``} then ${sql.ref(c)} end`);
  return sql<string>`coalesce(${sql.join([...choices, fallback])})`;
}

async function repair(db: Kysely<any>, check: Check): Promise<void> {
  await sql`update posts set
      date = ${firstWellFormed(check, ['date', 'date_utc', 'modified', 'modified_utc'])},
      date_utc = ${firstWellFormed(check, ['date_utc', 'date', 'modified_utc', 'modified'])},
      modified = ${firstWellFormed(check, ['modified', 'modified_utc', 'date', 'date_utc'])},
      modified_utc = ${firstWellFormed(check, ['modified_utc', 'modified', 'date_utc', 'date'])}
    where not (${allOf(check, POSTS)})`.execute(db);

  // Posts are repaired above, so the post's UTC date is well-formed; a floating one is no event time.
  const postDate = sql`(select case when date_utc <> ${sql.lit(FLOATING)} then date_utc else modified_utc end from posts where posts.id = events.post_id)`;
  const start = firstWellFormed(check, ['utc_start_date', 'start_date'], postDate, true);
  const end = firstWellFormed(check, ['utc_end_date', 'end_date'], postDate, true);
  await sql`update events set start_date = ${start}, utc_start_date = ${start}, end_date = ${end}, utc_end_date = ${end}, timezone = 'UTC'
    where not (${allOf(check, EVENTS)})`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const check = checkFor(postgres);
  await repair(db, check);
  for (const [table, columns] of [['posts', POSTS], ['events', EVENTS]] as const) {
    if (postgres) {
      await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_dates_format`)} check (${allOf(check, columns)})`.execute(db);
      continue;
    }
    const newRow = (c: string) => sql<boolean>`(${sql.raw(`new.${c}`)} glob ${sql.lit(GLOB)})`;
    const abort = sql`select raise(abort, ${sql.lit(`${table} dates must be YYYY-MM-DD HH:MM:SS`)})`;
    const when = sql`not (${sql.join(columns.map(newRow), sql` and `)})`;
    await sql`create trigger ${sql.ref(`${table}_dates_format_insert`)} before insert on ${sql.table(table)} when ${when} begin ${abort}; end`.execute(db);
    await sql`create trigger ${sql.ref(`${table}_dates_format_update`)} before update of ${sql.raw(columns.join(', '))} on ${sql.table(table)} when ${when} begin ${abort}; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of ['posts', 'events']) {
    if (postgres) await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_dates_format`)}`.execute(db);
    else {
      await sql`drop trigger ${sql.ref(`${table}_dates_format_insert`)}`.execute(db);
      await sql`drop trigger ${sql.ref(`${table}_dates_format_update`)}`.execute(db);
    }
  }
}
