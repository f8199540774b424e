import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import {
  isWrongCredential,
  parseBasicAuthorization,
  type Authenticator,
  type BasicCredentials,
} from '../auth/authenticate.js';
import type { Caller } from '../auth/capabilities.js';
import type { Config } from '../config.js';
import { RestError, restErrors } from './errors.js';

/**
 * Request limits: failed application-password logins per login and per client address
 * (`LOGIN_FAILURES_PER_LOGIN`, `LOGIN_FAILURES_PER_ADDRESS` within `LOGIN_FAILURE_WINDOW_SECONDS`),
 * and anonymous requests per address (`RATE_LIMIT_PER_MINUTE`).
 *
 * Contract of the login limits:
 * - Only wrong credentials count (unknown login or e-mail, wrong password, a Basic header that
 *   cannot be decoded); a success never does, nor a disabled account (no password was tried).
 * - Once a login or an address has reached its limit, every attempt for it answers 429
 *   `too_many_login_attempts` with `Retry-After` until its window ends, the right password
 *   included: otherwise the limit would only delay a guesser, who would see which guess is
 *   accepted. The price is that a guesser can lock a login out for a window; other logins and
 *   addresses are untouched.
 * - The limit is checked before the credential is, so a refused attempt costs no password hash.
 * - Attempts being checked count against the limit in the order they arrived, so guesses sent
 *   together cannot get more than the limit checked; requests repeating one credential share one
 *   check (authenticate.ts) and count once.
 *
 * Counting is @fastify/rate-limit's: one fixed window per key, in a least-recently-used store of
 * bounded size per limiter (the library's default), so memory stays bounded whatever the number of logins and addresses
 * tried. A failure is counted after it happens; each attempt first reads the count without
 * consuming (`increment: false`). Addresses are the library's normalized `request.ip` (IPv6 by
 * /64 prefix), which follows TRUST_PROXY. Attempts in flight are kept here, only while in flight.
 */
export interface Throttle {
  /** The caller of the request's Basic credentials behind the login limits; `null` when it has none. */
  authenticate(request: FastifyRequest, authenticator: Authenticator): Promise<Caller | null>;
  /** Counts an anonymous request against `RATE_LIMIT_PER_MINUTE`; throws the 429 past it. */
  countAnonymous(request: FastifyRequest): Promise<void>;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** The credentials being checked under one key, in order of arrival, each with its number of requests. */
class InFlight {
  private readonly byKey = new Map<string, Map<string, number>>();

  enter(key: string, credential: string) {
    let attempts = this.byKey.get(key);
    if (!attempts) this.byKey.set(key, (attempts = new Map()));
    attempts.set(credential, (attempts.get(credential) ?? 0) + 1);
  }

  leave(key: string, credential: string) {
    const attempts = this.byKey.get(key);
    const n = attempts?.get(credential);
    if (!attempts || n === undefined) return;
    if (n > 1) attempts.set(credential, n - 1);
    else attempts.delete(credential);
    if (attempts.size === 0) this.byKey.delete(key);
  }

  /** How many other credentials under `key` arrived before this one and are still being checked. */
  ahead(key: string, credential: string): number {
    let n = 0;
    for (const other of this.byKey.get(key)?.keys() ?? []) {
      if (other === credential) break;
      n++;
    }
    return n;
  }
}

/** One login limit (per login or per address): its counter and the attempts it is checking. */
class FailureLimit {
  private readonly inFlight = new InFlight();

  constructor(
    private readonly limiter: Limiter,
    /** The limiter's key of a request, known before any await so that places follow arrival. */
    private readonly keyOf: (request: FastifyRequest) => string,
  ) {}

  /** Takes the attempt's place; resolves to the seconds to wait when the limit is reached, else 0. */
  async enter(request: FastifyRequest, credential: string): Promise<number> {
    const key = this.keyOf(request);
    this.inFlight.enter(key, credential);
    const state = await this.limiter(request, { increment: false });
    if (state.isAllowed || state.remaining - this.inFlight.ahead(key, credential) > 0) return 0;
    return Math.max(1, state.ttlInSeconds);
  }

