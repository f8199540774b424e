import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent } from '../events/helpers.js';
import { LogLines } from '../support/log-lines.js';
import {
  abandonEventCreate,
  backends,
  startTestServer,
  type Credentials,
  type TestResponse,
  type TestServer,
} from '../support/server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What every request's line holds besides the fields a test checks. */
function assertCommon(line: Record<string, unknown>, res: TestResponse): void {
  assert.equal(line.level, 30, 'info');
  assert.equal(line.msg, 'request completed');
  assert.equal(line.status, res.status);
  assert.equal(typeof line.duration_ms, 'number');
  assert.ok((line.duration_ms as number) >= 0);
  assert.equal(line.bytes, Number(res.headers.get('content-length') ?? 0));
}

for (const backend of backends) {
  describe(`one log line per request [${backend}]`, () => {
    const log = new LogLines();
    let srv: TestServer;
    let editor: Credentials;
    let eventId: number;
    let lockedId: number;
    before(async () => {
      srv = await startTestServer(backend, { LOG_LEVEL: 'info' }, log);
      editor = await srv.user('editor');
      eventId = (await makeEvent(srv)).id;
      lockedId = (await makeEvent(srv, { post_password: 'event-secret' })).id;
    });
    after(() => srv.close());

    it('a read: method, route pattern, status, duration, bytes, cache miss then hit, user id', async () => {
      const first = await srv.get(`/events/${eventId}`, {
        as: editor,
        headers: { 'x-request-id': 'trace-1.a:b+c/d=e_f-g' },
      });
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-request-id'), 'trace-1.a:b+c/d=e_f-g', 'a safe incoming ID is echoed');
      const line = await log.lineOf(first);
      assertCommon(line, first);
      assert.equal(line.method, 'GET');
      assert.equal(line.route, '/events/(?P<id>\\d+)');
      assert.equal(line.cache, 'miss');
      assert.equal(line.user_id, editor.id);
      assert.ok((line.bytes as number) > 0);

      const again = await srv.get(`/events/${eventId}`, { as: editor });
      assert.equal((await log.lineOf(again)).cache, 'hit');
    });

    it('an anonymous read of a password-protected event', async () => {
      const res = await srv.get(`/events/${lockedId}`, { query: { password: 'event-secret' } });
      assert.equal(res.status, 200);
      const line = await log.lineOf(res);
      assertCommon(line, res);
      assert.equal(line.route, '/events/(?P<id>\\d+)');
      assert.equal(line.user_id, null);
    });

    it('without an incoming ID, or with an unsafe one, a UUID is made', async () => {
      const unsafe = ['', 'two words', 'x'.repeat(129), 'a"b', 'a;b'];
      for (const given of [undefined, ...unsafe]) {
        const res = await srv.get('/', given === undefined ? {} : { headers: { 'x-request-id': given } });
        const id = res.headers.get('x-request-id') ?? '';
        assert.match(id, UUID, `for ${JSON.stringify(given)}`);
        assert.equal((await log.lineOf(res)).route, '/');
      }
      const longest = 'x'.repeat(128);
      assert.equal((await srv.get('/', { headers: { 'x-request-id': longest } })).headers.get('x-request-id'), longest);
    });

    it('a write: POST, 201, no cache', async () => {
      const res = await srv.post('/events', {
        as: editor,
        json: { title: 'Logged', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
      });
      assert.equal(res.status, 201);
      const line = await log.lineOf(res);
      assertCommon(line, res);
      assert.equal(line.method, 'POST');
      assert.equal(line.route, '/events');
      assert.equal(line.cache, null);
      assert.equal(line.user_id, editor.id);
    });

    it('a request whose client went away before its answer is logged once, with the answer it got', async () => {
      const author = await srv.user('author', 'leaves-early');
      await abandonEventCreate(srv, author, 'Left', { 'x-request-id': 'gone-1' });
      await srv.built.inFlight.settled();
      await new Promise((r) => setTimeout(r, 50));
      const lines = log.lines.filter((l) => l.request_id === 'gone-1');
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.equal(lines[0]!.msg, 'client gone before the answer was sent');
      assert.equal(lines[0]!.status, 201);
      assert.equal(lines[0]!.route, '/events');
      assert.equal(lines[0]!.user_id, author.id);
    });

    it('errors carry the ID and are logged once: no route, a bad credential, a bad URL, a body too large', async () => {
      const noRoute = await srv.get('/nowhere');
      assert.equal(noRoute.status, 404);
      assert.equal((await log.lineOf(noRoute)).route, '(unmatched)');

      const wrong = `Basic ${Buffer.from(`${editor.login}:not-the-password`).toString('base64')}`;
      const refused = await srv.get('/events', { headers: { authorization: wrong } });
      assert.equal(refused.status, 401);
      const line = await log.lineOf(refused);
      assertCommon(line, refused);
      assert.equal(line.route, '(unmatched)', 'refused before the route is looked up');
      assert.equal(line.user_id, null);

      const badUrl = await srv.get(`${srv.origin}/wp-json/calendar/events/v1/events/by-slug/%E0%A4%A`);
      assert.equal(badUrl.status, 400);
      const refusedLine = await log.lineOf(badUrl);
      assertCommon(refusedLine, badUrl);
      assert.equal(refusedLine.route, '(refused)');

      const tooLarge = await srv.request('POST', '/events', {
        body: JSON.stringify({ title: 'x'.repeat(1_100_000) }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(tooLarge.status, 413);
      assert.equal((await log.lineOf(tooLarge)).route, '(refused)');
    });

    it('a 304 and a cached answer carry the ID', async () => {
      const path = `/events/${eventId}`;
      const built = await srv.get(path);
      const etag = built.headers.get('etag');
      assert.ok(etag);
      const cached = await srv.get(path);
      assert.match(cached.headers.get('x-request-id') ?? '', UUID);
      assert.equal((await log.lineOf(cached)).cache, 'hit');
      const notModified = await srv.get(path, { headers: { 'if-none-match': etag } });
      assert.equal(notModified.status, 304);
      assert.match(notModified.headers.get('x-request-id') ?? '', UUID);
      const line = await log.lineOf(notModified);
      assertCommon(line, notModified);
      assert.equal(line.bytes, 0);
      assert.equal(line.cache, 'hit');
    });

    it('site pages, the REST index and /healthz have labels of their own', async () => {
      const labels: Array<[string, string]> = [
        [`${srv.origin}/`, '(site)'],
        [`${srv.origin}/docs`, '(site)'],
        [`${srv.origin}/no/such/page`, '(site)'],
        [`${srv.origin}/wp-json/`, '(rest-index)'],
        [`${srv.origin}/xx/wp-json/`, '(unmatched)'],
        [`${srv.origin}/healthz`, '/healthz'],
      ];
      for (const [url, route] of labels) {
        const res = await srv.get(url);
        const line = await log.lineOf(res);
        assertCommon(line, res);
        assert.equal(line.route, route, url);
      }
    });

    it('no line holds a password, the Authorization header or the query', async () => {
      const text = log.raw.join('');
      assert.ok(log.lines.length > 10);
      assert.doesNotMatch(text, /incoming request/);
      assert.ok(!text.includes(editor.password), 'the application password');
      assert.ok(!text.includes(editor.header.slice('Basic '.length)), 'the Basic credential');
      assert.doesNotMatch(text, /not-the-password|event-secret|authorization|Basic /i);
    });
  });
}

describe('request log at LOG_LEVEL=warn', () => {
  const log = new LogLines();
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(backends[0]!, { LOG_LEVEL: 'warn' }, log);
  });
  after(() => srv.close());

  it('writes no line, and still sends the ID', async () => {
    const res = await srv.get('/events');
    assert.match(res.headers.get('x-request-id') ?? '', UUID);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(log.lines, []);
  });
});
