import { createHash, randomBytes } from 'node:crypto';
import { preparedQuery } from '../db/prepared.js';
import type { Trx } from '../db/tables.js';
import { RestError, restErrors } from '../http/errors.js';
import { hashAppPassword, hashIsOutdated, normalizeAppPassword, verifyAppPassword } from './app-passwords.js';
import type { Caller } from './capabilities.js';
import { isRole } from './roles.js';

const DAY = 24 * 60 * 60;
const CACHE_TTL_MS = 60_000;

/** Checks a password against a stored hash (app-passwords.ts; a test may count the calls). */
export type VerifyPassword = (password: string, stored: string) => Promise<boolean>;

/** The user of an application password, for every request that carries one already verified. */
const userOfPassword = preparedQuery((db, v: { uuid: string }) =>
  db
    .selectFrom('app_passwords')
    .innerJoin('users', 'users.id', 'app_passwords.user_id')
    .select(['users.id', 'users.login', 'users.role', 'users.status'])
    .where('app_passwords.uuid', '=', v.uuid),
);

/**
 * Application-password authentication over HTTP Basic (common.md 7.2, 7.5).
 * Hashes are slow on purpose (scrypt: about 0.1 s and 32 MB each), so a successful check
 * is remembered for a minute under a digest keyed with a per-process secret, and requests that
 * arrive with the same credential while it is being checked wait for that one check (a client
 * opening many connections at once costs one hash, not one per connection). The password row
 * and the user are re-read on every request, so revoking a password or changing a role takes
 * effect at once.
 */
export class Authenticator {
  private readonly secret = randomBytes(32);
  private readonly verified = new Map<string, { uuid: string; until: number }>();
  private readonly checking = new Map<string, Promise<Caller>>();

  constructor(
    private readonly db: Trx,
    private readonly verify: VerifyPassword = verifyAppPassword,
  ) {}

  /** `undefined` header → anonymous (`null`); a bad credential throws the 401 RestError. */
  async authenticate(header: string | undefined, ip: string): Promise<Caller | null> {
    if (!header || !/^basic\s/i.test(header)) return null;
    const decoded = Buffer.from(header.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw restErrors.incorrectPassword();
    const login = decoded.slice(0, colon);
    const password = normalizeAppPassword(decoded.slice(colon + 1));

    const key = createHash('sha256').update(this.secret).update(login).update('\0').update(password).digest('base64');
    const hit = this.verified.get(key);
    if (hit && hit.until > Date.now()) {
      const caller = await this.callerForPassword(hit.uuid);
      if (caller) return caller;
      this.verified.delete(key);
    }
    let check = this.checking.get(key);
    if (!check) {
      check = this.check(key, login, password, ip).finally(() => this.checking.delete(key));
      this.checking.set(key, check);
    }
    return { ...(await check) };
  }

  /** The full check of a credential: the user, then each of their passwords' hashes. */
  private async check(key: string, login: string, password: string, ip: string): Promise<Caller> {
    let user = await this.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
    if (!user && login.includes('@')) {
      user = await this.db.selectFrom('users').selectAll().where('email', '=', login).executeTakeFirst();
      if (!user) throw restErrors.invalidEmail();
    }
    if (!user) throw restErrors.invalidUsername();
    if (user.status !== 'enabled') throw restErrors.applicationPasswordsDisabledForUser();
    const candidates = await this.db
      .selectFrom('app_passwords')
      .select(['uuid', 'password_hash', 'last_used'])
      .where('user_id', '=', user.id)
      .execute();
    for (const candidate of candidates) {
      if (await this.verify(password, candidate.password_hash)) {
        this.verified.set(key, { uuid: candidate.uuid, until: Date.now() + CACHE_TTL_MS });
        if (this.verified.size > 10_000) this.verified.delete(this.verified.keys().next().value as string);
        await this.touch(candidate.uuid, candidate.last_used, ip);
        if (hashIsOutdated(candidate.password_hash)) await this.rehash(candidate.uuid, candidate.password_hash, password);
        if (!isRole(user.role)) throw restErrors.applicationPasswordsDisabledForUser();
        return { id: user.id, login: user.login, role: user.role };
      }
    }
    throw restErrors.incorrectPassword();
  }

  private async callerForPassword(uuid: string): Promise<Caller | null> {
    const [row] = await userOfPassword(this.db, { uuid });
    if (!row || row.status !== 'enabled' || !isRole(row.role)) return null;
    return { id: row.id, login: row.login, role: row.role };
  }

  /** Stores the hash with the current parameters, unless the row changed since it was read. */
  private async rehash(uuid: string, previous: string, password: string) {
    const hash = await hashAppPassword(password);
    await this.db.updateTable('app_passwords').set({ password_hash: hash }).where('uuid', '=', uuid).where('password_hash', '=', previous).execute();
  }

  /** `last_used` / `last_ip` are written at most once a day (common.md 7.2). */
  private async touch(uuid: string, lastUsed: number | null, ip: string) {
    const now = Math.floor(Date.now() / 1000);
    if (lastUsed !== null && now - Number(lastUsed) < DAY) return;
    await this.db.updateTable('app_passwords').set({ last_used: now, last_ip: ip }).where('uuid', '=', uuid).execute();
  }
}

export function isRestError(err: unknown): err is RestError {
  return err instanceof RestError;
}
