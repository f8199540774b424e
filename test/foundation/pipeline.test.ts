import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { parseForm } from '../../src/app.js';
import { ResponseCache } from '../../src/http/cache.js';
import { restIndex, routeObject } from '../../src/http/discovery.js';
import { REQUEST_STAGES } from '../../src/http/dispatch.js';
import { RestError, restErrors } from '../../src/http/errors.js';
import { AnswerHeaders } from '../../src/http/answer-headers.js';
import { Exchange, jsonAnswer, type Answer, type Dispatcher, type Stage } from '../../src/http/exchange.js';
import { FaultLog } from '../../src/http/fault-log.js';
import { INVALID_JSON, LOOKS_LIKE_JSON } from '../../src/http/input.js';
import { compileRoutes } from '../../src/http/register.js';
import { errorAnswer, send } from '../../src/http/send.js';
import { registerThrottle, type Throttle } from '../../src/http/throttle.js';
import { listAllowedMethods } from '../../src/http/stages/allow.js';
import { authenticate } from '../../src/http/stages/authenticate.js';
import { cacheReads } from '../../src/http/stages/cache-reads.js';
import { authorize, handle, parseArguments } from '../../src/http/stages/call.js';
import { readBody } from '../../src/http/stages/read-body.js';
import { answerOptions, resolveRoute, selectEndpoint, serveRestIndex } from '../../src/http/stages/resolve-route.js';
import { applyEnvelope, applyFields } from '../../src/http/stages/shape.js';
import { serveSitePages } from '../../src/http/stages/site-pages.js';
import type { Role } from '../../src/auth/roles.js';
import type { EventUpdateInput } from '../../src/resources/events/schema.js';
import { forEachBackend, type TestServer } from '../support/server.js';

/**
 * Each stage of the dispatcher (http/dispatch.ts) on its own: an exchange made ready by the stages
 * before it, and a `next` that records whether the request was handed on. The HTTP tests cover
 * the stages together.
 */

const NS = '/wp-json/calendar/events/v1';
const PASSED = jsonAnswer(299, 'next stage', {});

interface Fixture {
  srv: () => TestServer;
  throttle: () => Throttle;
}

interface Call {
  method?: string;
  url: string;
  as?: Role;
  headers?: Record<string, string>;
  body?: unknown;
  /** Replaces pieces of the dispatcher. */
  with?: Partial<Dispatcher>;
}

/** Logged lines, by level. */
type Logged = Array<[string, string]>;

function fakeRequest(call: Call, headers: Record<string, string>, logged: Logged): FastifyRequest {
  const q = call.url.indexOf('?');
  const record = (level: string) => (_obj: unknown, message: string) => logged.push([level, message]);
  return {
    method: call.method ?? 'GET',
    raw: { url: call.url },
    query: q >= 0 ? parseForm(call.url.slice(q + 1)) : {},
    headers: { host: 'localhost', ...headers },
    body: call.body,
    ip: '127.0.0.1',
    protocol: 'http',
    // Read by the rate limiter (http/throttle.ts).
    routeOptions: { config: {} },
    log: { warn: record('warn'), error: record('error'), info: record('info') },
  } as unknown as FastifyRequest;
}

async function exchange(f: Fixture, call: Call): Promise<Exchange & { logged: Logged }> {
  const { app } = f.srv().built;
  const headers = { ...(call.headers ?? {}) };
  if (call.as) headers.authorization = (await f.srv().user(call.as)).header;
  const dispatcher: Dispatcher = {
    app,
    compiled: compileRoutes(app.routes),
    siteRoutes: [],
    restIndex,
    routeObject,
    cache: new ResponseCache(app.db),
    throttle: f.throttle(),
    faults: new FaultLog(),
    headers: new AnswerHeaders(app),
    ...call.with,
  };
  const logged: Logged = [];
  return Object.assign(new Exchange(dispatcher, fakeRequest(call, headers, logged)), { logged });
}

