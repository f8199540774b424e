import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend, type RequestOptions } from '../support/server.js';
import { expectHandled, inconsistencies, prototypeKeys, routeTargets, type RouteTarget } from '../support/routes.js';

/** `_fields` selections that walk into the object machinery. */
const FIELD_PATHS = [
  '__proto__.polluted',
  'constructor.prototype.polluted',
  'constructor.prototype',
  'prototype',
  '__proto__',
  'constructor',
];

/** Query strings in bracket syntax that name the object machinery (qs parses them into nested objects). */
const BRACKET_QUERIES = [
  '__proto__[polluted]=1',
  'a[__proto__][polluted]=1',
  'constructor[prototype][polluted]=1',
  'a[constructor][prototype][polluted]=1',
  'prototype[polluted]=1',
  'venue[__proto__][polluted]=1',
  'venue[city][__proto__][polluted]=1',
];

/** JSON bodies with the same keys at the top and nested (an inline venue, a list item). */
const JSON_BODIES = [
  '{"__proto__":{"polluted":1}}',
  '{"title":"x","constructor":{"prototype":{"polluted":1}}}',
  '{"venue":{"venue":"V","__proto__":{"polluted":1}}}',
  '{"organizer":[{"organizer":"O","constructor":{"prototype":{"polluted":1}}}]}',
  '{"categories":[{"__proto__":{"polluted":1}}]}',
  '{"prototype":{"polluted":1}}',
];

function polluted(): boolean {
  return (
    ({} as Record<string, unknown>).polluted !== undefined ||
    ([] as unknown as Record<string, unknown>).polluted !== undefined
  );
}

forEachBackend('Prototype pollution', (srv) => {
  let targets: RouteTarget[] = [];
  let keysBefore: string[] = [];
  before(async () => {
    targets = await routeTargets(srv());
    keysBefore = prototypeKeys();
  });

  const walk = async (label: string, send: (method: string, target: RouteTarget) => Promise<void>) => {
    for (const target of targets) {
      for (const method of [...target.methods, 'OPTIONS']) {
        await send(method, target);
        assert.equal(polluted(), false, `${label} on ${method} ${target.path} polluted Object.prototype`);
      }
    }
    assert.deepEqual(prototypeKeys(), keysBefore, `${label} added names to a prototype`);
  };

  it('_fields through __proto__ or constructor changes no prototype and answers without 5xx on every route', async () => {
    await walk('_fields', async (method, target) => {
      for (const fields of FIELD_PATHS) {
        const res = await srv().request(method, target.path, { as: 'administrator', query: { _fields: fields } });
        expectHandled(res, `${method} ${target.path} _fields=${fields}`);
      }
    });
  });

  it('bracket syntax naming __proto__, constructor or prototype changes no prototype on every route, anonymous or not', async () => {
    await walk('bracket query', async (method, target) => {
      for (const query of BRACKET_QUERIES) {
        for (const as of [undefined, 'administrator'] as const) {
          const res = await srv().request(method, `${target.path}?${query}`, as ? { as } : {});
          expectHandled(res, `${method} ${target.path}?${query}`);
        }
      }
    });
  });

  it('JSON and form bodies with __proto__, constructor or prototype keys change no prototype on every route', async () => {
    await walk('body', async (method, target) => {
      const bodies: RequestOptions[] = [
        ...JSON_BODIES.map((body) => ({ body, headers: { 'content-type': 'application/json' } })),
        ...BRACKET_QUERIES.map((form) => ({ form })),
      ];
      for (const opts of bodies) {
        // fetch sends no body with GET: the method override carries it (common.md 1.6).
        const sent = method === 'GET' ? 'POST' : method;
        const headers = { ...opts.headers, ...(method === 'GET' ? { 'x-http-method-override': 'GET' } : {}) };
        const res = await srv().request(sent, target.path, { as: 'administrator', ...opts, headers });
        expectHandled(res, `${method} ${target.path} ${opts.body ?? opts.form}`);
      }
    });
    assert.deepEqual(await inconsistencies(srv()), []);
  });

  it('a JSON body key __proto__ is 400 rest_invalid_param naming it, and nothing is written', async () => {
    const before = await srv().get('/venues', { query: { per_page: 50, status: 'any' }, as: 'administrator' });
    const res = await srv().post('/venues', {
      as: 'administrator',
      body: '{"venue":"Proto venue","__proto__":{"status":"draft"}}',
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(res, 400, 'rest_invalid_param');
    assert.deepEqual(Object.entries(res.body.data.params), [['__proto__', 'Invalid parameter.']]);
    const after = await srv().get('/venues', { query: { per_page: 50, status: 'any' }, as: 'administrator' });
    assert.equal(after.body.total, before.body.total);
  });

  it('a nested constructor key names its top-level parameter', async () => {
    const res = await srv().post('/events', {
      as: 'administrator',
      json: JSON.parse(
        '{"title":"T","start_date":"2030-01-01 10:00","end_date":"2030-01-01 11:00","venue":{"venue":"V","constructor":{"prototype":{"x":1}}}}',
      ),
    });
    expectRestError(res, 400, 'rest_invalid_param');
    assert.deepEqual(Object.keys(res.body.data.params), ['venue']);
  });

  it('_fields=__proto__.polluted selects nothing and a later read does not see it', async () => {
    const first = await srv().get('/events', { query: { _fields: '__proto__.polluted' } });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, {});
    const second = await srv().get('/venues', { query: { _fields: 'polluted' } });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, {});
  });

  it('_fields=constructor.prototype is 200 with nothing selected', async () => {
    const res = await srv().get('/venues', { query: { _fields: 'constructor.prototype' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {});
  });
});
