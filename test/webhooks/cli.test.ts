import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { forEachBackend, type TestServer } from '../support/server.js';

function cli(srv: TestServer, ...argv: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
    env: { ...process.env, DATABASE_URL: srv.databaseUrl },
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

forEachBackend('calendar webhook', (srv) => {
  it('add / list / rotate-secret / remove manage subscriptions; bad input exits 1 and stores nothing', async () => {
    const badUrl = cli(srv(), 'webhook', 'add', 'ftp://example.org/x', '--events', 'event.created');
    assert.equal(badUrl.code, 1);
    assert.match(badUrl.err, /not an http or https URL/);
    const badEvents = cli(srv(), 'webhook', 'add', 'https://example.org/x', '--events', 'event.exploded');
    assert.equal(badEvents.code, 1);
    assert.match(badEvents.err, /unknown event type/);
    assert.equal((await srv().db.selectFrom('webhooks').selectAll().execute()).length, 0);

    const added = cli(srv(), 'webhook', 'add', 'https://example.org/hook', '--events', 'event.created,venue.*');
    assert.equal(added.code, 0, added.err);
    const [line, secret] = added.out.trim().split('\n');
    const id = /^added webhook (\d+): https:\/\/example\.org\/hook \(event\.created,venue\.\*\)$/.exec(line!)?.[1];
    assert.ok(id, added.out);
    assert.match(secret!, /^whsec_/);
    const stored = await srv().db.selectFrom('webhooks').selectAll().executeTakeFirstOrThrow();
    assert.equal(stored.secret, secret);

    const list = cli(srv(), 'webhook', 'list');
    assert.equal(list.out, `${id}\thttps://example.org/hook\tevent.created,venue.*\tenabled\n`);
    assert.doesNotMatch(list.out, /whsec_/);

    const rotated = cli(srv(), 'webhook', 'rotate-secret', id!);
    assert.equal(rotated.code, 0, rotated.err);
    const newSecret = rotated.out.trim().split('\n').at(-1);
    assert.notEqual(newSecret, secret);
    assert.equal((await srv().db.selectFrom('webhooks').select('secret').executeTakeFirstOrThrow()).secret, newSecret);

    assert.equal(cli(srv(), 'webhook', 'remove', id!).code, 0);
    assert.equal(cli(srv(), 'webhook', 'list').out, '');
    const missing = cli(srv(), 'webhook', 'remove', id!);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no webhook with ID/);
  });
});
