import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const raw = (bytes: number[]) => `Basic ${Buffer.from(bytes).toString('base64')}`;

function cli(srv: TestServer, ...argv: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
    env: { ...process.env, DATABASE_URL: srv.databaseUrl },
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

forEachBackend('Basic credentials', (srv) => {
  describe('a Basic header without a usable login:password is 401, never anonymous', () => {
    for (const [name, header] of [
      ['an empty token', 'Basic'],
      ['an empty token after a space', 'Basic '],
      ['an empty token in lower case', 'basic'],
      ['a token that is not base64', 'Basic !!not*base64!!'],
      ['a token with an impossible length', 'Basic QWxhZ'],
      ['a token without a colon', `Basic ${Buffer.from('nocolon').toString('base64')}`],
      ['a token of invalid UTF-8', raw([0xff, 0xfe, 0x3a, 0x61])],
    ] as const) {
      it(`${name} is 401 incorrect_password`, async () => {
        for (const path of ['/', '/events', '/no-such-route']) {
          const res = await srv().get(path, { headers: { authorization: header } });
          expectRestError(res, 401, 'incorrect_password', 'The provided password is an invalid application password.');
          assert.equal(res.headers.get('www-authenticate'), null);
        }
      });
    }
  });

  it('Basic ADoA (NUL:NUL) is 401 invalid_username, not a database error', async () => {
    const res = await srv().get('/', { headers: { authorization: 'Basic ADoA' } });
    expectRestError(res, 401, 'invalid_username');
    assert.deepEqual(Object.keys(res.body), ['code', 'message', 'data']);
    assert.deepEqual(res.body.data, { status: 401 });
  });

  it('a login with a NUL or another control character is 401 invalid_username', async () => {
    const admin = await srv().user('administrator');
    for (const login of [
      `${admin.login}\u0000`,
      `\u0000${admin.login}`,
      `${admin.login}\u0007`,
      `${admin.login}\u0085`,
      `${admin.login}@example.org\u0000`,
    ]) {
      expectRestError(
        await srv().get('/', { headers: { authorization: basic(login, admin.password) } }),
        401,
        'invalid_username',
      );
    }
  });

  it('the right password with a NUL or another control character in it is 401 incorrect_password', async () => {
    const admin = await srv().user('administrator');
    assert.equal((await srv().get('/', { as: admin })).status, 200);
    for (const password of [
      `${admin.password}\u0000`,
      admin.password.replace(' ', '\u0000'),
      admin.password.replace(' ', '\t'),
      `\u001b${admin.password}`,
    ]) {
      expectRestError(
        await srv().get('/', { headers: { authorization: basic(admin.login, password) } }),
        401,
        'incorrect_password',
      );
    }
    // The credential itself still works.
    assert.equal((await srv().get('/', { as: admin })).status, 200);
  });

  it('a well-formed header of another scheme stays anonymous', async () => {
    const res = await srv().get('/', { headers: { authorization: 'Basically nothing' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), null);
  });
});

forEachBackend('calendar user disable / enable', (srv) => {
  it('a disabled user is refused with 401 at once (even a remembered credential), and enable restores it', async () => {
    const editor = await srv().user('editor', 'dora');
    const bystander = await srv().user('author', 'bystander');
    assert.equal((await srv().get('/', { as: editor })).status, 200);

    const disabled = cli(srv(), 'user', 'disable', 'dora');
    assert.equal(disabled.code, 0, disabled.err);
    assert.match(disabled.out, /^dora is now disabled$/m);
    const list = cli(srv(), 'user', 'list');
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /\tdora\teditor\tdora@example\.org\tdisabled\n/);
    assert.match(list.out, /\tbystander\tauthor\tbystander@example\.org\tenabled\n/);

    const refused = await srv().get('/', { as: editor });
    expectRestError(
      refused,
      401,
      'application_passwords_disabled_for_user',
      'Application passwords are not available for your account. Please contact the site administrator for assistance.',
    );
    assert.deepEqual(refused.body.data, { status: 401 });
    // Refused on a write too, not treated as anonymous.
    expectRestError(
      await srv().post('/events', {
        as: editor,
        json: { title: 'x', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
      }),
      401,
      'application_passwords_disabled_for_user',
    );
    assert.equal((await srv().get('/', { as: bystander })).status, 200);

    const enabled = cli(srv(), 'user', 'enable', 'dora');
    assert.equal(enabled.code, 0, enabled.err);
    assert.match(enabled.out, /^dora is now enabled$/m);
    assert.match(cli(srv(), 'user', 'list').out, /\tdora\teditor\tdora@example\.org\tenabled\n/);
    const back = await srv().get('/', { as: editor });
    assert.equal(back.status, 200);
    assert.equal(back.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0, no-store, private');
  });

  it('disable / enable of an unknown login fail with a clear message', () => {
    for (const verb of ['disable', 'enable']) {
      const res = cli(srv(), 'user', verb, 'nobody');
      assert.equal(res.code, 1);
      assert.match(res.err, /no user with login "nobody"/);
    }
  });
});