/** A `next` that answers `answer` (or throws it) and counts its calls. */
function nextStage(answer: Answer | Error = PASSED) {
  const next = async (): Promise<Answer> => {
    next.calls++;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  next.calls = 0;
  return next;
}

/** The stages that learn something and hand the request on. */
const SETTERS: Stage[] = [authenticate, resolveRoute, selectEndpoint, readBody, listAllowedMethods, parseArguments];

/** The exchange as the stages before `stage` leave it. */
async function readyFor(stage: Stage, f: Fixture, call: Call) {
  const x = await exchange(f, call);
  for (const earlier of REQUEST_STAGES.slice(0, REQUEST_STAGES.indexOf(stage))) {
    if (SETTERS.includes(earlier)) {
      assert.equal(await earlier(x, nextStage()), PASSED, `${earlier.name} answered ${call.url}`);
    }
  }
  return x;
}

/** Asserts that `run` throws the RestError `status` `code` (a stage may throw before returning a promise). */
async function rejects(run: () => unknown, status: number, code: string) {
  await assert.rejects(
    async () => run(),
    (err) => err instanceof RestError && err.status === status && err.code === code,
  );
}

function json(answer: Answer) {
  assert.equal(answer.kind, 'json');
  return answer as Extract<Answer, { kind: 'json' }>;
}

forEachBackend('Request stages', (srv) => {
  let throttle: Throttle;
  const server = Fastify();
  before(async () => {
    throttle = await registerThrottle(server, srv().config);
  });
  after(() => server.close());
  const f: Fixture = { srv, throttle: () => throttle };

  it('the order the flow relies on: credentials first, the cache before the call, the handler last', () => {
    const at = (stage: Stage) => REQUEST_STAGES.indexOf(stage);
    assert.equal(at(authenticate), 0, 'a bad credential is refused on any path, and before a cached answer');
    assert.ok(at(resolveRoute) < at(readBody), 'an unknown route wins over a bad body');
    assert.ok(at(readBody) < at(cacheReads), 'a read with a body is not looked up');
    assert.ok(at(cacheReads) < at(listAllowedMethods), 'a cached answer keeps the Allow it was built with');
    assert.ok(at(listAllowedMethods) < at(applyEnvelope), 'an envelope holds Allow');
    assert.ok(at(applyEnvelope) < at(applyFields), '_fields cuts the body inside the envelope');
    assert.ok(at(applyFields) < at(parseArguments) && at(parseArguments) < at(authorize));
    assert.equal(at(handle), REQUEST_STAGES.length - 1);
  });
  describe('authenticate', () => authenticateTests(f));
  describe('serveSitePages', () => sitePageTests(f));
  describe('serveRestIndex, resolveRoute, answerOptions, selectEndpoint', () => routingTests(f));
  describe('readBody', () => readBodyTests(f));
  describe('cacheReads', () => cacheTests(f));
  describe('listAllowedMethods', () => allowTests(f));
  describe('applyEnvelope, applyFields', () => shapeTests(f));
  describe('parseArguments, authorize, handle', () => callTests(f));
  describe('errorAnswer', () => errorAnswerTests(f));
  describe('send', () => sendTests(f));
});

function authenticateTests(f: Fixture) {
  it('an anonymous caller is handed on with no private headers', async () => {
    const x = await exchange(f, { url: `${NS}/events` });
    const next = nextStage();
    assert.equal(await authenticate(x, next), PASSED);
    assert.equal(x.ctx.user, null);
    assert.deepEqual(x.privateHeaders, {});
    assert.equal(x.ctx.method, 'GET');
  });

  it('valid credentials name the caller, whose answers are kept out of shared caches', async () => {
    const x = await exchange(f, { method: 'HEAD', url: `${NS}/events`, as: 'editor' });
    assert.equal(await authenticate(x, nextStage()), PASSED);
    assert.equal(x.ctx.user?.id, (await f.srv().user('editor')).id);
    assert.equal(x.privateHeaders['Cache-Control'], 'no-cache, must-revalidate, max-age=0, no-store, private');
    assert.equal(x.ctx.method, 'GET', 'HEAD is served as GET');
  });

  it('a wrong password is refused before any later stage, even on an unknown path', async () => {
    const wrong = `Basic ${Buffer.from('editor:wrong wrong wrong').toString('base64')}`;
    const x = await exchange(f, { url: '/no/such/page', headers: { authorization: wrong } });
    const next = nextStage();
    await rejects(() => authenticate(x, next), 401, 'incorrect_password');
    assert.equal(next.calls, 0);
  });

  it('with require_https, credentials over plain HTTP are refused', async () => {
    const { app } = f.srv().built;
    const settings = { ...(await app.settings.get()), require_https: true };
    const x = await exchange(f, {
      url: `${NS}/events`,
      as: 'editor',
      with: { app: { ...app, settings: { get: async () => settings } as typeof app.settings } },
    });
    await rejects(() => authenticate(x, nextStage()), 401, 'application_passwords_disabled');
  });
}

function sitePageTests(f: Fixture) {
  const pages = (fail = false): Partial<Dispatcher> => ({
    siteRoutes: [
      { path: /^\/none$/, handler: () => null },
      {
        path: /^\/(none|page)$/,
        handler: () => {
          if (fail) throw new Error('page failed');
          return { body: 'a page', contentType: 'text/plain', headers: { 'X-Page': '1' } };
        },
      },
    ],
  });

  it('a REST path is handed on', async () => {
    const x = await readyFor(serveSitePages, f, { url: `${NS}/events`, with: pages() });
    assert.equal(await serveSitePages(x, nextStage()), PASSED);
  });

  it('the first route with a page for the path answers; one without a page falls through', async () => {
    const x = await readyFor(serveSitePages, f, { url: '/none', with: pages() });
    const answer = await serveSitePages(x, nextStage());
    assert.deepEqual(answer, {
      kind: 'page',
      page: { body: 'a page', contentType: 'text/plain', headers: { 'X-Page': '1' } },
    });
  });

  it('no page is 404 rest_no_route; OPTIONS is an empty description', async () => {
    const x = await readyFor(serveSitePages, f, { url: '/elsewhere', with: pages() });
    await rejects(() => serveSitePages(x, nextStage()), 404, 'rest_no_route');
    const options = await readyFor(serveSitePages, f, { method: 'OPTIONS', url: '/elsewhere', as: 'editor' });
    const answer = json(await serveSitePages(options, nextStage()));
    assert.deepEqual([answer.status, answer.body], [200, []]);
    assert.equal(answer.headers.Expires, 'Wed, 11 Jan 1984 05:00:00 GMT');
  });

  it("a page's error is answered without the private headers", async () => {
    const x = await readyFor(serveSitePages, f, { url: '/page', as: 'editor', with: pages(true) });
    const answer = json(await serveSitePages(x, nextStage()));
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.headers, {});
    assert.deepEqual(x.logged, [['error', 'unhandled error']]);
  });

  it('a REST prefix under a language the site does not serve is 404, OPTIONS included', async () => {
    const x = await readyFor(serveSitePages, f, { method: 'OPTIONS', url: '/xx/wp-json/' });
    assert.equal(x.kind, 'unknown-language');
    await rejects(() => serveSitePages(x, nextStage()), 404, 'rest_no_route');
  });
}

