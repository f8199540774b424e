import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';
import { expectRestError, forEachBackend, type TestResponse, type TestServer } from '../support/server.js';

const TOKEN = 'scrape-token-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, sample lines only (`# HELP` and `# TYPE` skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, quoted] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name!] = quoted!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** The value of the one sample with this name and these labels; 0 when there is none yet. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `several samples match ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

async function scrape(srv: TestServer): Promise<Sample[]> {
  const res = await srv.get(`${srv.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseExposition(res.text);
}

const COUNT = 'calendar_http_request_duration_seconds_count';
const events = (status: string) => ({ route: '/events', method: 'GET', status });

forEachBackend(
  'GET /metrics with METRICS_TOKEN',
  (srv) => {
    it('two reads of /events: count 2 for the route and 200', async () => {
      const before = await scrape(srv());
      assert.equal((await srv().get('/events')).status, 200);
      assert.equal((await srv().get('/events')).status, 200);
      const after = await scrape(srv());
      assert.equal(valueOf(after, COUNT, events('200')) - valueOf(before, COUNT, events('200')), 2);
    });

    it('two reads of an event: one response cache miss, then one hit', async () => {
      const editor = await srv().user('editor');
      const created = await srv().post('/events', {
        as: editor,
        json: { title: 'Cached', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
      });
      const before = await scrape(srv());
      assert.equal((await srv().get(`/events/${created.body.id}`)).status, 200);
      assert.equal((await srv().get(`/events/${created.body.id}`)).status, 200);
      const after = await scrape(srv());
      const hits = 'calendar_response_cache_hits_total';
      const misses = 'calendar_response_cache_misses_total';
      assert.equal(valueOf(after, misses) - valueOf(before, misses), 1);
      assert.equal(valueOf(after, hits) - valueOf(before, hits), 1);
    });

    it('the histogram: buckets up to +Inf hold every request, and the sum is their time', async () => {
      await srv().get('/events');
      const samples = await scrape(srv());
      const count = valueOf(samples, COUNT, events('200'));
      const inf = valueOf(samples, 'calendar_http_request_duration_seconds_bucket', { ...events('200'), le: '+Inf' });
      assert.ok(count >= 1);
      assert.equal(inf, count);
      assert.ok(valueOf(samples, 'calendar_http_request_duration_seconds_sum', events('200')) > 0);
    });

    it('requests are counted by route pattern and status, errors included', async () => {
      const editor = await srv().user('editor');
      const created = await srv().post('/events', {
        as: editor,
        json: { title: 'Counted', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
      });
      assert.equal(created.status, 201);
      const before = await scrape(srv());
      await srv().get(`/events/${created.body.id}`);
      await srv().get('/nowhere');
      await srv().get('/events/999999');
      const after = await scrape(srv());
      const delta = (labels: Record<string, string>) => valueOf(after, COUNT, labels) - valueOf(before, COUNT, labels);
      assert.equal(delta({ route: '/events/(?P<id>\\d+)', method: 'GET', status: '200' }), 1);
      assert.equal(delta({ route: '/events/(?P<id>\\d+)', method: 'GET', status: '404' }), 1);
      assert.equal(delta({ route: '(unmatched)', method: 'GET', status: '404' }), 1);
      assert.ok(valueOf(after, COUNT, { route: '/events', method: 'POST', status: '201' }) >= 1);
    });

    it('neither /metrics nor /healthz counts as a REST request', async () => {
      await srv().get(`${srv().origin}/healthz`);
      const samples = await scrape(srv());
      for (const s of samples.filter((s) => s.name === COUNT)) {
        assert.ok(!['/metrics', '/healthz'].includes(s.labels.route!), JSON.stringify(s));
      }
    });

    it('database, event-loop and memory figures are there', async () => {
      const samples = await scrape(srv());
      const names = new Set(samples.map((s) => s.name));
      for (const name of [
        'calendar_db_waiting_queries',
        'nodejs_eventloop_lag_seconds',
        'nodejs_eventloop_lag_p99_seconds',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
      ])
        assert.ok(names.has(name), name);
      assert.equal(valueOf(samples, 'calendar_db_waiting_queries'), 0, 'nothing waits while idle');
      if (srv().backend === 'postgres') {
        const total = valueOf(samples, 'calendar_db_pool_connections');
        assert.ok(total >= 1, 'the pool has opened a connection');
        assert.ok(valueOf(samples, 'calendar_db_pool_idle_connections') <= total);
      } else assert.ok(!names.has('calendar_db_pool_connections'));
    });

    it('without the token, with another one or with REST credentials: 401', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-the-token-at-all' },
        { authorization: `Bearer ${TOKEN}x` },
        { authorization: TOKEN },
        { authorization: (await srv().user('administrator')).header },
      ];
      for (const headers of attempts) {
        const res: TestResponse = await srv().get(`${srv().origin}/metrics`, { headers });
        expectRestError(res, 401, 'metrics_unauthorized', 'The metrics need a valid bearer token.');
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
        assert.ok(res.headers.get('x-request-id'));
      }
      const lower = await srv().get(`${srv().origin}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } });
      assert.equal(lower.status, 200, 'the scheme is case-insensitive');
    });
  },
  { METRICS_TOKEN: TOKEN },
);

forEachBackend(
  'GET /metrics with METRICS=public',
  (srv) => {
    it('is served without credentials', async () => {
      const res = await srv().get(`${srv().origin}/metrics`);
      assert.equal(res.status, 200);
      assert.ok(parseExposition(res.text).some((s) => s.name === 'process_resident_memory_bytes'));
    });
  },
  { METRICS: 'public' },
);

forEachBackend('GET /metrics by default', (srv) => {
  it('is an unknown path: 404 rest_no_route, with or without a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      expectRestError(await srv().get(`${srv().origin}/metrics`, { headers }), 404, 'rest_no_route');
    }
  });
});

describe('METRICS and METRICS_TOKEN', () => {
  it('a token alone turns the metrics on behind it; off by default', () => {
    assert.equal(loadConfig({}).metrics, 'off');
    assert.deepEqual(
      (({ metrics, metricsToken }) => ({ metrics, metricsToken }))(loadConfig({ METRICS_TOKEN: TOKEN })),
      { metrics: 'token', metricsToken: TOKEN },
    );
    assert.equal(loadConfig({ METRICS: 'public' }).metrics, 'public');
  });

  it('refuses settings that would leave /metrics unprotected or unusable', () => {
    const refused: Array<[Record<string, string>, RegExp]> = [
      [{ METRICS: 'on' }, /METRICS must be off, public or token/],
      [{ METRICS: 'token' }, /METRICS=token needs METRICS_TOKEN/],
      [{ METRICS: 'public', METRICS_TOKEN: TOKEN }, /unset METRICS_TOKEN/],
      [{ METRICS_TOKEN: 'short' }, /at least 16 visible ASCII/],
      [{ METRICS_TOKEN: 'has a space in it, sixteen+' }, /at least 16 visible ASCII/],
    ];
    for (const [env, message] of refused)
      assert.throws(
        () => loadConfig(env),
        (err) => err instanceof ConfigError && message.test(err.message),
      );
  });
});
