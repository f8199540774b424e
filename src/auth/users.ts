import type { Trx } from '../db/tables.js';
import { isRole, type Role } from './roles.js';

export class UserError extends Error {}

export async function findUserByLogin(trx: Trx, login: string) {
  return trx.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
}

export async function getUserByLogin(trx: Trx, login: string) {
  const user = await findUserByLogin(trx, login);
  if (!user) throw new UserError(`no user with login "${login}"`);
  return user;
}

export async function findUserById(trx: Trx, id: number) {
  return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(
  trx: Trx,
  input: { login: string; role: string; email?: string; displayName?: string },
) {
  const login = input.login.trim();
  if (!/^[A-Za-z0-9._@ -]{1,60}$/.test(login)) {
    throw new UserError('a login is 1 to 60 letters, digits, spaces or . _ @ -');
  }
  if (!isRole(input.role))
    throw new UserError(
      `role must be one of administrator, editor, author, contributor, subscriber (got "${input.role}")`,
    );
  const email = (input.email ?? '').trim();
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UserError(`"${email}" is not an e-mail address`);
  if (await findUserByLogin(trx, login)) throw new UserError(`a user with login "${login}" already exists`);
  const row = await trx
    .insertInto('users')
    .values({
      login,
      email,
      display_name: input.displayName ?? login,
      role: input.role as Role,
      status: 'enabled',
      created_at: new Date().toISOString(),
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listUsers(trx: Trx) {
  return trx.selectFrom('users').select(['id', 'login', 'email', 'role', 'status']).orderBy('id').execute();
}

export async function countUsers(trx: Trx): Promise<number> {
  const row = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function updateUserRole(trx: Trx, login: string, role: string) {
  if (!isRole(role))
    throw new UserError(`role must be one of administrator, editor, author, contributor, subscriber (got "${role}")`);
  const user = await getUserByLogin(trx, login);
  await trx.updateTable('users').set({ role }).where('id', '=', user.id).execute();
}

/** `enabled`, or `disabled`: every application password of the user is refused (common.md 7.5). */
export type UserStatus = 'enabled' | 'disabled';

export async function updateUserStatus(trx: Trx, login: string, status: UserStatus) {
  const user = await getUserByLogin(trx, login);
  await trx.updateTable('users').set({ status }).where('id', '=', user.id).execute();
}

export async function deleteUser(trx: Trx, login: string) {
  const user = await getUserByLogin(trx, login);
  await trx.deleteFrom('app_passwords').where('user_id', '=', user.id).execute();
  await trx.deleteFrom('users').where('id', '=', user.id).execute();
}