function routingTests(f: Fixture) {
  it('serveRestIndex: GET and HEAD of the REST base answer the index; OPTIONS an empty description', async () => {
    const x = await readyFor(serveRestIndex, f, { method: 'HEAD', url: '/wp-json/' });
    const index = json(await serveRestIndex(x, nextStage()));
    assert.deepEqual((index.body as { namespaces: string[] }).namespaces, ['calendar/events/v1']);
    const options = await readyFor(serveRestIndex, f, { method: 'OPTIONS', url: '/wp-json' });
    assert.deepEqual(json(await serveRestIndex(options, nextStage())).body, []);
    const post = await readyFor(serveRestIndex, f, { method: 'POST', url: '/wp-json/' });
    await rejects(() => serveRestIndex(post, nextStage()), 404, 'rest_no_route');
    const other = await readyFor(serveRestIndex, f, { url: `${NS}/events` });
    assert.equal(await serveRestIndex(other, nextStage()), PASSED);
  });

  it('resolveRoute: path groups are percent-decoded without NUL; an undecodable one is kept', async () => {
    const x = await readyFor(resolveRoute, f, { url: `${NS}/events/by-slug/a%00b%20c/` });
    assert.equal(await resolveRoute(x, nextStage()), PASSED);
    assert.equal(x.route.def.pattern, '/events/by-slug/(?P<slug>[^/]+)');
    assert.deepEqual(x.ctx.path, { slug: 'ab c' });
    const bad = await readyFor(resolveRoute, f, { url: `${NS}/events/by-slug/%E0%A4%A` });
    await resolveRoute(bad, nextStage());
    assert.deepEqual(bad.ctx.path, { slug: '%E0%A4%A' });
  });

  it('resolveRoute: an unknown path is 404 rest_no_route, or an empty description for OPTIONS', async () => {
    const x = await readyFor(resolveRoute, f, { url: `${NS}/nothing` });
    await rejects(() => resolveRoute(x, nextStage()), 404, 'rest_no_route');
    const options = await readyFor(resolveRoute, f, { method: 'OPTIONS', url: `${NS}/nothing` });
    assert.deepEqual(json(await resolveRoute(options, nextStage())).body, []);
  });

  it('answerOptions: the route described, with the methods the caller may call', async () => {
    const anonymous = await readyFor(answerOptions, f, { method: 'OPTIONS', url: `${NS}/events` });
    const answer = json(await answerOptions(anonymous, nextStage()));
    assert.equal((answer.body as { namespace: string }).namespace, 'calendar/events/v1');
    assert.deepEqual(answer.headers, { Allow: 'GET' });
    const editor = await readyFor(answerOptions, f, { method: 'OPTIONS', url: `${NS}/events`, as: 'editor' });
    assert.equal(json(await answerOptions(editor, nextStage())).headers.Allow, 'GET, POST');
    const get = await readyFor(answerOptions, f, { url: `${NS}/events` });
    assert.equal(await answerOptions(get, nextStage()), PASSED);
  });

  it("selectEndpoint: the route's endpoint for the method; a method it lacks is 404", async () => {
    const x = await readyFor(selectEndpoint, f, { method: 'POST', url: `${NS}/events?_method=put` });
    await rejects(() => selectEndpoint(x, nextStage()), 404, 'rest_no_route');
    const post = await readyFor(selectEndpoint, f, { method: 'POST', url: `${NS}/events` });
    assert.equal(await selectEndpoint(post, nextStage()), PASSED);
    assert.deepEqual(post.endpoint.methods, ['POST']);
    const propfind = await readyFor(selectEndpoint, f, { method: 'PROPFIND', url: `${NS}/events` });
    await rejects(() => selectEndpoint(propfind, nextStage()), 404, 'rest_no_route');
  });
}

