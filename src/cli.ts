#!/usr/bin/env node
import { Command, Option } from 'commander';
import { loadConfig, ConfigError, type ConfigInput } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/connect.js';
import { DatabaseStartError } from './db/faults.js';
import { migrateToLatest } from './db/migrate.js';
import { createAppPassword, listAppPasswords, revokeAppPassword, AppPasswordError } from './auth/app-passwords.js';
import {
  deleteUser,
  getUserByLogin,
  insertUser,
  listUsers,
  updateUserRole,
  updateUserStatus,
  UserError,
  type UserStatus,
} from './auth/users.js';
import { isSettingName, readSettings, settingDefs, writeSetting } from './settings.js';
import { WEBHOOK_EVENT_TYPES, parseEventTypes } from './resources/webhooks/event-types.js';
import {
  deleteWebhook,
  getWebhookById,
  insertWebhook,
  listWebhookRows,
  rotateWebhookSecret,
} from './resources/webhooks/repository.js';
import { webhookUrl } from './resources/webhooks/routes.js';
import { purgeTrash } from './resources/post-like/trash.js';
import { serve } from './server.js';
import { printStartBanner } from './banner.js';
import { StartError, explainStartFailure } from './start-failures.js';
import { backupDatabase } from './ops/backup.js';
import { exportDump } from './ops/export.js';
import { importDump } from './ops/import.js';
import { OpsError } from './ops/errors.js';
import { asAdministrator } from './ops/operator.js';
import { findCategoryIdBySlug, IcsSourceError, IcsSyntaxError, importIcs, readIcs } from './ical/import.js';
import { reportTotals, type ImportReport } from './import/report.js';
import { importTec, parseSince } from './tec/import.js';
import { TecSourceError } from './tec/client.js';
import { progressReporter } from './tec/progress.js';

/** The `calendar` command: every administrative task. */
const program = new Command('calendar').description('Calendar Server: events REST service and its administration.');
program.option('--database-url <url>', 'database to use (env DATABASE_URL; default sqlite:./data/calendar.sqlite)');

function config(extra: ConfigInput = {}) {
  return loadConfig(process.env, { databaseUrl: program.opts().databaseUrl, ...extra });
}

/** Opens the configured database, runs `fn`, closes; the usual reasons it cannot be used are told in one line. */
async function onDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const settings = config();
  try {
    const handle = openDatabase(settings.databaseUrl);
    try {
      return await fn(handle);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw explainStartFailure(err, settings);
  }
}

/** Opens the configured database, applies migrations, runs `fn`, closes. */
function withDb<T>(fn: (db: DatabaseHandle['db']) => Promise<T>): Promise<T> {
  return onDatabase(async (handle) => {
    await migrateToLatest(handle.db);
    return fn(handle.db);
  });
}

