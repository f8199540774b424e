import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';

forEachBackend('HTTP layer', (srv) => {
  it('an unknown route is 404 rest_no_route in the WordPress error shape', async () => {
    const res = await srv().get('/nope');
    expectRestError(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    assert.equal(res.headers.get('allow'), null);
  });

  it('a known route with an unregistered method is 404 rest_no_route, never 405', async () => {
    const res = await srv().request('DELETE', '/');
    expectRestError(res, 404, 'rest_no_route');
  });

  it('HEAD on the namespace index answers like GET without a body', async () => {
    const res = await srv().request('HEAD', '/');
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  });

  it('every REST response carries the WordPress headers', async () => {
    const res = await srv().get('/');
    assert.equal(res.headers.get('x-robots-tag'), 'noindex');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('link'), `<${srv().base}/>; rel="https://api.w.org/"`);
    assert.equal(res.headers.get('allow'), 'GET');
    assert.match(
      res.headers.get('access-control-expose-headers') ?? '',
      /X-TEC-Total, X-TEC-TotalPages, X-WP-Total, X-WP-TotalPages, Link, ETag/,
    );
  });

  it('a malformed JSON body on a matched route is 400 rest_invalid_json', async () => {
    const res = await srv().request('POST', '/', {
      query: { _method: 'GET' },
      body: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(res, 400, 'rest_invalid_json', 'Invalid JSON body passed.');
    assert.equal(typeof res.body.data.json_error_message, 'string');
  });

  it('a malformed JSON body on an unknown route is still rest_no_route (route match wins)', async () => {
    const res = await srv().request('POST', '/nope', {
      body: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(res, 404, 'rest_no_route');
  });

  it('a body over the limit is 413 in the WordPress error shape', async () => {
    const res = await srv().request('POST', '/', {
      body: JSON.stringify({ x: 'a'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expectRestError(res, 413, 'rest_body_too_large');
  });

  it('a path with malformed percent-encoding is 400 in the WordPress error shape', async () => {
    const res = await srv().get(`${srv().origin}/wp-json/calendar/events/v1/events/by-slug/%E0%A4%A`);
    expectRestError(res, 400, 'rest_invalid_request', 'The request URL could not be decoded.');
  });

  it('trailing slashes and letter case do not matter in route paths', async () => {
    assert.equal((await srv().get(`${srv().origin}/wp-json/CALENDAR/Events/v1/`)).status, 200);
  });

  it('?rest_route= on the server root addresses the same routes', async () => {
    const res = await srv().get(`${srv().origin}/?rest_route=/calendar/events/v1&_fields=namespace`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { namespace: 'calendar/events/v1' });
  });

  it('_envelope wraps the body with status and headers, always answering 200', async () => {
    const res = await srv().get('/', { query: { namespace: 'wp/v2', _envelope: '1' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 404);
    assert.equal(res.body.body.code, 'rest_invalid_namespace');
    assert.equal(typeof res.body.headers, 'object');
  });

  it('_fields keeps only the named keys, nested with dots', async () => {
    const res = await srv().get('/', { query: { _fields: 'namespace,_links.up' } });
    assert.deepEqual(Object.keys(res.body), ['namespace', '_links']);
    assert.deepEqual(Object.keys(res.body._links), ['up']);
  });

  it('_method overrides the request method before routing', async () => {
    const res = await srv().request('POST', '/', { query: { _method: 'GET' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.namespace, 'calendar/events/v1');
    const overridden = await srv().request('GET', '/', { headers: { 'x-http-method-override': 'DELETE' } });
    expectRestError(overridden, 404, 'rest_no_route');
  });

  it('OPTIONS answers the route object with Allow, and [] for unknown paths', async () => {
    const res = await srv().request('OPTIONS', '/');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.methods, ['GET']);
    assert.equal(res.headers.get('allow'), 'GET');
    const unknown = await srv().request('OPTIONS', '/nope');
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.body, []);
  });

  it('CORS allows any origin without credentials by default', async () => {
    const res = await srv().get('/', { headers: { origin: 'https://app.example.org' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
  });

  it('an unknown language segment is 404 rest_no_route; a known one serves the same routes', async () => {
    expectRestError(await srv().get(`${srv().origin}/xx/wp-json/calendar/events/v1`), 404, 'rest_no_route');
    const fr = await srv().get(`${srv().origin}/fr/wp-json/calendar/events/v1`);
    assert.equal(fr.status, 200);
    assert.equal(fr.body._links.up[0].href, `${srv().config.siteUrl}/fr/wp-json/`);
  });

  it('the REST index lists the namespace and its routes', async () => {
    const res = await srv().get(`${srv().origin}/wp-json/`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.namespaces, ['calendar/events/v1']);
    assert.equal(res.body.url, srv().config.siteUrl);
    assert.ok(res.body.routes['/calendar/events/v1']);
    assert.equal(res.body.timezone_string, 'UTC');
  });

  it('the server root sends the discovery headers on GET and HEAD', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await srv().request(method, `${srv().origin}/`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-tec-api-version'), 'v1');
      assert.equal(res.headers.get('x-tec-api-root'), `${srv().root}/`);
      assert.equal(res.headers.get('x-tec-api-origin'), srv().config.siteUrl);
    }
  });

  it('GET /healthz answers ok', async () => {
    const res = await srv().get(`${srv().origin}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  it('an unknown namespace is 404 rest_invalid_namespace', async () => {
    expectRestError(
      await srv().get('/', { query: { namespace: 'wp/v2' } }),
      404,
      'rest_invalid_namespace',
      'The specified namespace could not be found.',
    );
  });
});

forEachBackend(
  'CORS with an allow-list',
  (srv) => {
    it('an allowed origin gets itself back, with credentials and Vary: Origin', async () => {
      for (const origin of ['https://app.example.org', 'https://admin.example.org']) {
        const res = await srv().get('/events', { headers: { origin } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('access-control-allow-origin'), origin);
        assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
        assert.match(res.headers.get('vary') ?? '', /\bOrigin\b/);
        assert.equal(res.headers.get('access-control-allow-methods'), 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
      }
    });

    it('another origin gets no Access-Control-Allow-Origin, whatever was answered before', async () => {
      await srv().get('/events', { headers: { origin: 'https://app.example.org' } });
      const res = await srv().get('/events', { headers: { origin: 'https://evil.example.net' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
      assert.match(res.headers.get('access-control-expose-headers') ?? '', /X-WP-Total/);
    });

    it('a request without Origin gets the exposed headers only', async () => {
      const res = await srv().get('/events');
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      assert.equal(res.headers.get('access-control-allow-methods'), null);
      assert.match(res.headers.get('access-control-expose-headers') ?? '', /ETag/);
    });

    it('a site page carries the same CORS headers', async () => {
      const res = await srv().get(`${srv().origin}/`, { headers: { origin: 'https://admin.example.org' } });
      assert.equal(res.headers.get('access-control-allow-origin'), 'https://admin.example.org');
      assert.equal(res.headers.get('x-robots-tag'), null);
    });
  },
  { CORS_ORIGINS: 'https://app.example.org,https://admin.example.org' },
);
