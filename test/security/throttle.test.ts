import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type TestResponse } from '../support/server.js';
import { Authenticator } from '../../src/auth/authenticate.js';
import { verifyAppPassword } from '../../src/auth/app-passwords.js';
import { loadConfig } from '../../src/config.js';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
/** With TRUST_PROXY the client address is the X-Forwarded-For value, so one test can speak from several. */
const from = (address: string, authorization?: string) => ({
  headers: { 'x-forwarded-for': address, ...(authorization ? { authorization } : {}) },
});

function expectRetryAfter(res: TestResponse, atMost: number): number {
  const value = res.headers.get('retry-after');
  assert.match(value ?? '', /^[1-9]\d*$/, `Retry-After must be a positive whole number of seconds, got ${value}`);
  assert.ok(Number(value) <= atMost, `Retry-After ${value} is beyond the window of ${atMost} s`);
  return Number(value);
}

const LOGIN_MESSAGE = 'Too many failed login attempts. Please try again later.';

forEachBackend(
  'Failed-login throttle',
  (srv) => {
    it('after 3 failures for a login, every attempt for it is 429 with Retry-After, the right password included', async () => {
      const victim = await srv().user('editor', 'victim');
      const bystander = await srv().user('author', 'bystander');
      for (let i = 0; i < 3; i++) {
        expectRestError(
          await srv().get('/', from(`198.51.100.${i + 1}`, basic('victim', `wrong ${i}`))),
          401,
          'incorrect_password',
        );
      }
      const wrong = await srv().get('/', from('198.51.100.10', basic('victim', 'wrong again')));
      expectRestError(wrong, 429, 'too_many_login_attempts', LOGIN_MESSAGE);
      assert.deepEqual(wrong.body.data, { status: 429 });
      expectRetryAfter(wrong, 900);
      // The throttle is useless if the right password got through while throttled.
      const right = await srv().get('/', from('198.51.100.11', victim.header));
      expectRestError(right, 429, 'too_many_login_attempts');
      expectRetryAfter(right, 900);
      // Other users from other addresses are not slowed.
      const other = await srv().get('/', from('198.51.100.12', bystander.header));
      assert.equal(other.status, 200);
      assert.equal(other.headers.get('retry-after'), null);
      // Anonymous requests are not affected by a login's throttle.
      assert.equal((await srv().get('/', from('198.51.100.1'))).status, 200);
    });

    it('after 5 failures from an address, every login from it is 429; other addresses are not slowed', async () => {
      const walker = await srv().user('author', 'walker');
      for (let i = 0; i < 5; i++) {
        const res = await srv().get('/', from('203.0.113.7', basic(`ghost${i}`, 'abcd')));
        expectRestError(res, 401, 'invalid_username');
      }
      const blocked = await srv().get('/events', from('203.0.113.7', walker.header));
      expectRestError(blocked, 429, 'too_many_login_attempts', LOGIN_MESSAGE);
      expectRetryAfter(blocked, 900);
      // A malformed credential from the throttled address is throttled as well.
      expectRestError(await srv().get('/', from('203.0.113.7', 'Basic')), 429, 'too_many_login_attempts');
      assert.equal((await srv().get('/events', from('203.0.113.8', walker.header))).status, 200);
    });

    it('malformed credentials count as failures of their address', async () => {
      for (let i = 0; i < 5; i++)
        expectRestError(await srv().get('/', from('203.0.113.20', 'Basic !!')), 401, 'incorrect_password');
      expectRestError(await srv().get('/', from('203.0.113.20', 'Basic !!')), 429, 'too_many_login_attempts');
    });

    it('successful logins are never counted', async () => {
      const busy = await srv().user('editor', 'busy');
      for (let i = 0; i < 12; i++) assert.equal((await srv().get('/', from('203.0.113.30', busy.header))).status, 200);
      // Two failures still leave room for a third attempt.
      for (let i = 0; i < 2; i++)
        expectRestError(await srv().get('/', from('203.0.113.30', basic('busy', 'nope'))), 401, 'incorrect_password');
      assert.equal((await srv().get('/', from('203.0.113.30', busy.header))).status, 200);
    });

    it('a disabled account is not a guess: its refusals do not throttle it', async () => {
      const sleeper = await srv().user('author', 'sleeper');
      await srv().db.updateTable('users').set({ status: 'disabled' }).where('id', '=', sleeper.id).execute();
      for (let i = 0; i < 4; i++) {
        expectRestError(
          await srv().get('/', from(`192.0.2.${i + 1}`, sleeper.header)),
          401,
          'application_passwords_disabled_for_user',
        );
      }
      await srv().db.updateTable('users').set({ status: 'enabled' }).where('id', '=', sleeper.id).execute();
      assert.equal((await srv().get('/', from('192.0.2.9', sleeper.header))).status, 200);
    });

    it('a throttled attempt is refused before any password hash is computed', async () => {
      const target = await srv().user('editor', 'target');
      let hashes = 0;
      const previous = srv().built.app.authenticator;
      srv().built.app.authenticator = new Authenticator(
        srv().db,
        (password, stored) => (hashes++, verifyAppPassword(password, stored)),
      );
      try {
        for (let i = 0; i < 3; i++) await srv().get('/', from(`192.0.2.${20 + i}`, basic('target', `guess ${i}`)));
        assert.equal(hashes, 3);
        expectRestError(
          await srv().get('/', from('192.0.2.30', basic('target', 'guess 4'))),
          429,
          'too_many_login_attempts',
        );
        expectRestError(await srv().get('/', from('192.0.2.31', target.header)), 429, 'too_many_login_attempts');
        assert.equal(hashes, 3);
      } finally {
        srv().built.app.authenticator = previous;
      }
    });

    it('guesses sent together cannot exceed the limit: attempts being checked count', async () => {
      await srv().user('editor', 'crowded');
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          srv().get('/', from(`192.0.2.${40 + i}`, basic('crowded', `parallel ${i}`))),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      assert.equal(
        statuses.filter((s) => s === 401).length,
        3,
        `expected 3 checked guesses, got ${statuses.join(',')}`,
      );
      assert.equal(statuses.filter((s) => s === 429).length, 9);
    });

    it('anonymous requests are not limited unless RATE_LIMIT_PER_MINUTE is set', async () => {
      for (let i = 0; i < 30; i++) assert.equal((await srv().get('/', from('203.0.113.99'))).status, 200);
    });
  },
  {
    TRUST_PROXY: 'true',
    LOGIN_FAILURES_PER_LOGIN: '3',
    LOGIN_FAILURES_PER_ADDRESS: '5',
    LOGIN_FAILURE_WINDOW_SECONDS: '900',
  },
);

