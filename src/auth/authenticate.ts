import { createHash, randomBytes } from 'node:crypto';
import { preparedQuery } from '../db/prepared.js';
import type { Trx } from '../db/tables.js';
import { RestError, restErrors } from '../http/errors.js';
import { hashAppPassword, hashIsOutdated, normalizeAppPassword, verifyAppPassword } from './app-passwords.js';
import type { Caller } from './capabilities.js';
import { isRole } from './roles.js';

const DAY = 24 * 60 * 60;
const CACHE_TTL_MS = 60_000;

/** The login and password of an `Authorization: Basic` header, as sent. */
export interface BasicCredentials {
  login: string;
  password: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** No login or application password holds a control character; PostgreSQL text cannot even hold NUL. */
const CONTROL = /\p{Cc}/u;

/**
 * The credentials of an `Authorization` header: `null` without one or for another scheme
 * (anonymous, common.md 7.2). A Basic header that carries no decodable `login:password` (empty,
 * not base64, not UTF-8, no colon) throws the 401: the standalone answers 401 to any Basic
 * attempt that fails (common.md 7.2, "Failure"), never anonymous access.
 */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  if (!header || !/^basic(\s|$)/i.test(header)) return null;
  const token = header.slice('basic'.length).trim();
  if (!BASE64.test(token) || token.replace(/=+$/, '').length % 4 === 1) throw restErrors.incorrectPassword();
  let decoded: string;
  try {
    decoded = UTF8.decode(Buffer.from(token, 'base64'));
  } catch {
    throw restErrors.incorrectPassword();
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) throw restErrors.incorrectPassword();
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The refusals that answer a guess (unknown user, wrong password); the throttle counts these. */
export function isWrongCredential(err: unknown): boolean {
  return err instanceof RestError && ['invalid_username', 'invalid_email', 'incorrect_password'].includes(err.code);
}

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
 * Hashes are slow on purpose (scrypt, a little over 32 MB of memory each), so a successful check
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

  /** No Basic header → anonymous (`null`); a bad credential throws the 401 RestError. */
  async authenticate(header: string | undefined, ip: string): Promise<Caller | null> {
    const credentials = parseBasicAuthorization(header);
    return credentials ? this.authenticateCredentials(credentials, ip) : null;
  }

  /** The caller of parsed Basic credentials; a bad credential throws the 401 RestError. */
  async authenticateCredentials(credentials: BasicCredentials, ip: string): Promise<Caller> {
    const { login } = credentials;
    // Refused before any query or hash: such a login matches no user, and the password would
    // otherwise match once normalization strips the control characters.
    if (CONTROL.test(login)) throw restErrors.invalidUsername();
    if (CONTROL.test(credentials.password)) throw restErrors.incorrectPassword();
    const password = normalizeAppPassword(credentials.password);

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
        if (hashIsOutdated(candidate.password_hash))
          await this.rehash(candidate.uuid, candidate.password_hash, password);
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
    await this.db
      .updateTable('app_passwords')
      .set({ password_hash: hash })
      .where('uuid', '=', uuid)
      .where('password_hash', '=', previous)
      .execute();
  }

  /** `last_used` / `last_ip` are written at most once a day (common.md 7.2). */
  private async touch(uuid: string, lastUsed: number | null, ip: string) {
    const now = Math.floor(Date.now() / 1000);
    if (lastUsed !== null && now - Number(lastUsed) < DAY) return;
    await this.db.updateTable('app_passwords').set({ last_used: now, last_ip: ip }).where('uuid', '=', uuid).execute();
  }
}
