import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { operatorContext } from '../../src/import/call.js';
import { TecClient, TecSourceError } from '../../src/tec/client.js';
import { importTec } from '../../src/tec/import.js';
import { progressReporter } from '../../src/tec/progress.js';
import { forEachBackend, startTestServer, type TestServer } from '../support/server.js';
import { calendar } from '../ops/support.js';

/** A site whose answers the test scripts, one per request, counting them. */
async function scriptedSite(answers: Array<{ status: number; headers?: Record<string, string>; body?: unknown }>) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const EMPTY_PAGE = { events: [], total: 0, total_pages: 0 };

describe('reading a TEC site', () => {
  it('a 429 is retried after its Retry-After, a 503 after a growing pause; then the page is read', async () => {
    const site = await scriptedSite([
      { status: 429, headers: { 'retry-after': '0' }, body: { code: 'too_many' } },
      { status: 503 },
      { status: 200, body: { events: [{ id: 1 }], total: 1, total_pages: 1 } },
    ]);
    try {
      const client = new TecClient({ site: site.origin, namespace: 'tribe/events/v1', backoffMs: 1 });
      const page = await client.page(`${site.origin}/wp-json/tribe/events/v1/events`, 'events');
      assert.deepEqual(page, { items: [{ id: 1 }], total: 1, next: undefined });
      assert.equal(site.seen.length, 3);
    } finally {
      await site.close();
    }
  });

  it('a site that keeps failing is given up after five attempts, naming the address and the last status', async () => {
    const site = await scriptedSite([{ status: 502 }]);
    try {
      const client = new TecClient({ site: site.origin, namespace: 'tribe/events/v1', backoffMs: 1 });
      const url = `${site.origin}/wp-json/tribe/events/v1/events`;
      await assert.rejects(client.page(url, 'events'), new TecSourceError(`${url} failed 5 times; last: HTTP 502`));
      assert.equal(site.seen.length, 5);
    } finally {
      await site.close();
    }
  });

  for (const status of [401, 403]) {
    it(`a ${status} stops at once with the site's own code and message`, async () => {
      const site = await scriptedSite([{ status, body: { code: 'rest_forbidden', message: 'Sorry.' } }]);
      try {
        const client = new TecClient({ site: site.origin, namespace: 'tribe/events/v1', backoffMs: 1 });
        const url = `${site.origin}/wp-json/tribe/events/v1/venues`;
        await assert.rejects(client.page(url, 'venues'), (err: Error) => {
          assert.ok(err instanceof TecSourceError);
          assert.equal(
            err.message,
            `${url} answered ${status} rest_forbidden: Sorry. (check --auth: a login and an application password of the source site)`,
          );
          return true;
        });
        assert.equal(site.seen.length, 1);
      } finally {
        await site.close();
      }
    });
  }

  it('the REST root is the one the site announces in its Link header', async () => {
    const site = await scriptedSite([
      { status: 200, headers: { link: '<https://example.org/api/>; rel="https://api.w.org/"' } },
    ]);
    try {
      const client = new TecClient({ site: site.origin, namespace: 'tribe/events/v1' });
      assert.equal(await client.namespaceRoot(), 'https://example.org/api/tribe/events/v1');
      assert.deepEqual(site.seen, ['HEAD /']);
    } finally {
      await site.close();
    }
  });

  it('an answer that is no list is an error naming the address', async () => {
    const site = await scriptedSite([{ status: 200, body: EMPTY_PAGE }]);
    try {
      const client = new TecClient({ site: site.origin, namespace: 'tribe/events/v1' });
      const url = `${site.origin}/wp-json/tribe/events/v1/tags`;
      await assert.rejects(client.page(url, 'tags'), new TecSourceError(`${url} holds no tags list`));
    } finally {
      await site.close();
    }
  });
});