  leave(request: FastifyRequest, credential: string) {
    this.inFlight.leave(this.keyOf(request), credential);
  }

  async fail(request: FastifyRequest) {
    await this.limiter(request);
  }
}

/**
 * The address limiters' key of a request: its normalized address. A request whose client has
 * already gone has none (`request.ip` is then undefined, which the library's own key would throw
 * on); such requests share one key.
 */
const addressKey = (request: FastifyRequest) => normalizeIP(request.ip ?? '');

/**
 * The per-login limiter's key of a request, set once its credentials are parsed. A digest, so that
 * a stored key has a fixed size however long the login sent.
 */
const LOGIN_KEY = Symbol('login-key');
type WithLoginKey = FastifyRequest & { [LOGIN_KEY]?: string };
const loginKey = (request: FastifyRequest) => (request as WithLoginKey)[LOGIN_KEY] ?? '';

/**
 * Registers @fastify/rate-limit (no global hook: the dispatcher decides what counts) and builds
 * the limits the configuration turns on.
 */
export async function registerThrottle(fastify: FastifyInstance, config: Config): Promise<Throttle> {
  await fastify.register(rateLimit, { global: false });
  const window = config.loginFailureWindowSeconds * 1000;
  const byAddress =
    config.loginFailuresPerAddress > 0
      ? new FailureLimit(
          fastify.createRateLimit({
            max: config.loginFailuresPerAddress,
            timeWindow: window,
            keyGenerator: addressKey,
          }),
          addressKey,
        )
      : null;
  // The library keys by what its key generator reads from the request: the login parsed below is
  // carried on the request for it, so the header is decoded once.
  const byLogin =
    config.loginFailuresPerLogin > 0
      ? new FailureLimit(
          fastify.createRateLimit({ max: config.loginFailuresPerLogin, timeWindow: window, keyGenerator: loginKey }),
          loginKey,
        )
      : null;
  const anonymous =
    config.rateLimitPerMinute > 0
      ? fastify.createRateLimit({ max: config.rateLimitPerMinute, timeWindow: 60_000, keyGenerator: addressKey })
      : null;

  return {
    async authenticate(request, authenticator) {
      const header = request.headers.authorization;
      let parsed: BasicCredentials | RestError | null;
      try {
        parsed = parseBasicAuthorization(header);
      } catch (err) {
        if (!(err instanceof RestError)) throw err;
        parsed = err;
      }
      if (parsed === null || header === undefined) return null;
      const decoded = !(parsed instanceof RestError);
      if (!(parsed instanceof RestError))
        (request as WithLoginKey)[LOGIN_KEY] = createHash('sha256').update(parsed.login).digest('base64');
      // A header that cannot be decoded has no login: only its address counts it.
      const limits = [byAddress, decoded ? byLogin : null].filter((limit) => limit !== null);
      const entered: FailureLimit[] = [];
      try {
        let wait = 0;
        for (const limit of limits) {
          entered.push(limit);
          wait = Math.max(wait, await limit.enter(request, header));
        }
        if (wait > 0) throw restErrors.tooManyLoginAttempts(wait);
        try {
          if (parsed instanceof RestError) throw parsed;
          return await authenticator.authenticateCredentials(parsed, request.ip ?? '');
        } catch (err) {
          if (isWrongCredential(err)) for (const limit of limits) await limit.fail(request);
          throw err;
        }
      } finally {
        for (const limit of entered) limit.leave(request, header);
      }
    },

    async countAnonymous(request) {
      if (!anonymous) return;
      const state = await anonymous(request);
      if (!state.isAllowed && state.isExceeded) throw restErrors.tooManyRequests(Math.max(1, state.ttlInSeconds));
    },
  };
}
