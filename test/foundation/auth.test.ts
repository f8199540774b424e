import { randomBytes, scryptSync } from 'node:crypto';
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { normalizeAppPassword, revokeAppPassword, verifyAppPassword } from '../../src/auth/app-passwords.js';
import { Authenticator } from '../../src/auth/authenticate.js';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

forEachBackend('Authentication', (srv) => {
  it('anonymous requests are allowed on public routes and carry no no-cache headers', async () => {
    const res = await srv().get('/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), null);
  });

  it('a valid application password authenticates and marks the response private', async () => {
    const admin = await srv().user('administrator');
    const res = await srv().get('/', { as: admin });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('expires'), 'Wed, 11 Jan 1984 05:00:00 GMT');
    assert.equal(res.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0, no-store, private');
    assert.equal(res.headers.get('www-authenticate'), null);
  });

  it('the grouped display form of the password works (non-alphanumerics are ignored)', async () => {
    const admin = await srv().user('administrator');
    assert.match(admin.password, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const res = await srv().get('/', {
      headers: { authorization: basic(admin.login, admin.password.replace(/ /g, '-')) },
    });
    assert.equal(res.status, 200);
  });

  it('a user can log in by e-mail address', async () => {
    const admin = await srv().user('administrator');
    const res = await srv().get('/', {
      headers: { authorization: basic(`${admin.login}@example.org`, admin.password) },
    });
    assert.equal(res.status, 200);
  });

  it('a wrong password is 401 incorrect_password, even on an unknown route', async () => {
    const admin = await srv().user('administrator');
    for (const path of ['/', '/no-such-route']) {
      const res = await srv().get(path, { headers: { authorization: basic(admin.login, 'wrong wrong wrong') } });
      expectRestError(res, 401, 'incorrect_password', 'The provided password is an invalid application password.');
      assert.equal(res.headers.get('www-authenticate'), null);
    }
  });

  it('an unknown login is 401 invalid_username; an unknown e-mail is 401 invalid_email', async () => {
    expectRestError(
      await srv().get('/', { headers: { authorization: basic('ghost', 'abcd') } }),
      401,
      'invalid_username',
    );
    expectRestError(
      await srv().get('/', { headers: { authorization: basic('ghost@example.org', 'abcd') } }),
      401,
      'invalid_email',
    );
  });

  it('a revoked password is refused at once with 401', async () => {
    const editor = await srv().user('editor', 'revokee');
    assert.equal((await srv().get('/', { as: editor })).status, 200);
    assert.equal(await revokeAppPassword(srv().db, editor.id, 'tests'), 1);
    expectRestError(await srv().get('/', { as: editor }), 401, 'incorrect_password');
  });

  it('a successful use records last_used and last_ip', async () => {
    const author = await srv().user('author', 'stamped');
    await srv().get('/', { as: author });
    const row = await srv()
      .db.selectFrom('app_passwords')
      .select(['last_used', 'last_ip'])
      .where('user_id', '=', author.id)
      .executeTakeFirstOrThrow();
    assert.ok(Number(row.last_used) > Date.now() / 1000 - 60);
    assert.match(String(row.last_ip), /127\.0\.0\.1/);
  });

  it('the stored hash is a salted scrypt hash, never the password', async () => {
    const author = await srv().user('author', 'hashed');
    const row = await srv()
      .db.selectFrom('app_passwords')
      .select('password_hash')
      .where('user_id', '=', author.id)
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.ok(!row.password_hash.includes(author.password.replace(/ /g, '')));
  });

  it('a password stored with the earlier scrypt cost (N = 16384) still signs in, and is then stored at the current cost', async () => {
    const author = await srv().user('author', 'earlier');
    const salt = randomBytes(16);
    const hash = scryptSync(normalizeAppPassword(author.password), salt, 32, { N: 16384, r: 8, p: 1 });
    const stored = `scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`;
    await srv()
      .db.updateTable('app_passwords')
      .set({ password_hash: stored })
      .where('user_id', '=', author.id)
      .execute();
    const res = await srv().get('/', { as: author });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0, no-store, private');
    expectRestError(
      await srv().get('/', { headers: { authorization: basic(author.login, 'wrong wrong wrong') } }),
      401,
      'incorrect_password',
    );
    const row = await srv()
      .db.selectFrom('app_passwords')
      .select('password_hash')
      .where('user_id', '=', author.id)
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^scrypt\$32768\$8\$1\$/);
    assert.notEqual(row.password_hash, stored);
    // A new process (nothing remembered) checks the replaced hash.
    const fresh = new Authenticator(srv().db);
    assert.equal((await fresh.authenticate(basic(author.login, author.password), '127.0.0.1'))?.id, author.id);
    await assert.rejects(
      fresh.authenticate(basic(author.login, 'wrong wrong wrong'), '127.0.0.1'),
      (err: { code?: string }) => err.code === 'incorrect_password',
    );
  });

  it('requests arriving together with one credential share one hash check, right or wrong', async () => {
    const author = await srv().user('author', 'crowd');
    let checks = 0;
    const counting = (password: string, stored: string) => (checks++, verifyAppPassword(password, stored));
    const auth = new Authenticator(srv().db, counting);
    const callers = await Promise.all(
      Array.from({ length: 8 }, () => auth.authenticate(basic(author.login, author.password), '127.0.0.1')),
    );
    assert.equal(checks, 1);
    assert.deepEqual(new Set(callers.map((c) => c?.id)), new Set([author.id]));
    // Remembered afterwards: no further hash.
    assert.equal((await auth.authenticate(basic(author.login, author.password), '127.0.0.1'))?.login, 'crowd');
    assert.equal(checks, 1);
    const wrong = await Promise.allSettled(
      Array.from({ length: 8 }, () => auth.authenticate(basic(author.login, 'wrong wrong wrong'), '127.0.0.1')),
    );
    assert.equal(checks, 2);
    assert.deepEqual(
      new Set(wrong.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : 'accepted'))),
      new Set(['incorrect_password']),
    );
    // A wrong password is not remembered: the next try is checked again.
    await assert.rejects(auth.authenticate(basic(author.login, 'wrong wrong wrong'), '127.0.0.1'), {
      code: 'incorrect_password',
    });
    assert.equal(checks, 3);
  });

  it('other authorization schemes are treated as anonymous', async () => {
    const res = await srv().get('/', { headers: { authorization: 'Bearer abc' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), null);
  });
});