function readBodyTests(f: Fixture) {
  const post = (body: unknown) => readyFor(readBody, f, { method: 'POST', url: `${NS}/events`, body });

  it('a body the JSON parser refused is 400 rest_invalid_json with its message', async () => {
    const x = await post({ [INVALID_JSON]: 'Unexpected end of JSON input' });
    const next = nextStage();
    await assert.rejects(
      async () => readBody(x, next),
      (err: RestError) =>
        err.code === 'rest_invalid_json' && err.extra?.json_error_message === 'Unexpected end of JSON input',
    );
    assert.equal(next.calls, 0);
  });

  it('the body is cleaned of NUL and handed on; a form body that is JSON is remembered', async () => {
    const x = await post({ title: 'a\u0000b' });
    assert.equal(await readBody(x, nextStage()), PASSED);
    assert.deepEqual(x.body, { title: 'ab' });
    assert.equal(x.ctx.bodyLooksLikeJson, false);
    const form = await post({ '{"title":"x"}': '', [LOOKS_LIKE_JSON]: true });
    await readBody(form, nextStage());
    assert.equal(form.ctx.bodyLooksLikeJson, true);
  });

  it('a key naming object machinery is 400 rest_invalid_param', async () => {
    const x = await post(JSON.parse('{"venue":{"__proto__":{"a":1}}}'));
    await rejects(() => readBody(x, nextStage()), 400, 'rest_invalid_param');
  });
}

