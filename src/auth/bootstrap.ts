import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { createAppPassword, listAppPasswords, revokeAppPassword } from './app-passwords.js';
import { findUserByLogin, insertUser } from './users.js';
import { Authenticator } from './authenticate.js';

const BOOTSTRAP_NAME = 'bootstrap';

/**
 * Non-interactive first start: makes sure `login` exists as an administrator and that `password`
 * authenticates it (CALENDAR_ADMIN_USER / CALENDAR_ADMIN_APP_PASSWORD).
 */
export async function ensureAdmin(db: Kysely<Database>, login: string, password: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    let user = await findUserByLogin(trx, login);
    if (!user) {
      await insertUser(trx, { login, role: 'administrator' });
      user = (await findUserByLogin(trx, login))!;
    } else if (user.role !== 'administrator') {
      await trx
        .updateTable('users')
        .set({ role: 'administrator', status: 'enabled' })
        .where('id', '=', user.id)
        .execute();
    }
    try {
      const caller = await new Authenticator(trx).authenticate(
        `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
        '127.0.0.1',
      );
      if (caller) return;
    } catch {
      // Not yet valid: (re)create the bootstrap password below.
    }
    if ((await listAppPasswords(trx, user.id)).some((p) => p.name === BOOTSTRAP_NAME)) {
      await revokeAppPassword(trx, user.id, BOOTSTRAP_NAME);
    }
    await createAppPassword(trx, user.id, BOOTSTRAP_NAME, password);
  });
}
