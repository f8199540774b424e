import { userInfo } from 'node:os';
import type { Config } from './config.js';
import { backendOf } from './db/connect.js';
import { displayDatabaseUrl } from './db/display-url.js';
import { DatabaseStartError, classifyDatabaseError } from './db/faults.js';

/**
 * The service or a command cannot start, said in one line that names the cause and the setting that changes it. The
 * driver's or the system's error is kept as `cause`, for `LOG_LEVEL=debug`.
 */
export class StartError extends Error {}

type Settings = Pick<Config, 'databaseUrl' | 'host' | 'port'>;

interface SystemError extends Error {
  code?: unknown;
  syscall?: unknown;
  hostname?: unknown;
}

/** Where a PostgreSQL URL points, with node-postgres's defaults for what it leaves out. */
function postgresTarget(url: string) {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username) || parsed.searchParams.get('user') || userInfo().username;
  return {
    server: `${parsed.hostname || 'localhost'}:${parsed.port || 5432}`,
    hostname: parsed.hostname || 'localhost',
    database: decodeURIComponent(parsed.pathname.slice(1)) || user,
    user,
  };
}

/** The listening socket's errors: the address HOST and PORT name cannot be taken. */
function listenFailure(err: SystemError, { host, port }: Settings): string | undefined {
  if (err.syscall === 'getaddrinfo' && err.hostname === host)
    return `HOST ${host} does not resolve to an address of this machine: set HOST (--host), e.g. 127.0.0.1 or 0.0.0.0`;
  if (err.syscall !== 'listen') return undefined;
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use: stop the program using it or set PORT (--port) to a free port`;
    case 'EACCES':
      return `not allowed to listen on port ${port} (ports below 1024 need privileges): set PORT (--port) to 1024 or above`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine: set HOST (--host), e.g. 127.0.0.1 or 0.0.0.0`;
    default:
      return undefined;
  }
}

/** PostgreSQL refusing or not answering the connection, by SQLSTATE or socket error. */
function postgresFailure(err: SystemError, databaseUrl: string): string | undefined {
  const { server, hostname, database, user } = postgresTarget(databaseUrl);
  const setting = `set DATABASE_URL (now ${displayDatabaseUrl(databaseUrl)})`;
  if (err.syscall === 'getaddrinfo' && err.hostname === hostname)
    return `PostgreSQL host ${hostname} does not resolve to an address: ${setting}`;
  switch (err.code) {
    case '3D000':
      return `PostgreSQL database "${database}" does not exist on ${server}: create it (createdb ${database}) or ${setting}`;
    case '28000':
    case '28P01':
      return `PostgreSQL on ${server} refused user "${user}" (${err.message}): set the user and password in DATABASE_URL`;
    case '42501':
      return `PostgreSQL user "${user}" lacks a right the migrations need on database "${database}" (${err.message}): make it the database's owner, or ${setting}`;
  }
  // node-postgres's own error when the server asks for a password the URL does not hold.
  if (/^SASL: .*password must be a string/.test(err.message))
    return `PostgreSQL on ${server} asks user "${user}" for a password: set the user and password in DATABASE_URL`;
  const fault = classifyDatabaseError(err);
  if (fault?.kind !== 'unavailable') return undefined;
  if (/^E[A-Z]+$/.test(fault.code) || fault.code === 'connect_timeout')
    return `PostgreSQL does not answer on ${server} (${fault.code}): start it, or ${setting}`;
  return `PostgreSQL on ${server} takes no connection now (${fault.message}): try again, or ${setting}`;
}

/**
 * `err` as a StartError when it is one of the usual reasons a start fails (the port is taken, PostgreSQL is down, the
 * database is missing, the user is refused); anything else unchanged.
 */
export function explainStartFailure(err: unknown, settings: Settings): unknown {
  // A DatabaseStartError already says what to do, in one line.
  if (!(err instanceof Error) || err instanceof StartError || err instanceof DatabaseStartError) return err;
  const line =
    listenFailure(err, settings) ??
    (backendOf(settings.databaseUrl) === 'postgres' ? postgresFailure(err, settings.databaseUrl) : undefined);
  return line ? new StartError(line, { cause: err }) : err;
}