function cacheTests(f: Fixture) {
  const read = (cache: ResponseCache, call: Omit<Call, 'with'>) =>
    readyFor(cacheReads, f, { ...call, with: { cache } });
  const ok = (): Answer => ({ ...jsonAnswer(200, { id: 12 }, { 'X-Mine': '1' }), storable: true });

  it('a 200 is kept with its ETag and answers the same request again without the later stages', async () => {
    const cache = new ResponseCache(f.srv().built.app.db);
    const first = await read(cache, { url: `${NS}/events/12` });
    const stored = await cacheReads(first, nextStage(ok()));
    assert.equal(stored.kind, 'stored');
    const { entry } = stored as Extract<Answer, { kind: 'stored' }>;
    assert.deepEqual([entry.status, entry.headers['X-Mine'], entry.headers.ETag], [200, '1', entry.etag]);
    assert.equal(first.ctx.dataVersion, entry.version);
    const next = nextStage();
    assert.deepEqual(await cacheReads(await read(cache, { url: `${NS}/events/12` }), next), stored);
    assert.equal(next.calls, 0);
  });

  it('an answer that may not be kept passes, and the same request is built again', async () => {
    const cache = new ResponseCache(f.srv().built.app.db);
    const created = jsonAnswer(201, {}, {});
    assert.equal(await cacheReads(await read(cache, { url: `${NS}/events/13` }), nextStage(created)), created);
    const next = nextStage();
    assert.equal(await cacheReads(await read(cache, { url: `${NS}/events/13` }), next), PASSED);
    assert.equal(next.calls, 1);
  });

  it('a client error is kept without an ETag; a server error is thrown and not kept', async () => {
    const cache = new ResponseCache(f.srv().built.app.db);
    const missing = await cacheReads(
      await read(cache, { url: `${NS}/events/14` }),
      nextStage(restErrors.eventNotFound(14)),
    );
    const { entry } = missing as Extract<Answer, { kind: 'stored' }>;
    assert.equal(entry.status, 404);
    assert.deepEqual(entry.headers, {}, 'no ETag');
    assert.equal(JSON.parse(entry.body!.toString()).code, 'rest-event-not-found');
    const failing = await read(cache, { url: `${NS}/events/15` });
    await rejects(() => cacheReads(failing, nextStage(restErrors.internal())), 500, 'rest_internal_error');
    const next = nextStage();
    await cacheReads(await read(cache, { url: `${NS}/events/15` }), next);
    assert.equal(next.calls, 1);
  });

  it('only a GET without a body of a cacheable endpoint is looked up', async () => {
    const cache = new ResponseCache(f.srv().built.app.db);
    for (const call of [
      { method: 'POST', url: `${NS}/events/16` },
      { url: `${NS}/events/16`, body: {} },
      { url: NS },
    ]) {
      const x = await read(cache, call);
      assert.equal(await cacheReads(x, nextStage()), PASSED, JSON.stringify(call));
      assert.equal(x.ctx.dataVersion, undefined);
    }
  });
}

function allowTests(f: Fixture) {
  it('Allow names the methods the caller may call, on every answer of the endpoint', async () => {
    const anonymous = await readyFor(listAllowedMethods, f, { url: `${NS}/events` });
    assert.equal(await listAllowedMethods(anonymous, nextStage()), PASSED);
    assert.deepEqual(anonymous.endpointHeaders(), { Allow: 'GET' });
    const editor = await readyFor(listAllowedMethods, f, { url: `${NS}/events`, as: 'editor' });
    await listAllowedMethods(editor, nextStage());
    assert.equal(editor.endpointHeaders().Allow, 'GET, POST');
    assert.equal(editor.endpointHeaders().Expires, 'Wed, 11 Jan 1984 05:00:00 GMT');
  });
}

function shapeTests(f: Fixture) {
  const enveloped = (as?: Role) => readyFor(applyEnvelope, f, { url: `${NS}/events?_envelope`, as });

  it('applyEnvelope: status and headers go inside a 200, which may be kept only when it holds a 200', async () => {
    const x = await enveloped('editor');
    const created = jsonAnswer(201, { id: 1 }, { Location: 'there' });
    assert.deepEqual(await applyEnvelope(x, nextStage(created)), {
      ...jsonAnswer(200, { body: { id: 1 }, status: 201, headers: { Location: 'there' } }, x.privateHeaders),
      storable: false,
    });
    const ok = { ...jsonAnswer(200, [], {}), storable: true };
    assert.equal(json(await applyEnvelope(x, nextStage(ok))).storable, true);
    const plain = await readyFor(applyEnvelope, f, { url: `${NS}/events` });
    assert.equal(await applyEnvelope(plain, nextStage()), PASSED);
  });

  it('applyEnvelope: an error goes inside a 200 with Allow and its own headers; a fault as its error', async () => {
    const x = await enveloped();
    const limited = json(await applyEnvelope(x, nextStage(restErrors.tooManyRequests(3))));
    assert.deepEqual(limited, {
      ...jsonAnswer(
        200,
        {
          body: restErrors.tooManyRequests(3).body,
          status: 429,
          headers: { Allow: 'GET', 'Retry-After': '3' },
        },
        {},
      ),
    });
    const fault = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    const down = json(await applyEnvelope(x, nextStage(fault)));
    assert.deepEqual([(down.body as { status: number }).status, down.status], [503, 200]);
    assert.deepEqual(x.logged, [['warn', 'database fault ECONNREFUSED: refused']]);
    const bug = new Error('bug');
    await assert.rejects(async () => applyEnvelope(x, nextStage(bug)), bug);
  });

  it('applyFields: the body cut to the selection; errors pass untouched', async () => {
    const x = await readyFor(applyFields, f, { url: `${NS}/events?_fields=id,title.rendered` });
    const full = jsonAnswer(200, { id: 1, title: { rendered: 't', raw: 'r' }, slug: 's' }, { A: '1' });
    assert.deepEqual(await applyFields(x, nextStage(full)), { ...full, body: { id: 1, title: { rendered: 't' } } });
    const missing = restErrors.eventNotFound(1);
    await assert.rejects(async () => applyFields(x, nextStage(missing)), missing);
    const plain = await readyFor(applyFields, f, { url: `${NS}/events` });
    assert.equal(await applyFields(plain, nextStage(full)), full);
  });
}

