import { it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { allRoutes } from '../../src/app.js';
import type { Endpoint, Method, RouteDef } from '../../src/http/route.js';
import { expectRestError, forEachBackend, type TestResponse, type TestServer } from '../support/server.js';
import { DocumentValidator, REFERENCE_PATTERNS, soon } from './support.js';

const BAD_CREDENTIALS = {
  authorization: `Basic ${Buffer.from('nobody:aaaa bbbb cccc dddd eeee ffff').toString('base64')}`,
};

/** Minimal valid create bodies per collection (events.md 4, venues-organizers.md 4, terms.md 5). */
const CREATE: Record<string, (n: number) => Record<string, unknown>> = {
  events: (n) => ({
    title: `Doc event ${n}`,
    start_date: soon(n, 10),
    end_date: soon(n, 12),
    status: 'publish',
    cost: '$10',
  }),
  venues: (n) => ({ venue: `Doc venue ${n}`, city: 'Lyon', status: 'publish' }),
  organizers: (n) => ({ organizer: `Doc organizer ${n}`, email: `org${n}@example.org`, status: 'publish' }),
  categories: (n) => ({ name: `Doc category ${n}`, description: 'Category text' }),
  tags: (n) => ({ name: `Doc tag ${n}` }),
};
const UPDATE: Record<string, Record<string, unknown>> = {
  events: { description: 'Updated description' },
  venues: { city: 'Paris' },
  organizers: { phone: '+33 1 23 45 67 89' },
  categories: { description: 'Updated description' },
  tags: { description: 'Updated description' },
};

interface Fixture {
  id: number;
  slug: string;
}

const collectionOf = (route: RouteDef) => route.pattern.split('/')[1] ?? '';
const hasGroup = (route: RouteDef) => route.pattern.includes('(?P<');

function fillPath(route: RouteDef, record: Fixture | { id: number | string; slug: string }): string {
  return route.pattern
    .replace(/\(\?P<id>[^)]*\)/, String(record.id))
    .replace(/\(\?P<slug>[^)]*\)/, encodeURIComponent(record.slug));
}

