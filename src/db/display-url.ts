import { resolve } from 'node:path';
import { backendOf } from './connect.js';

/**
 * A DATABASE_URL as an operator may see it on a terminal or in a log: a PostgreSQL URL without its user and password,
 * an SQLite file by its absolute path (a relative one depends on the folder the server was started in).
 */
export function displayDatabaseUrl(url: string): string {
  if (backendOf(url) === 'sqlite') {
    const file = url.replace(/^sqlite:/i, '');
    return file === ':memory:' ? url : `sqlite:${resolve(file)}`;
  }
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  // node-postgres also reads credentials from the query string.
  parsed.searchParams.delete('user');
  parsed.searchParams.delete('password');
  return parsed.href;
}