describe('progress of a migration', () => {
  /** Enough of a terminal for cli-progress: it moves the cursor with escape codes. */
  function terminal() {
    const stream = { isTTY: true, columns: 100, text: '', write: (t: string) => (stream.text += t) };
    return stream;
  }

  it('on a terminal, each phase draws a bar with its counts and an ETA', () => {
    const stream = terminal();
    const progress = progressReporter(stream);
    progress('venues', 1, 2);
    progress('venues', 2, 2);
    progress('events', 3, 3);
    progress.end();
    // Drawn text without the terminal's escape sequences (ESC [ … letter, ESC 7, ESC 8).
    const ESC = String.fromCharCode(27);
    const shown = stream.text.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]|${ESC}[78]`, 'g'), '');
    assert.match(shown, /venues +\[█{40}\] 2\/2 \| ETA 0s/);
    assert.match(shown, /events +\[█{40}\] 3\/3 \| ETA 0s/);
  });

  it('off a terminal, a plain line per tenth of a phase and at its end', () => {
    const lines: string[] = [];
    const progress = progressReporter({ isTTY: false, write: (t: string) => lines.push(t) });
    for (let done = 1; done <= 25; done++) progress('events', done, 25);
    assert.deepEqual(lines, [
      'events 3/25\n',
      'events 6/25\n',
      'events 9/25\n',
      'events 12/25\n',
      'events 15/25\n',
      'events 18/25\n',
      'events 21/25\n',
      'events 24/25\n',
      'events 25/25\n',
    ]);
  });
});

forEachBackend('calendar import tec', (target) => {
  let source: TestServer;
  before(async () => {
    source = await startTestServer(target().backend);
  });
  after(async () => source?.close());

  const event = (title: string, day: string) => ({
    title,
    start_date: `${day} 10:00:00`,
    end_date: `${day} 12:00:00`,
    status: 'publish',
  });

  it('--since leaves alone what was imported and not modified since; a changed event is updated', async () => {
    const created = [];
    for (const [n, day] of ['2026-12-01', '2026-12-02', '2026-12-03'].entries()) {
      const res = await source.post('/events', { as: 'administrator', json: event(`Talk ${n}`, day) });
      assert.equal(res.status, 201, res.text);
      created.push(res.body.id as number);
    }
    const creds = await target().user('administrator');
    const ctx = await operatorContext(target().built.app, { id: creds.id, login: creds.login, role: 'administrator' });
    const options = { site: source.origin, namespace: 'calendar/events/v1', concurrency: 2 };
    const first = await importTec(ctx, options);
    assert.deepEqual([first.created, first.updated, first.skipped], [3, 0, 0]);

    // Stored times have whole seconds: the change comes a second after the first run.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const since = DateTime.utc().toFormat('yyyy-MM-dd HH:mm:ss');
    const renamed = await source.post(`/events/${created[1]}`, { as: 'administrator', json: { title: 'Renamed' } });
    assert.equal(renamed.status, 200, renamed.text);
    const second = await importTec(ctx, { ...options, since });
    const actions = Object.fromEntries(
      second.items.filter((i) => i.kind === 'event').map((i) => [Number(i.source_id), i.action]),
    );
    assert.deepEqual(actions, { [created[0]!]: 'unchanged', [created[1]!]: 'updated', [created[2]!]: 'unchanged' });
    const titles = await target().get('/events', { query: { start_date: '2026-12-01' } });
    assert.deepEqual(
      titles.body.events.map((e: { title: string }) => e.title),
      ['Talk 0', 'Renamed', 'Talk 2'],
    );
    assert.equal(titles.body.total, 3);
  });

  it('the CLI prints plain progress lines off a terminal, and the totals', async () => {
    await target().user('administrator');
    const res = await calendar(
      target().databaseUrl,
      'import',
      'tec',
      source.origin,
      '--namespace',
      'calendar/events/v1',
    );
    assert.equal(res.code, 0, res.err);
    assert.equal(res.out, 'created 0, updated 0, unchanged 3, trashed 0, skipped 0\n');
    assert.match(res.err, /^events 3\/3$/m);
    assert.doesNotMatch(res.err, /ETA/);
  });

  it('the CLI stops on a 401 in one line, having written nothing', async () => {
    const site = await scriptedSite([{ status: 401, body: { code: 'rest_not_logged_in', message: 'Log in.' } }]);
    try {
      const before = await target()
        .db.selectFrom('import_sources')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const res = await calendar(target().databaseUrl, 'import', 'tec', site.origin);
      assert.equal(res.code, 1);
      assert.match(
        res.err,
        /^calendar: http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1\/categories\?per_page=50&hide_empty=0 answered 401 rest_not_logged_in: Log in\./,
      );
      const after = await target()
        .db.selectFrom('import_sources')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      assert.equal(Number(after?.n), Number(before?.n));
    } finally {
      await site.close();
    }
  });
});