forEachBackend(
  'Administrator bootstrap from the environment',
  (srv) => {
    it('CALENDAR_ADMIN_USER / CALENDAR_ADMIN_APP_PASSWORD create an administrator that authenticates', async () => {
      const res = await srv().get('/', { headers: { authorization: basic('boss', 'abcd EFGH ijkl MNOP') } });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('cache-control'));
      const user = await srv()
        .db.selectFrom('users')
        .select(['role'])
        .where('login', '=', 'boss')
        .executeTakeFirstOrThrow();
      assert.equal(user.role, 'administrator');
      expectRestError(
        await srv().get('/', { headers: { authorization: basic('boss', 'nope nope') } }),
        401,
        'incorrect_password',
      );
    });
  },
  { CALENDAR_ADMIN_USER: 'boss', CALENDAR_ADMIN_APP_PASSWORD: 'abcd EFGH ijkl MNOP' },
);

forEachBackend('Setting require_https', (srv) => {
  it('refuses application passwords over plain HTTP once turned on, and anonymous reads still work', async () => {
    const admin = await srv().user('administrator');
    assert.equal((await srv().get('/', { as: admin })).status, 200);
    await srv().setSetting('require_https', 'on');
    expectRestError(
      await srv().get('/', { as: admin }),
      401,
      'application_passwords_disabled',
      'Application passwords are not available.',
    );
    assert.equal((await srv().get('/')).status, 200);
    await srv().setSetting('require_https', 'off');
    assert.equal((await srv().get('/', { as: admin })).status, 200);
  });
});