forEachBackend('GET /doc', (srv) => {
  let seq = 0;
  const shared = new Map<string, Fixture>();
  const registered = (collection: string) => srv().built.app.routes.some((r) => r.pattern === `/${collection}`);

  async function create(collection: string): Promise<Fixture> {
    const body = CREATE[collection]!(++seq);
    if (collection === 'events') {
      // Link one record of every kind that exists, so that embedded shapes are validated too.
      if (registered('venues')) body.venue = (await sharedRecord('venues')).id;
      if (registered('organizers')) body.organizer = [(await sharedRecord('organizers')).id];
      if (registered('categories')) body.categories = [(await sharedRecord('categories')).id];
      if (registered('tags')) body.tags = [(await sharedRecord('tags')).id];
    }
    const res = await srv().post(`/${collection}`, { as: 'administrator', json: body });
    assert.ok(
      res.status === 201 || res.status === 200,
      `creating a fixture in ${collection}: ${res.status} ${res.text}`,
    );
    return { id: res.body.id, slug: res.body.slug };
  }

  async function sharedRecord(collection: string): Promise<Fixture> {
    let record = shared.get(collection);
    if (!record) {
      record = await create(collection);
      shared.set(collection, record);
    }
    return record;
  }

  async function document(lang = ''): Promise<any> {
    const res = await srv().get(lang ? `${srv().origin}/${lang}/wp-json/calendar/events/v1/doc` : '/doc');
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  it('is a valid OpenAPI 3.1 document in every language variant', async () => {
    for (const lang of ['', 'es', 'fr', 'de']) {
      const validator = new Validator();
      const result = await validator.validate(await document(lang));
      assert.deepEqual(result, { valid: true }, `${lang || 'en'}: ${JSON.stringify(result.errors)}`);
      assert.equal(validator.version, '3.1');
    }
  });

  it('the validator used above rejects a broken document', async () => {
    const broken = await document();
    delete broken.info;
    broken.paths['/doc'].get.responses = 'none';
    const result = await new Validator().validate(broken);
    assert.equal(result.valid, false);
  });

  it('the response check used below rejects an undocumented key and a wrong type', async () => {
    const validator = new DocumentValidator(await document());
    const index = (await srv().get('/')).body;
    assert.deepEqual(validator.check('/', 'GET', 200, index), []);
    assert.notDeepEqual(validator.check('/', 'GET', 200, { ...index, extra: 1 }), []);
    assert.notDeepEqual(validator.check('/', 'GET', 404, { code: 'x', message: 'y', data: { status: '404' } }), []);
  });

  it('has TEC top-level keys, a 2020-12 dialect and the namespace root of the request as server', async () => {
    const doc = await document();
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.jsonSchemaDialect, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(Object.keys(doc.info), ['version', 'title', 'description']);
    assert.equal(doc.info.version, '1.0.0');
    assert.equal(doc.info.title, 'Calendar Server REST API');
    assert.deepEqual(doc.servers, [{ url: `${srv().root}/` }]);
    const es = await document('es');
    assert.deepEqual(es.servers, [{ url: `${srv().config.siteUrl}/es/wp-json/calendar/events/v1/` }]);
  });

  it('declares HTTP Basic application passwords and allows anonymous calls', async () => {
    const doc = await document();
    assert.deepEqual(doc.security, [{}, { applicationPassword: [] }]);
    assert.equal(doc.components.securitySchemes.applicationPassword.type, 'http');
    assert.equal(doc.components.securitySchemes.applicationPassword.scheme, 'basic');
  });

  it("keeps TEC's schema names and adds Error and the list envelopes", async () => {
    const doc = await document();
    const names = Object.keys(doc.components.schemas);
    assert.deepEqual(names.slice(0, 8), [
      'ImageSize',
      'CostDetails',
      'Term',
      'Image',
      'DateDetails',
      'Event',
      'Venue',
      'Organizer',
    ]);
    for (const name of ['Error', 'EventList', 'VenueList', 'OrganizerList', 'CategoryList', 'TagList'])
      assert.ok(names.includes(name), name);
    // Wire format, not TEC's documentation bugs (common.md 3.1, 3.2).
    assert.equal(doc.components.schemas.Event.properties.author.type, 'string');
    assert.equal(doc.components.schemas.Event.properties.start_date_details.$ref, '#/components/schemas/DateDetails');
    assert.equal(doc.components.schemas.Event.properties.cost_details.$ref, '#/components/schemas/CostDetails');
    assert.equal(doc.components.schemas.Image.properties.sizes.type, 'object');
    assert.deepEqual(doc.components.schemas.Error.required, ['code', 'message', 'data']);
    assert.deepEqual(Object.keys(doc.components.schemas.EventList.properties), [
      'events',
      'rest_url',
      'next_rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ]);
    assert.deepEqual(Object.keys(doc.components.schemas.CategoryList.properties), [
      'rest_url',
      'next_rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
      'categories',
    ]);
  });

  it('success responses of every collection reference its record or list schema by name', async () => {
    const doc = await document();
    const names: Record<string, [string, string]> = {
      events: ['Event', 'EventList'],
      venues: ['Venue', 'VenueList'],
      organizers: ['Organizer', 'OrganizerList'],
      categories: ['Term', 'CategoryList'],
      tags: ['Term', 'TagList'],
    };
    for (const route of srv().built.app.routes) {
      const expected = names[collectionOf(route)];
      if (!expected) continue;
      for (const [method, op] of Object.entries<any>(doc.paths[route.openapiPath])) {
        const list = method === 'get' && !hasGroup(route);
        const [status, response] = Object.entries<any>(op.responses).find(([code]) => Number(code) < 300)!;
        assert.deepEqual(
          response.content?.['application/json']?.schema,
          { $ref: `#/components/schemas/${expected[list ? 1 : 0]}` },
          `${method.toUpperCase()} ${route.openapiPath} ${status}: declare as response the schema published as ${expected[list ? 1 : 0]} (its resource's json.ts)`,
        );
        if (list)
          assert.deepEqual(
            Object.keys(response.headers ?? {}),
            ['X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'X-WP-TotalPages', 'Link'],
            `${route.openapiPath} list headers`,
          );
      }
    }
  });

  it('documents every registered route and method, in registration order', async () => {
    const doc = await document();
    const routes = srv().built.app.routes;
    assert.deepEqual(
      Object.keys(doc.paths),
      routes.map((r) => r.openapiPath),
    );
    for (const route of routes) {
      const methods = route.endpoints.flatMap((e) => e.methods.map((m) => m.toLowerCase()));
      assert.deepEqual(Object.keys(doc.paths[route.openapiPath]), methods, route.pattern);
    }
    const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  });

  it('documents every argument of every endpoint with its schema and description', async () => {
    const doc = await document();
    for (const route of srv().built.app.routes) {
      const groups = [...route.pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]!);
      for (const endpoint of route.endpoints) {
        for (const method of endpoint.methods) {
          const op = doc.paths[route.openapiPath][method.toLowerCase()];
          const params = new Map<string, any>((op.parameters ?? []).map((p: any) => [`${p.in}:${p.name}`, p]));
          for (const group of groups)
            assert.equal(params.get(`path:${group}`)?.required, true, `${method} ${route.pattern} path ${group}`);
          const body = op.requestBody?.content?.['application/json']?.schema;
          for (const [name, arg] of Object.entries(endpoint.args)) {
            const where = `${method} ${route.pattern} ${name}`;
            const param = params.get(`query:${name}`) ?? (arg.in !== 'body' ? params.get(`path:${name}`) : undefined);
            const property = body?.properties?.[name];
            assert.ok(param || property, `${where} is documented`);
            const schema = param ? param.schema : property;
            const description = param ? param.description : property.description;
            assert.equal(description, (arg.schema as any).description, `${where} description`);
            const declared = (arg.schema as any).type;
            if (declared) assert.equal(schema.type, declared, `${where} type`);
            if (param && !groups.includes(name))
              assert.equal(param.required, Boolean(arg.required), `${where} required`);
            if (declared === 'array')
              assert.deepEqual(schema.items, JSON.parse(JSON.stringify((arg.schema as any).items)), `${where} items`);
          }
        }
      }
    }
  });

  it('documents request bodies as JSON and form data, with the required list on create', async () => {
    const doc = await document();
    for (const route of srv().built.app.routes) {
      for (const endpoint of route.endpoints) {
        for (const method of endpoint.methods.filter((m) => m !== 'GET' && m !== 'DELETE')) {
          const op = doc.paths[route.openapiPath][method.toLowerCase()];
          const bodyArgs = Object.entries(endpoint.args).filter(
            ([name, arg]) => arg.in === 'body' || (arg.in !== 'query' && !route.pattern.includes(`<${name}>`)),
          );
          if (!bodyArgs.length) continue;
          const content = op.requestBody.content;
          assert.deepEqual(Object.keys(content), ['application/json', 'application/x-www-form-urlencoded']);
          assert.deepEqual(content['application/json'].schema, content['application/x-www-form-urlencoded'].schema);
          const required = bodyArgs.filter(([, arg]) => arg.required).map(([name]) => name);
          assert.deepEqual(content['application/json'].schema.required ?? [], required, `${method} ${route.pattern}`);
          assert.equal(op.requestBody.required, required.length > 0);
        }
      }
    }
  });

  it('documents a WordPress error body for 401 on every operation and for every error status', async () => {
    const doc = await document();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        assert.ok(op.responses['401'], `${method} ${path} 401`);
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (Number(status) < 400) continue;
          assert.deepEqual(
            response.content['application/json'].schema,
            { $ref: '#/components/schemas/Error' },
            `${method} ${path} ${status}`,
          );
        }
      }
    }
  });

  it('answers HEAD without a body and OPTIONS with the route object; unknown parameters are ignored', async () => {
    const head = await srv().request('HEAD', '/doc');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    const options = await srv().request('OPTIONS', '/doc');
    assert.equal(options.status, 200);
    assert.deepEqual(options.body.methods, ['GET']);
    assert.deepEqual(options.body.endpoints, [{ methods: ['GET'], args: [] }]);
    const withJunk = await srv().get('/doc', { query: { foo: 'bar', context: 'edit', page: 'x' } });
    assert.equal(withJunk.status, 200);
    assert.deepEqual(withJunk.body, await document());
  });

  it('an unknown language segment is 404 rest_no_route', async () => {
    expectRestError(await srv().get(`${srv().origin}/xx/wp-json/calendar/events/v1/doc`), 404, 'rest_no_route');
    expectRestError(await srv().get(`${srv().origin}/pt/wp-json/calendar/events/v1/doc`), 404, 'rest_no_route');
  });

  // One test per registered route and method; routes of common.md 1.2 not registered yet are skipped.
  const routes = allRoutes();
  for (const pattern of REFERENCE_PATTERNS) {
    if (!routes.some((r) => r.pattern === pattern))
      it(`real responses of ${pattern} match the document`, { skip: `${pattern} is not registered yet` }, () => {});
  }
  for (const route of routes) {
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        it(`real responses of ${method} ${route.openapiPath} match the document`, async () => {
          const validator = new DocumentValidator(await document());
          const check = (what: string, res: TestResponse) => {
            assert.ok(
              validator.response(route.openapiPath, method, res.status),
              `${what}: status ${res.status} is not documented (${res.text.slice(0, 300)})`,
            );
            if (res.status === 204) return;
            // A feed is text/calendar, documented as a string; everything else is JSON.
            const mediaType = res.headers.get('content-type')?.split(';')[0] ?? 'application/json';
            const body = mediaType === 'application/json' ? res.body : res.text;
            const errors = validator.check(route.openapiPath, method, res.status, body, mediaType);
            assert.deepEqual(errors, [], `${what} (${res.status}) does not match the document`);
          };
          for (const [what, res] of await exercise(route, endpoint, method)) check(what, res);
        });
      }
    }
  }

  /** A successful call and error calls of one endpoint, with real data. */
  async function exercise(route: RouteDef, endpoint: Endpoint, method: Method): Promise<Array<[string, TestResponse]>> {
    const out: Array<[string, TestResponse]> = [];
    const collection = collectionOf(route);
    const call = (path: string, opts: Parameters<TestServer['request']>[2] = {}) =>
      srv().request(method, path, { as: 'administrator', ...opts });
    out.push([
      'bad credentials',
      await srv().request(method, route.pattern.replace(/\(\?P<\w+>[^)]*\)/g, '1') || '/', {
        headers: BAD_CREDENTIALS,
      }),
    ]);
    if (!(collection in CREATE)) {
      out.push(['success', await call(route.pattern || '/')]);
      return out;
    }
    if (!hasGroup(route)) {
      if (method === 'GET') {
        await sharedRecord(collection);
        const createArgs =
          srv()
            .built.app.routes.find((r) => r.pattern === route.pattern)
            ?.endpoints.find((e) => e.methods.includes('POST'))?.args ?? {};
        if ('post_password' in createArgs) {
          // A password-protected record is listed with blanked fields (events.md 1.12).
          const res = await srv().post(route.pattern, {
            as: 'administrator',
            json: { ...CREATE[collection]!(++seq), post_password: 'secret' },
          });
          assert.ok(res.status < 300, res.text);
        }
        const query = 'hide_empty' in endpoint.args ? { hide_empty: 0 } : undefined;
        const list = await call(route.pattern, { query });
        assert.ok(
          list.body?.[collection]?.length > 0,
          `GET ${route.pattern} lists the fixtures: ${list.text.slice(0, 300)}`,
        );
        out.push(['list', list]);
        out.push(['list, anonymous', await srv().get(route.pattern, { query })]);
        out.push(['invalid page', await call(route.pattern, { query: { page: 'x' } })]);
      } else {
        const res = await call(route.pattern, { json: CREATE[collection]!(++seq) });
        assert.ok(res.status < 300, `create ${collection}: ${res.status} ${res.text}`);
        out.push(['create', res]);
        out.push([
          'create, anonymous',
          await srv().request(method, route.pattern, { json: CREATE[collection]!(++seq) }),
        ]);
      }
      return out;
    }
    const record = method === 'DELETE' ? await create(collection) : await sharedRecord(collection);
    const missing = { id: 987654321, slug: 'no-such-record-anywhere' };
    if (method === 'GET') {
      const res = await call(fillPath(route, record));
      assert.equal(res.status, 200, `GET ${fillPath(route, record)}: ${res.text}`);
      out.push(['read', res]);
      out.push(['read, anonymous', await srv().get(fillPath(route, record))]);
      out.push(['read, missing', await call(fillPath(route, missing))]);
    } else if (method === 'DELETE') {
      const res = await call(fillPath(route, record));
      assert.equal(res.status, 200, `DELETE ${fillPath(route, record)}: ${res.text}`);
      out.push(['delete', res]);
      out.push(['delete again', await call(fillPath(route, record))]);
      out.push(['delete, missing', await call(fillPath(route, missing))]);
    } else {
      const res = await call(fillPath(route, record), { json: UPDATE[collection] });
      assert.equal(res.status, 200, `${method} ${fillPath(route, record)}: ${res.text}`);
      out.push(['update', res]);
      out.push([
        'update, anonymous',
        await srv().request(method, fillPath(route, record), { json: UPDATE[collection] }),
      ]);
      out.push(['update, missing', await call(fillPath(route, missing), { json: UPDATE[collection] })]);
    }
    return out;
  }
});