function callTests(f: Fixture) {
  const event = { title: 'Stage event', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' };
  const created = async () => (await f.srv().post('/events', { as: 'editor', json: event })).body.id as number;

  it('parseArguments: body over query over path, but the path names the target; then validation', async () => {
    const id = await created();
    const x = await readyFor(parseArguments, f, {
      method: 'POST',
      url: `${NS}/events/${id}?id=999&title=query&status=draft`,
      as: 'editor',
      body: { title: 'body', id: 998 },
    });
    assert.equal(await parseArguments(x, nextStage()), PASSED);
    assert.deepEqual([x.ctx.raw.id, x.ctx.raw.title, x.ctx.raw.status], [String(id), 'body', 'draft']);
    assert.equal((x.values as EventUpdateInput).id.id, id);
  });

  it('parseArguments: an invalid argument is 400 rest_invalid_param and the request goes no further', async () => {
    const x = await readyFor(parseArguments, f, { url: `${NS}/events?per_page=many` });
    const next = nextStage();
    await rejects(() => parseArguments(x, next), 400, 'rest_invalid_param');
    assert.equal(next.calls, 0);
  });

  it("authorize: the endpoint's permission; refused, 401 to an anonymous caller and 403 to another", async () => {
    const call = (as?: Role) => readyFor(authorize, f, { method: 'POST', url: `${NS}/events`, as, body: event });
    const [anonymous, subscriber] = [await call(), await call('subscriber')];
    await rejects(() => authorize(anonymous, nextStage()), 401, 'rest_forbidden');
    await rejects(() => authorize(subscriber, nextStage()), 403, 'rest_forbidden');
    assert.equal(await authorize(await call('editor'), nextStage()), PASSED);
  });

  it("handle: the handler's reply with the private headers, Allow and its own; only a 200 may be kept", async () => {
    const id = await created();
    const read = await readyFor(handle, f, { url: `${NS}/events/${id}`, as: 'editor' });
    const answer = json(await handle(read, nextStage()));
    assert.deepEqual([answer.status, (answer.body as { id: number }).id, answer.storable], [200, id, true]);
    assert.equal(answer.headers.Allow, read.allow.Allow);
    assert.equal(answer.headers.Expires, 'Wed, 11 Jan 1984 05:00:00 GMT');
    const list = await readyFor(handle, f, { url: `${NS}/events` });
    assert.ok(json(await handle(list, nextStage())).headers['X-TEC-Total']);
    const create = await readyFor(handle, f, { method: 'POST', url: `${NS}/events`, as: 'editor', body: event });
    const made = json(await handle(create, nextStage()));
    assert.deepEqual([made.status, made.storable], [201, false]);
  });
}

function recordingReply() {
  const sent = { status: 0, headers: {} as Record<string, unknown>, body: undefined as unknown };
  const reply = {
    code: (status: number) => ((sent.status = status), reply),
    header: (name: string, value: unknown) => ((sent.headers[name] = value), reply),
    headers: (values: Record<string, unknown>) => (Object.assign(sent.headers, values), reply),
    send: (body?: unknown) => ((sent.body = body), reply),
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

function errorAnswerTests(f: Fixture) {
  it('errorAnswer: a RestError as its body, its headers after the given ones', async () => {
    const x = await exchange(f, { url: `${NS}/events` });
    const err = restErrors.tooManyRequests(2);
    assert.deepEqual(errorAnswer(x, err, { A: '1' }), jsonAnswer(429, err.body, { A: '1', 'Retry-After': '2' }));
  });

  it('errorAnswer: a database fault as its error, logged once per change; anything else a 500', async () => {
    const x = await exchange(f, { url: `${NS}/events` });
    const fault = (code: string) => Object.assign(new Error('fault'), { code });
    const codes = [fault('57P01'), fault('57P01'), fault('SQLITE_FULL'), new Error('bug')].map((err) => {
      const answer = errorAnswer(x, err);
      return `${answer.status} ${(answer.body as { code: string }).code}`;
    });
    assert.deepEqual(codes, [
      '503 rest_database_unavailable',
      '503 rest_database_unavailable',
      '507 rest_insufficient_storage',
      '500 rest_internal_error',
    ]);
    assert.deepEqual(x.logged, [
      ['warn', 'database fault 57P01: fault'],
      ['warn', 'database fault SQLITE_FULL: fault'],
      ['error', 'unhandled error'],
    ]);
  });
}

function sendTests(f: Fixture) {
  it('send: JSON with the common headers; a 304 without body or type; a page with the CORS headers only', async () => {
    const x = await exchange(f, { url: `${NS}/events`, headers: { origin: 'https://example.org' } });
    const answer = recordingReply();
    await send(x, answer.reply, jsonAnswer(201, { id: 1 }, { A: '1' }));
    assert.deepEqual(answer.sent, {
      status: 201,
      headers: { ...x.common, A: '1', 'Content-Type': 'application/json; charset=UTF-8' },
      body: Buffer.from('{"id":1}'),
    });
    const unchanged = recordingReply();
    await send(x, unchanged.reply, jsonAnswer(304, { id: 1 }, { A: '1' }));
    assert.deepEqual(unchanged.sent, { status: 304, headers: { ...x.common, A: '1' }, body: undefined });
    const page = recordingReply();
    await send(x, page.reply, { kind: 'page', page: { body: 'p', headers: { B: '2' }, contentType: 'text/plain' } });
    assert.deepEqual(page.sent, {
      status: 200,
      headers: { ...x.cors, B: '2', 'Content-Type': 'text/plain' },
      body: 'p',
    });
    assert.equal(x.cors['Access-Control-Allow-Origin'], '*');
  });

  it('send: a stored answer is a 304 when the client has it, gzip-compressed when it accepts gzip', async () => {
    const cache = new ResponseCache(f.srv().built.app.db);
    const slot = await cache.open({
      method: 'GET',
      lang: '',
      url: '/stored',
      user: null,
      settings: await f.srv().built.app.settings.get(),
      lifetime: 'data',
    });
    const entry = slot.fill(200, { A: '1' }, Buffer.from(JSON.stringify({ text: 'x'.repeat(2000) })));
    const headers = { 'accept-encoding': 'gzip', 'if-none-match': `W/${entry.etag}` };
    const revalidated = recordingReply();
    await send(await exchange(f, { url: '/stored', headers, with: { cache } }), revalidated.reply, {
      kind: 'stored',
      entry,
    });
    assert.deepEqual(
      [revalidated.sent.status, revalidated.sent.headers.ETag, revalidated.sent.body],
      [304, `W/${entry.etag}`, undefined],
    );
    const compressed = recordingReply();
    const x = await exchange(f, { url: '/stored', headers: { 'accept-encoding': 'gzip' }, with: { cache } });
    await send(x, compressed.reply, { kind: 'stored', entry });
    assert.equal(compressed.sent.headers['Content-Encoding'], 'gzip');
    assert.equal(gunzipSync(compressed.sent.body as Buffer).length, entry.length);
    const identity = recordingReply();
    await send(await exchange(f, { url: '/stored', with: { cache } }), identity.reply, { kind: 'stored', entry });
    assert.deepEqual(
      [identity.sent.status, identity.sent.headers.ETag, (identity.sent.body as Buffer).length],
      [200, entry.etag, entry.length],
    );
  });
}
