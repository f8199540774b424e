import { it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { urlsFor } from '../../src/http/register.js';
import type { ArgDef, RequestContext } from '../../src/http/route.js';
import { expectRestError, forEachBackend, type TestServer } from '../support/server.js';
import { REFERENCE_PATTERNS } from './support.js';

const NS = 'calendar/events/v1';
const KEYWORDS = [
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
  'title',
  'required',
];

/** The values a TypeBox schema accepts, read straight from the schema object that validates the argument. */
function expected(arg: ArgDef) {
  const raw = JSON.parse(JSON.stringify(arg.schema));
  const literals = Array.isArray(raw.anyOf) && raw.anyOf.every((m: any) => 'const' in m) ? raw.anyOf : undefined;
  return {
    type: raw.type ?? (literals && new Set(literals.map((m: any) => m.type)).size === 1 ? literals[0].type : undefined),
    enum: raw.enum ?? literals?.map((m: any) => m.const),
    items: raw.items,
    format: raw.format,
    description: raw.description,
    hasDefault: 'default' in raw || Boolean(arg.defaultFrom),
  };
}

/** The context a default computed per request sees, for comparison. */
async function contextOf(srv: TestServer): Promise<RequestContext> {
  const app = srv.built.app;
  return {
    app,
    settings: await app.settings.get(),
    lang: '',
    urls: urlsFor(app, ''),
    user: null,
  } as unknown as RequestContext;
}

function sameDefault(shown: unknown, computed: unknown): boolean {
  if (typeof shown === 'string' && typeof computed === 'string' && shown !== computed) {
    // Defaults computed from the clock (events.md 2.2.2) may move on between two evaluations.
    const a = DateTime.fromSQL(shown);
    const b = DateTime.fromSQL(computed);
    return a.isValid && b.isValid && Math.abs(a.diff(b).as('seconds')) < 5;
  }
  return JSON.stringify(shown) === JSON.stringify(computed);
}

/** A value of the wrong type, or outside the enum, for an argument discovery types; undefined when none exists. */
function invalidValue(shape: ReturnType<typeof expected>): string | undefined {
  if (shape.enum) return '__not_an_allowed_value__';
  if (shape.type === 'integer' || shape.type === 'number') return 'not-a-number';
  if (shape.type === 'boolean') return 'maybe';
  if (shape.type === 'array' && (shape.items?.type === 'integer' || shape.items?.type === 'number')) return 'x,y';
  return undefined;
}

forEachBackend('GET / (namespace index)', (srv) => {
  it('lists every registered route by its pattern, in registration order, with its methods', async () => {
    const res = await srv().get('/');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['namespace', 'routes', '_links']);
    assert.equal(res.body.namespace, NS);
    const routes = srv().built.app.routes;
    assert.deepEqual(
      Object.keys(res.body.routes),
      routes.map((r) => `/${NS}${r.pattern}`),
    );
    // Routes of the reference appear in its order (common.md 1.2), whichever are registered so far.
    const known = routes.map((r) => r.pattern).filter((p) => REFERENCE_PATTERNS.includes(p));
    assert.deepEqual(
      known,
      REFERENCE_PATTERNS.filter((p) => known.includes(p)),
    );
    for (const route of routes) {
      const shown = res.body.routes[`/${NS}${route.pattern}`];
      assert.equal(shown.namespace, NS);
      assert.deepEqual(
        shown.methods,
        route.endpoints.flatMap((e) => e.methods),
      );
      assert.deepEqual(
        shown.endpoints.map((e: any) => e.methods),
        route.endpoints.map((e) => e.methods),
      );
      if (route.pattern.includes('(?P<')) assert.equal(shown._links, undefined);
      else assert.deepEqual(shown._links, { self: [{ href: `${srv().base}/${NS}${route.pattern}` }] });
    }
    assert.deepEqual(res.body._links, { up: [{ href: `${srv().base}/` }] });
  });

  it('shows the index and /doc arguments as the reference does', async () => {
    const res = await srv().get('/');
    assert.deepEqual(res.body.routes[`/${NS}`].endpoints[0].args, {
      namespace: { description: 'The namespace to describe.', default: NS, type: 'string', required: false },
      context: {
        description: 'Scope of the description; every value gives the same document.',
        default: 'view',
        required: false,
      },
    });
    // An endpoint without arguments serializes them as [] (common.md 2.1).
    assert.deepEqual(res.body.routes[`/${NS}/doc`].endpoints, [{ methods: ['GET'], args: [] }]);
  });

  it('every endpoint argument shows the type, format, enum, items and default of the schema that validates it, then required', async () => {
    const res = await srv().get('/');
    const ctx = await contextOf(srv());
    for (const route of srv().built.app.routes) {
      route.endpoints.forEach((endpoint, i) => {
        const shown = res.body.routes[`/${NS}${route.pattern}`].endpoints[i].args;
        const names = Object.keys(endpoint.args);
        assert.deepEqual(
          Array.isArray(shown) ? [] : Object.keys(shown),
          names,
          `${route.pattern} ${endpoint.methods} argument order`,
        );
        for (const name of names) {
          const arg = endpoint.args[name]!;
          const where = `${endpoint.methods} ${route.pattern} ${name}`;
          const want = expected(arg);
          const got = shown[name];
          assert.equal(typeof got.description, 'string', `${where}: description`);
          assert.ok(got.description.length > 0, `${where}: description`);
          assert.equal(got.description, want.description, `${where}: description`);
          assert.equal(got.type, want.type, `${where}: type`);
          assert.equal(got.format, want.format, `${where}: format`);
          assert.deepEqual(got.enum, want.enum, `${where}: enum`);
          assert.deepEqual(got.items, want.items, `${where}: items`);
          assert.equal('default' in got, want.hasDefault, `${where}: default present`);
          if (want.hasDefault) {
            const computed = arg.defaultFrom ? arg.defaultFrom(ctx) : (arg.schema as any).default;
            assert.ok(
              sameDefault(got.default, computed),
              `${where}: default ${JSON.stringify(got.default)} vs ${JSON.stringify(computed)}`,
            );
          }
          assert.equal(got.required, Boolean(arg.required), `${where}: required`);
          const keys = Object.keys(got);
          assert.equal(keys[keys.length - 1], 'required', `${where}: required comes last`);
          assert.deepEqual(
            keys,
            KEYWORDS.filter((k) => k in got),
            `${where}: only JSON-schema keywords, in WordPress order`,
          );
        }
      });
    }
  });

  it('every value discovery declares invalid for a GET argument is refused with rest_invalid_param naming it', async () => {
    const res = await srv().get('/');
    let checked = 0;
    for (const route of srv().built.app.routes) {
      for (const [i, endpoint] of route.endpoints.entries()) {
        if (!endpoint.methods.includes('GET')) continue;
        const path = route.pattern.replace(/\(\?P<id>[^)]*\)/, '1').replace(/\(\?P<\w+>[^)]*\)/, 'some-slug') || '/';
        const groups = [...route.pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]);
        const needsOthers = Object.entries(endpoint.args).some(([n, a]) => a.required && !groups.includes(n));
        if (needsOthers) continue;
        for (const [name, shown] of Object.entries<any>(res.body.routes[`/${NS}${route.pattern}`].endpoints[i].args)) {
          if (groups.includes(name)) continue;
          const bad = invalidValue({ ...shown, hasDefault: false });
          if (bad === undefined) continue;
          const out = await srv().get(path, { as: 'administrator', query: { [name]: bad } });
          assert.equal(out.status, 400, `GET ${path}?${name}=${bad}: ${out.text}`);
          assert.equal(out.body.code, 'rest_invalid_param', `GET ${path}?${name}=${bad}: ${out.text}`);
          assert.ok(name in out.body.data.params, `GET ${path}?${name}=${bad} names ${name}: ${out.text}`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 1);
  });

  it('an unknown namespace is 404 rest_invalid_namespace; any context gives the same document', async () => {
    expectRestError(
      await srv().get('/', { query: { namespace: 'wp/v2' } }),
      404,
      'rest_invalid_namespace',
      'The specified namespace could not be found.',
    );
    expectRestError(await srv().get('/', { query: { namespace: '' } }), 404, 'rest_invalid_namespace');
    const plain = await srv().get('/');
    for (const context of ['edit', 'help', 'embed', 'nonsense', '']) {
      const res = await srv().get('/', { query: { context } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, plain.body, `context=${context}`);
    }
    const explicit = await srv().get('/', { query: { namespace: NS } });
    assert.deepEqual(explicit.body, plain.body);
  });

  it('HEAD answers like GET without a body; OPTIONS answers the route object', async () => {
    const head = await srv().request('HEAD', '/');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.match(head.headers.get('content-type') ?? '', /^application\/json/);
    const options = await srv().request('OPTIONS', '/');
    assert.equal(options.status, 200);
    assert.equal(options.headers.get('allow'), 'GET');
    assert.deepEqual(options.body, (await srv().get('/')).body.routes[`/${NS}`]);
  });

  it('the language variant localizes the descriptions and keeps its segment in links', async () => {
    const es = await srv().get(`${srv().origin}/es/wp-json/${NS}`);
    assert.equal(es.status, 200);
    assert.equal(
      es.body.routes[`/${NS}`].endpoints[0].args.namespace.description,
      'El espacio de nombres que se describe.',
    );
    assert.equal(es.body.routes[`/${NS}/doc`]._links.self[0].href, `${srv().config.siteUrl}/es/wp-json/${NS}/doc`);
    assert.deepEqual(es.body._links, { up: [{ href: `${srv().config.siteUrl}/es/wp-json/` }] });
    // Only descriptions change: the same routes, methods and argument keywords.
    const en = await srv().get('/');
    const strip = (body: any) => JSON.stringify(body, (k, v) => (k === 'description' || k === 'href' ? undefined : v));
    assert.equal(strip(es.body), strip(en.body));
  });

  it('an unknown language segment is 404 rest_no_route', async () => {
    for (const lang of ['xx', 'pt', 'en-us']) {
      expectRestError(await srv().get(`${srv().origin}/${lang}/wp-json/${NS}`), 404, 'rest_no_route');
    }
    const head = await srv().request('HEAD', `${srv().origin}/xx/wp-json/${NS}`);
    assert.equal(head.status, 404);
    assert.equal(head.text, '');
  });
});
