import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, expectRestError, forEachBackend, startTestServer } from '../support/server.js';
import { RawConnection, sendRaw, type RawExchange, type RawResponse } from '../support/raw-http.js';

const ROOT = '/wp-json/calendar/events/v1';
const LINK_HEADER_LIMIT = 8192;

/**
 * A WordPress error body with the status, the JSON content type, and (when `closes`) the connection closed after it.
 */
function expectRawRestError(
  exchange: RawExchange & { response: RawResponse },
  status: number,
  code: string,
  closes: boolean,
): void {
  const { response } = exchange;
  assert.equal(response.status, status, exchange.received.slice(0, 500));
  assert.equal(response.body?.code, code, response.text);
  assert.equal(typeof response.body?.message, 'string');
  assert.equal(response.body?.data?.status, status);
  assert.equal(response.headers['content-type'], 'application/json; charset=UTF-8');
  assert.equal(Number(response.headers['content-length']), Buffer.byteLength(response.text));
  if (closes) {
    assert.equal(response.headers.connection, 'close');
    assert.ok(exchange.closedByServer, 'the server kept the connection open');
  }
}

forEachBackend('HTTP-level errors', (srv) => {
  describe('malformed requests', () => {
    it('a request line with spaces in the target is 400 rest_invalid_request, then the connection closes', async () => {
      expectRawRestError(
        await sendRaw(srv().origin, 'GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n'),
        400,
        'rest_invalid_request',
        true,
      );
    });

    it('a line that is not HTTP is 400 rest_invalid_request, then the connection closes', async () => {
      expectRawRestError(await sendRaw(srv().origin, 'GARBAGE\r\n\r\n'), 400, 'rest_invalid_request', true);
    });

    it('an unknown method token is 400 rest_invalid_request', async () => {
      expectRawRestError(
        await sendRaw(srv().origin, `FOO ${ROOT} HTTP/1.1\r\nHost: x\r\n\r\n`),
        400,
        'rest_invalid_request',
        true,
      );
    });

    it('Content-Length together with Transfer-Encoding is 400 rest_invalid_request', async () => {
      const request = `POST ${ROOT}/events HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`;
      expectRawRestError(await sendRaw(srv().origin, request), 400, 'rest_invalid_request', true);
    });

    it('an HTTP/1.1 request without Host is 400 rest_invalid_request', async () => {
      expectRawRestError(
        await sendRaw(srv().origin, `GET ${ROOT} HTTP/1.1\r\n\r\n`),
        400,
        'rest_invalid_request',
        true,
      );
    });

    it('an HTTP/1.0 request without Host is served', async () => {
      const { response } = await sendRaw(srv().origin, `GET ${ROOT} HTTP/1.0\r\n\r\n`);
      assert.equal(response.status, 200);
      assert.equal(response.body.namespace, 'calendar/events/v1');
    });

    it('an Expect value other than 100-continue is 417 rest_expectation_failed', async () => {
      const request = `GET ${ROOT} HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n`;
      expectRawRestError(await sendRaw(srv().origin, request), 417, 'rest_expectation_failed', true);
    });
  });

  describe('oversized request heads', () => {
    it('a 32 KiB cookie is 431 rest_request_header_fields_too_large, then the connection closes', async () => {
      const request = `GET ${ROOT} HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(32 * 1024)}\r\n\r\n`;
      expectRawRestError(await sendRaw(srv().origin, request), 431, 'rest_request_header_fields_too_large', true);
    });

    it('many header fields past the limit are 431 too', async () => {
      const fields = Array.from({ length: 400 }, (_, i) => `X-Field-${i}: ${'v'.repeat(60)}\r\n`).join('');
      const request = `GET ${ROOT} HTTP/1.1\r\nHost: x\r\n${fields}\r\n`;
      expectRawRestError(await sendRaw(srv().origin, request), 431, 'rest_request_header_fields_too_large', true);
    });

    it('a 64 KiB slug is 414 rest_request_uri_too_long, then the connection closes', async () => {
      const request = `GET ${ROOT}/events/by-slug/${'a'.repeat(64 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`;
      expectRawRestError(await sendRaw(srv().origin, request), 414, 'rest_request_uri_too_long', true);
    });

    it('a 20 KiB query string is 414 rest_request_uri_too_long', async () => {
      const request = `GET ${ROOT}/events?search=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`;
      expectRawRestError(await sendRaw(srv().origin, request), 414, 'rest_request_uri_too_long', true);
    });

    it('a long slug within the limit reaches the route: 400 rest_invalid_param naming slug', async () => {
      const res = await srv().get(`/events/by-slug/${'a'.repeat(10 * 1024)}`);
      expectRestError(res, 400, 'rest_invalid_param');
      assert.deepEqual(Object.keys(res.body.data.params), ['slug']);
    });

    it('a long path within the limit matching no route is 404 rest_no_route', async () => {
      expectRestError(await srv().get(`/${'a'.repeat(10 * 1024)}`), 404, 'rest_no_route');
    });
  });

  describe('bodies without Content-Length', () => {
    it('a chunked DELETE body is parsed like any other: bad JSON is 400 rest_invalid_json', async () => {
      const request = `DELETE ${ROOT}/events/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n5\r\n{oops\r\n0\r\n\r\n`;
      expectRawRestError(await sendRaw(srv().origin, request), 400, 'rest_invalid_json', false);
    });

    it('a chunked OPTIONS body is read and the route is described', async () => {
      const request = `OPTIONS ${ROOT}/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\na=b\r\n0\r\n\r\n`;
      const { response } = await sendRaw(srv().origin, request);
      assert.equal(response.status, 200);
      assert.equal(response.body.namespace, 'calendar/events/v1');
    });

    it('a chunked GET body is ignored and the keep-alive connection serves the next request', async () => {
      const connection = new RawConnection(srv().origin);
      try {
        connection.write(
          `GET ${ROOT}/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\na=b\r\n0\r\n\r\n`,
        );
        connection.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
        const { responses, received } = await connection.read(2);
        assert.deepEqual(
          responses.map((r) => r.status),
          [200, 200],
          received.slice(0, 500),
        );
        assert.deepEqual(responses[1]!.body, { status: 'ok' });
      } finally {
        connection.destroy();
      }
    });

    it('a DELETE whose body has no length is 400 rest_invalid_request, then the connection closes', async () => {
      // Without a length the body is read as the next request, which is not HTTP.
      const request = `DELETE ${ROOT}/events/1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\r\n{"force":true}`;
      expectRawRestError(await sendRaw(srv().origin, request), 400, 'rest_invalid_request', true);
    });
  });

  describe('methods the service does not route', () => {
    for (const method of ['PROPFIND', 'TRACE', 'MKCOL']) {
      it(`${method} is 404 rest_no_route with the WordPress headers`, async () => {
        const exchange = await sendRaw(
          srv().origin,
          `${method} ${ROOT}/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        );
        expectRawRestError(exchange, 404, 'rest_no_route', false);
        assert.equal(exchange.response.headers['x-content-type-options'], 'nosniff');
      });
    }

    it('PROPFIND with a bad credential is 401 before routing, like any other method', async () => {
      const header = `Basic ${Buffer.from('nobody:aaaa bbbb cccc dddd eeee ffff').toString('base64')}`;
      const exchange = await sendRaw(
        srv().origin,
        `PROPFIND ${ROOT}/events HTTP/1.1\r\nHost: x\r\nAuthorization: ${header}\r\n\r\n`,
      );
      expectRawRestError(exchange, 401, 'invalid_username', false);
    });
  });

  describe('Link headers', () => {
    it('a short query keeps its rel="prev" Link header', async () => {
      const res = await srv().get('/categories', { query: { page: 2, search: 'short' } });
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get('link'),
        `<${srv().base}/>; rel="https://api.w.org/", <${res.body.previous_rest_url}>; rel="prev"`,
      );
    });

    it('a query too long for a Link header drops the header; the body keeps the links', async () => {
      const search = 'b'.repeat(9000);
      const res = await srv().get('/categories', { query: { page: 2, search } });
      assert.equal(res.status, 200);
      const link = res.headers.get('link');
      assert.ok(link === null || link.length < LINK_HEADER_LIMIT, `Link header of ${link?.length} bytes`);
      assert.ok(res.body.previous_rest_url.includes(`search=${search}`));
      assert.ok(res.body.rest_url.includes(`search=${search}`));
    });

    it('an events list with a long query drops the rel="next" Link header; the body keeps next_rest_url', async () => {
      for (const title of ['One', 'Two']) {
        const made = await srv().post('/events', {
          as: 'administrator',
          json: { title, start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' },
        });
        assert.equal(made.status, 201, made.text);
      }
      // Commas unencoded: the request stays within the request-head limit while the links outgrow 8 KiB.
      const include = Array.from({ length: 2000 }, (_, i) => i + 1).join(',');
      const res = await srv().get(`${srv().origin}${ROOT}/events?per_page=1&start_date=2031-01-01&include=${include}`);
      assert.equal(res.status, 200, res.text);
      const link = res.headers.get('link');
      assert.ok(link === null || link.length < LINK_HEADER_LIMIT, `Link header of ${link?.length} bytes`);
      assert.ok(res.body.next_rest_url.length > LINK_HEADER_LIMIT);
    });
  });
});

for (const backend of backends) {
  describe(`graceful shutdown [${backend}]`, () => {
    it('a request arriving on a kept-alive connection while closing is 503 rest_service_unavailable with Retry-After, then the connection closes', async () => {
      const srv = await startTestServer(backend);
      const connection = new RawConnection(srv.origin);
      try {
        // The first request is still being received when closing starts, so its connection is not
        // idle and stays open; the second one arrives behind it, after closing has begun.
        connection.write(
          `POST ${ROOT}?_method=GET HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{`,
        );
        await new Promise((r) => setTimeout(r, 100));
        const closing = srv.built.close();
        await new Promise((r) => setTimeout(r, 100));
        connection.write(`}GET ${ROOT}/events HTTP/1.1\r\nHost: x\r\n\r\n`);
        const exchange = await connection.read(2);
        await closing;
        const [first, second] = exchange.responses;
        assert.equal(first?.status, 200, exchange.received.slice(0, 800));
        assert.ok(second, exchange.received.slice(0, 800));
        assert.equal(second.status, 503, second.text);
        assert.equal(second.body?.code, 'rest_service_unavailable', second.text);
        assert.equal(second.body?.data?.status, 503);
        assert.equal(second.headers['content-type'], 'application/json; charset=UTF-8');
        assert.equal(second.headers.connection, 'close');
        assert.match(second.headers['retry-after'] ?? '', /^\d+$/);
        assert.ok(
          exchange.closedByServer || (await connection.closedWithin(2000)),
          'the server kept the connection open',
        );
      } finally {
        connection.destroy();
        await srv.close();
      }
    });
  });
}