const serveCommand = program
  .command('serve')
  .description('start the HTTP service')
  .option('--port <port>', 'port to listen on (env PORT, default 8080)')
  .option('--host <host>', 'interface to bind (env HOST, default 127.0.0.1; 0.0.0.0 in containers)')
  .option('--rest-prefix <prefix>', 'REST prefix (env REST_PREFIX, default /wp-json)')
  .option('--site-url <url>', 'public base URL for links (env SITE_URL, default http://localhost:PORT)')
  .option('--cors-origins <list>', 'comma-separated origins allowed with credentials (env CORS_ORIGINS)')
  .option('--log-level <level>', 'log level (env LOG_LEVEL, default info)')
  .action(async (o) => {
    const settings = config({
      port: o.port,
      host: o.host,
      restPrefix: o.restPrefix,
      siteUrl: o.siteUrl,
      corsOrigins: o.corsOrigins,
      logLevel: o.logLevel,
    });
    const built = await serve(settings).catch((err: unknown) => {
      throw explainStartFailure(err, settings);
    });
    // Someone at a terminal gets where to go next; a supervisor or a pipe gets the JSON log lines only.
    if (process.stdout.isTTY) await printStartBanner(built, settings);
  });

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(() =>
    onDatabase(async (handle) => {
      const applied = await migrateToLatest(handle.db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    }),
  );

const user = program.command('user').description('manage users');
user
  .command('create <login>')
  .description('create a user')
  .addOption(
    new Option('--role <role>', 'role')
      .choices(['administrator', 'editor', 'author', 'contributor', 'subscriber'])
      .makeOptionMandatory(),
  )
  .option('--email <email>', 'e-mail address')
  .action((login: string, o) =>
    withDb(async (db) => {
      const id = await db.transaction().execute((trx) => insertUser(trx, { login, role: o.role, email: o.email }));
      console.log(`created user ${login} (id ${id}, ${o.role})`);
    }),
  );
user
  .command('list')
  .description('list users: id, login, role, e-mail, status')
  .action(() =>
    withDb(async (db) => {
      for (const u of await listUsers(db)) console.log(`${u.id}\t${u.login}\t${u.role}\t${u.email}\t${u.status}`);
    }),
  );
user
  .command('delete <login>')
  .description('delete a user and its application passwords')
  .action((login: string) =>
    withDb(async (db) => {
      await db.transaction().execute((trx) => deleteUser(trx, login));
      console.log(`deleted user ${login}`);
    }),
  );
user
  .command('set-role <login> <role>')
  .description("change a user's role")
  .action((login: string, role: string) =>
    withDb(async (db) => {
      await db.transaction().execute((trx) => updateUserRole(trx, login, role));
      console.log(`${login} is now ${role}`);
    }),
  );
for (const [verb, status, description] of [
  ['disable', 'disabled', 'refuse every application password of a user at once (they are kept)'],
  ['enable', 'enabled', 'accept the application passwords of a disabled user again'],
] as const satisfies readonly (readonly [string, UserStatus, string])[]) {
  user
    .command(`${verb} <login>`)
    .description(description)
    .action((login: string) =>
      withDb(async (db) => {
        await db.transaction().execute((trx) => updateUserStatus(trx, login, status));
        console.log(`${login} is now ${status}`);
      }),
    );
}

const appPassword = program.command('app-password').description('manage application passwords');
appPassword
  .command('create <login>')
  .description('create an application password; the password is printed alone on the last line')
  .option('--name <name>', 'name of the password', 'cli')
  .action((login: string, o) =>
    withDb(async (db) => {
      const created = await db.transaction().execute(async (trx) => {
        const u = await getUserByLogin(trx, login);
        return createAppPassword(trx, u.id, o.name);
      });
      console.log(`created application password "${o.name}" for ${login} (uuid ${created.uuid})`);
      console.log(created.password);
    }),
  );
appPassword
  .command('list <login>')
  .description("list a user's application passwords")
  .action((login: string) =>
    withDb(async (db) => {
      const u = await getUserByLogin(db, login);
      for (const p of await listAppPasswords(db, u.id)) {
        const used = p.last_used ? new Date(Number(p.last_used) * 1000).toISOString() : 'never';
        console.log(
          `${p.uuid}\t${p.name}\tcreated ${new Date(Number(p.created) * 1000).toISOString()}\tlast used ${used}`,
        );
      }
    }),
  );
appPassword
  .command('revoke <login> <name>')
  .description('revoke an application password by name (or uuid)')
  .action((login: string, name: string) =>
    withDb(async (db) => {
      const removed = await db
        .transaction()
        .execute(async (trx) => revokeAppPassword(trx, (await getUserByLogin(trx, login)).id, name));
      if (!removed) throw new UserError(`${login} has no application password named "${name}"`);
      console.log(`revoked "${name}" of ${login}`);
    }),
  );

const settings = program.command('settings').description('manage site settings');
settings
  .command('list')
  .description('list every setting with its value')
  .action(() =>
    withDb(async (db) => {
      const current = await readSettings(db);
      for (const [name, def] of Object.entries(settingDefs)) {
        console.log(
          `${name}=${String(current[name as keyof typeof current])}\t# ${def.describe} Default: ${String(def.default)}`,
        );
      }
    }),
  );
settings
  .command('get <name>')
  .description('print one setting')
  .action((name: string) =>
    withDb(async (db) => {
      if (!isSettingName(name)) throw new UserError(`unknown setting "${name}"; see calendar settings list`);
      console.log(String((await readSettings(db))[name]));
    }),
  );
settings
  .command('set <name> <value>')
  .description('change one setting (a running server sees it within a second)')
  .action((name: string, value: string) =>
    withDb(async (db) => {
      if (!isSettingName(name)) throw new UserError(`unknown setting "${name}"; see calendar settings list`);
      try {
        await db.transaction().execute((trx) => writeSetting(trx, name, value));
      } catch (err) {
        if (err instanceof Error && !(err as { code?: unknown }).code) throw new UserError(`${name} ${err.message}`);
        throw err;
      }
      console.log(`${name}=${String((await readSettings(db))[name])}`);
    }),
  );

const webhook = program.command('webhook').description('manage webhook subscriptions');
webhook
  .command('add <url>')
  .description('subscribe URL to changes; the signing secret is printed alone on the last line, once')
  .requiredOption('--events <types>', 'comma-separated event types, e.g. event.created,event.updated,venue.*')
  .action((url: string, o: { events: string }) =>
    withDb(async (db) => {
      const target = webhookUrl(url);
      if (!target) throw new UserError(`"${url}" is not an http or https URL`);
      const events = parseEventTypes(o.events);
      if (!events)
        throw new UserError(`--events names an unknown event type; known: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
      const row = await db.transaction().execute((trx) => insertWebhook(trx, target, events));
      console.log(`added webhook ${row.id}: ${row.url} (${events.join(',')})`);
      console.log(row.secret);
    }),
  );
webhook
  .command('list')
  .description('list subscriptions (secrets are not shown)')
  .action(() =>
    withDb(async (db) => {
      for (const row of await listWebhookRows(db)) {
        const state = row.status === 'enabled' ? 'enabled' : `disabled: ${row.disabled_reason}`;
        console.log(`${row.id}\t${row.url}\t${row.events}\t${state}`);
      }
    }),
  );
webhook
  .command('remove <id>')
  .description('remove a subscription and its delivery log')
  .action((id: string) =>
    withDb(async (db) => {
      await db.transaction().execute(async (trx) => deleteWebhook(trx, (await webhookOf(trx, id)).id));
      console.log(`removed webhook ${id}`);
    }),
  );
webhook
  .command('rotate-secret <id>')
  .description('replace the signing secret; the new one is printed alone on the last line, once')
  .action((id: string) =>
    withDb(async (db) => {
      const secret = await db
        .transaction()
        .execute(async (trx) => rotateWebhookSecret(trx, (await webhookOf(trx, id)).id));
      console.log(`rotated the secret of webhook ${id}`);
      console.log(secret);
    }),
  );

/** The subscription an ID argument names, or a one-line refusal. */
async function webhookOf(trx: Parameters<typeof getWebhookById>[0], id: string) {
  try {
    return await getWebhookById(trx, /^\d+$/.test(id) ? Number(id) : -1);
  } catch {
    throw new UserError(`no webhook with ID ${id}; see calendar webhook list`);
  }
}

const trash = program.command('trash').description('manage trashed records');
trash
  .command('empty')
  .description('permanently remove every trashed event, venue and organizer now')
  .action(() =>
    withDb(async (db) => {
      const n = await db.transaction().execute((trx) => purgeTrash(trx, 0));
      console.log(`purged ${n} trashed record(s)`);
    }),
  );

program
  .command('backup <file>')
  .description('copy the SQLite database to FILE, consistent while the service writes (PostgreSQL: use pg_dump)')
  .action(async (file: string) => {
    const { source, pages } = await backupDatabase(config().databaseUrl, file);
    console.log(`backed up ${source} to ${file} (${pages} pages)`);
  });

/** `users 2, posts 41, …`: the rows of each table. */
const rowCounts = (rows: Record<string, number>) =>
  Object.entries(rows)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');

program
  .command('export <file>')
  .description('write every record, user and setting to FILE (JSON lines), for calendar import on either backend')
  .action((file: string) =>
    onDatabase(async (handle) => {
      const { migration, rows } = await exportDump(handle.db, handle.backend, file);
      console.log(`exported to ${file} at migration ${migration}: ${rowCounts(rows)}`);
    }),
  );

const importCommand = program
  .command('import')
  .description(
    'load a file written by calendar export into an empty database (migrated as needed), keeping IDs; ' +
      'or bring events in from elsewhere: calendar import ics | calendar import tec',
  )
  .argument('[file]', 'a file written by calendar export')
  .action((file: string | undefined) => {
    if (file === undefined) return importCommand.help({ error: true });
    return onDatabase(async (handle) => {
      const { migration, rows, upgraded } = await importDump(handle.db, file);
      console.log(`imported ${file}, taken at migration ${migration}: ${rowCounts(rows)}`);
      if (upgraded.length) console.log(`then applied: ${upgraded.join(', ')}`);
    });
  });

/** Every record not written, with why; then the totals. */
function printReport(report: ImportReport): void {
  for (const item of report.items) {
    if (item.action !== 'skipped') continue;
    const where = [item.line === undefined ? '' : `line ${item.line}`, item.source_id ?? ''].filter(Boolean).join(' ');
    console.log(`skipped ${item.kind}${where ? ` (${where})` : ''}: ${item.reason}`);
  }
  console.log(`${reportTotals(report)}${report.dry_run ? ' (dry run: nothing was written)' : ''}`);
}

const asOption = () =>
  new Option('--as <login>', 'the administrator the records are written as (default: the first administrator)');

importCommand
  .command('ics <source>')
  .description('create or update events from an iCalendar file or an http, https or webcal URL, matched by UID')
  .addOption(
    new Option('--status <status>', 'status of the imported events').choices(['draft', 'publish']).default('publish'),
  )
  .option('--category <slug>', 'put every imported event in this category')
  .option('--dry-run', 'report what would be done, and write nothing')
  .addOption(asOption())
  .action(async (source: string, o) => {
    const text = await readIcs(source).catch((err: unknown) => {
      throw err instanceof IcsSourceError ? new OpsError(err.message) : err;
    });
    const report = await asAdministrator(config(), o.as, async (ctx) => {
      const categoryId = o.category === undefined ? undefined : await findCategoryIdBySlug(ctx.app.db, o.category);
      if (o.category !== undefined && categoryId === undefined)
        throw new OpsError(`no category with slug "${o.category}"`);
      return importIcs(ctx, text, { status: o.status, categoryId, dryRun: o.dryRun === true }).catch((err: unknown) => {
        throw err instanceof IcsSyntaxError ? new OpsError(`${source}: ${err.message}`) : err;
      });
    });
    printReport(report);
  });

importCommand
  .command('tec <site>')
  .description(
    "migrate a WordPress site's events, venues, organizers, categories and tags from its events REST API; " +
      'a second run updates what the first imported',
  )
  .option('--namespace <namespace>', 'the REST namespace to read', 'tribe/events/v1')
  .option('--since <date>', 'leave alone records imported before and not modified since this UTC date (and time)')
  .option('--concurrency <n>', 'records written at once', '2')
  .option('--auth <login:password>', 'a login and application password of the source site (env TEC_AUTH)')
  .addOption(asOption())
  .action(async (site: string, o) => {
    if (!/^https?:\/\/[^\s/]+/i.test(site)) throw new OpsError(`"${site}" is not an http or https address of a site`);
    const since = o.since === undefined ? undefined : parseSince(o.since);
    if (o.since !== undefined && since === undefined) throw new OpsError(`--since "${o.since}" is not a date`);
    const concurrency = Number(o.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
      throw new OpsError('--concurrency is a whole number from 1 to 16');
    const progress = progressReporter(process.stderr);
    const report = await asAdministrator(config(), o.as, (ctx) =>
      importTec(ctx, {
        site,
        namespace: o.namespace,
        since,
        concurrency,
        auth: o.auth ?? process.env.TEC_AUTH,
        onProgress: progress,
      }).catch((err: unknown) => {
        throw err instanceof TecSourceError ? new OpsError(err.message) : err;
      }),
    ).finally(() => progress.end());
    printReport(report);
  });

/** Errors that say what to do in their message: their stack helps only whoever debugs the service itself. */
const OPERATOR_ERRORS = [ConfigError, UserError, AppPasswordError, DatabaseStartError, StartError, OpsError];

program.parseAsync(process.argv).catch((err: unknown) => {
  if (OPERATOR_ERRORS.some((kind) => err instanceof kind)) {
    console.error(`calendar: ${(err as Error).message}`);
    const logLevel = serveCommand.opts().logLevel ?? process.env.LOG_LEVEL;
    if (logLevel === 'debug' || logLevel === 'trace') console.error(err);
  } else {
    console.error(err);
  }
  process.exit(1);
});
