import { randomBytes, randomInt, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Trx } from '../db/tables.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
/**
 * New hashes: N = 2^15 works in a little over 32 MB, which the C allocator always maps for the call
 * and returns afterwards. At 2^14 (16 MB, the earlier setting, still verified from stored hashes)
 * the allocator keeps each block in the arena of the thread-pool thread that ran it, for the life
 * of the process. A hash with other parameters is replaced at its next successful use
 * (authenticate.ts).
 */
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
/** How a stored hash made with these parameters begins; salt and hash follow. */
const CURRENT_PREFIX = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$`;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** WordPress compares application passwords with every non-alphanumeric character removed (common.md 7.2). */
export function normalizeAppPassword(password: string): string {
  return password.replace(/[^A-Za-z0-9]/g, '');
}

/** 24 characters of [A-Za-z0-9], shown in groups of four (common.md 7.2). */
export function generateAppPassword(): string {
  let out = '';
  for (let i = 0; i < 24; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out.replace(/(.{4})(?=.)/g, '$1 ');
}

export async function hashAppPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(normalizeAppPassword(password), salt, 32, SCRYPT);
  return `${CURRENT_PREFIX}${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Whether a stored hash was made with other scrypt parameters than new hashes get. */
export function hashIsOutdated(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}

export async function verifyAppPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(normalizeAppPassword(password), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

export class AppPasswordError extends Error {}

export async function createAppPassword(
  trx: Trx,
  userId: number,
  name: string,
  password: string = generateAppPassword(),
): Promise<{ uuid: string; password: string }> {
  const existing = await trx.selectFrom('app_passwords').select(['name']).where('user_id', '=', userId).execute();
  if (existing.some((row) => row.name.toLowerCase() === name.toLowerCase())) {
    throw new AppPasswordError(`an application password named "${name}" already exists for this user`);
  }
  const uuid = randomUUID();
  await trx
    .insertInto('app_passwords')
    .values({
      user_id: userId,
      uuid,
      name,
      password_hash: await hashAppPassword(password),
      created: Math.floor(Date.now() / 1000),
      last_used: null,
      last_ip: null,
    })
    .execute();
  return { uuid, password };
}

export async function listAppPasswords(trx: Trx, userId: number) {
  return trx
    .selectFrom('app_passwords')
    .select(['uuid', 'name', 'created', 'last_used', 'last_ip'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Revokes by name (case-insensitive) or uuid; returns how many were removed. */
export async function revokeAppPassword(trx: Trx, userId: number, nameOrUuid: string): Promise<number> {
  const rows = await listAppPasswords(trx, userId);
  const target = rows.find((r) => r.uuid === nameOrUuid || r.name.toLowerCase() === nameOrUuid.toLowerCase());
  if (!target) return 0;
  const result = await trx.deleteFrom('app_passwords').where('uuid', '=', target.uuid).executeTakeFirst();
  return Number(result.numDeletedRows);
}
