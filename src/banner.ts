import type { AddressInfo } from 'node:net';
import { basename, isAbsolute, relative } from 'node:path';
import type { BuiltApp } from './app.js';
import { countUsers } from './auth/users.js';
import type { Config } from './config.js';
import { DEFAULT_DATABASE_URL, backendOf } from './db/connect.js';
import { displayDatabaseUrl } from './db/display-url.js';
import { NAMESPACE } from './http/register.js';

export interface StartFacts {
  /** Where this machine reaches the server: `http://localhost:8080`. */
  origin: string;
  restPrefix: string;
  databaseUrl: string;
  /** Shell lines that create the first administrator and its password; only while no user exists. */
  firstAdmin?: string[];
}

/** What an operator who just typed `npm start` needs next: where the API and its reference are, and how to log in. */
export function startBanner({ origin, restPrefix, databaseUrl, firstAdmin }: StartFacts): string {
  const lines = [
    '',
    'Calendar Server is ready',
    `  REST API       ${origin}${restPrefix}/${NAMESPACE}/`,
    `  API reference  ${origin}/docs`,
    `  Database       ${displayDatabaseUrl(databaseUrl)}`,
  ];
  if (firstAdmin) {
    lines.push('', 'No user exists yet. Create an administrator; its application password is the last line printed:');
    lines.push(...firstAdmin.map((line) => `  ${line}`));
  }
  return `${lines.join('\n')}\n\n`;
}

/** The origin a browser on this machine uses for a listening address: a wildcard or loopback one is `localhost`. */
export function localOrigin(address: AddressInfo): string {
  const local = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(address.address);
  const host = local ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * How to call the `calendar` command the way this process was started: the installed bin, the checkout's script
 * (through tsx) or the built file, so that the printed command works when pasted.
 */
export function cliInvocation(script: string, cwd: string): string {
  if (basename(script) === 'calendar') return 'calendar';
  if (script.endsWith('.ts')) return 'npm run calendar --';
  const inCwd = relative(cwd, script);
  return `node ${inCwd.startsWith('..') || isAbsolute(inCwd) ? script : inCwd}`;
}

/** The commands that create an administrator `admin` and an application password for it, on this database. */
export function firstAdminCommands(cli: string, databaseUrl: string): string[] {
  const commands = [`${cli} user create admin --role administrator && ${cli} app-password create admin`];
  if (databaseUrl === DEFAULT_DATABASE_URL) return commands;
  return [`export DATABASE_URL=${shellQuote(commandLineUrl(databaseUrl))}`, ...commands];
}

/** The database URL for a pasted command: its password is the operator's to fill in, never printed. */
function commandLineUrl(url: string): string {
  if (backendOf(url) === 'sqlite') return displayDatabaseUrl(url);
  const parsed = new URL(url);
  if (parsed.password) parsed.password = 'PASSWORD';
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', 'PASSWORD');
  return parsed.href;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Prints the banner for a server that is listening. */
export async function printStartBanner(built: BuiltApp, config: Config): Promise<void> {
  const users = await countUsers(built.database.db);
  const facts: StartFacts = {
    origin: localOrigin(built.fastify.server.address() as AddressInfo),
    restPrefix: config.restPrefix,
    databaseUrl: config.databaseUrl,
    firstAdmin: users
      ? undefined
      : firstAdminCommands(cliInvocation(process.argv[1] ?? 'calendar', process.cwd()), config.databaseUrl),
  };
  process.stdout.write(startBanner(facts));
}