forEachBackend(
  'RATE_LIMIT_PER_MINUTE',
  (srv) => {
    it('an address past the limit of anonymous requests gets 429 with Retry-After; others and callers with credentials do not', async () => {
      const member = await srv().user('subscriber', 'member');
      for (let i = 0; i < 4; i++) assert.equal((await srv().get('/events', from('198.51.100.50'))).status, 200);
      const limited = await srv().get('/events', from('198.51.100.50'));
      expectRestError(limited, 429, 'rest_too_many_requests', 'Too many requests. Please try again later.');
      assert.deepEqual(limited.body.data, { status: 429 });
      expectRetryAfter(limited, 60);
      // Also on paths outside the REST namespace.
      expectRestError(
        await srv().get(`${srv().origin}/no-such-page`, from('198.51.100.50')),
        429,
        'rest_too_many_requests',
      );
      assert.equal((await srv().get('/events', from('198.51.100.51'))).status, 200);
      for (let i = 0; i < 6; i++)
        assert.equal((await srv().get('/events', from('198.51.100.50', member.header))).status, 200);
    });
  },
  { TRUST_PROXY: 'true', RATE_LIMIT_PER_MINUTE: '4' },
);

it('the throttle limits default to 10 per login and 50 per address in 15 minutes, no anonymous limit, and bad values are refused', () => {
  const config = loadConfig({});
  assert.equal(config.loginFailuresPerLogin, 10);
  assert.equal(config.loginFailuresPerAddress, 50);
  assert.equal(config.loginFailureWindowSeconds, 900);
  assert.equal(config.rateLimitPerMinute, 0);
  const set = loadConfig({
    LOGIN_FAILURES_PER_LOGIN: '0',
    LOGIN_FAILURES_PER_ADDRESS: '7',
    LOGIN_FAILURE_WINDOW_SECONDS: '60',
    RATE_LIMIT_PER_MINUTE: '120',
  });
  assert.deepEqual(
    [set.loginFailuresPerLogin, set.loginFailuresPerAddress, set.loginFailureWindowSeconds, set.rateLimitPerMinute],
    [0, 7, 60, 120],
  );
  assert.throws(() => loadConfig({ RATE_LIMIT_PER_MINUTE: 'lots' }), /RATE_LIMIT_PER_MINUTE must be a whole number/);
  assert.throws(
    () => loadConfig({ LOGIN_FAILURE_WINDOW_SECONDS: '0' }),
    /LOGIN_FAILURE_WINDOW_SECONDS must be between 1 and/,
  );
});
