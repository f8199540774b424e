/**
 * The CLI's imports write through the service's endpoints (import/call.ts), as an administrator:
 * the application is built as `serve` builds it, without listening, and closed afterwards.
 */
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { findUserByLogin } from '../auth/users.js';
import type { RequestContext } from '../http/route.js';
import { operatorContext } from '../import/call.js';
import { OpsError } from './errors.js';

/** The administrator named by `login`, else the first one created. */
async function administrator(db: RequestContext['app']['db'], login: string | undefined) {
  if (login !== undefined) {
    const user = await findUserByLogin(db, login);
    if (!user) throw new OpsError(`no user with login "${login}"`);
    if (user.role !== 'administrator') throw new OpsError(`${login} is no administrator: imports are theirs only`);
    return user;
  }
  const first = await db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'administrator')
    .where('status', '=', 'enabled')
    .orderBy('id')
    .executeTakeFirst();
  if (!first) throw new OpsError('there is no administrator to import as: create one with calendar user create');
  return first;
}

/** Runs `fn` with a context of the administrator `login` (default: the first), on the configured database. */
export async function asAdministrator<T>(
  config: Config,
  login: string | undefined,
  fn: (ctx: RequestContext) => Promise<T>,
): Promise<T> {
  const built = await buildApp({ ...config, logLevel: 'silent' });
  try {
    const user = await administrator(built.app.db, login);
    return await fn(await operatorContext(built.app, { id: user.id, login: user.login, role: 'administrator' }));
  } finally {
    await built.close();
  }
}
