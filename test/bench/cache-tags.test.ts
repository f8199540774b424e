import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { daysFromNow, makeEvent } from '../events/helpers.js';
import { create, KINDS, plural, type Kind } from '../linked/helpers.js';
import { makeTerm } from '../terms/fixtures.js';
import { LogLines } from '../support/log-lines.js';
import { backends, expectRestError, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

// A write makes stale only the cached reads built from what it changed (db/cache-tags.ts): each
// test reads through the cache, writes one record, and then checks, by the request log's cache
// verdict, that the reads of other records are still served from the cache while every read that
// embeds the written record is built again and shows the write.

type Get = (path: string) => Promise<TestResponse>;

/** Reads through one server and the cache verdicts its log gives. */
function reader(get: Get, log: LogLines) {
  const read = async (path: string, verdict: 'hit' | 'recounted' | 'part' | 'miss') => {
    const res = await get(path);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    const line = await log.lineOf(res);
    const expected = {
      hit: 'served from the cache',
      recounted: 'served from the cache with its term counts rewritten',
      part: 'built from its kept page',
      miss: 'built again',
    };
    assert.equal(line.cache, verdict, `${path} should be ${expected[verdict]}`);
    return res;
  };
  return {
    /** Reads twice: the second answer comes from the cache. */
    cached: async (...paths: string[]) => {
      for (const path of paths) {
        await get(path);
        await read(path, 'hit');
      }
    },
    hit: (path: string) => read(path, 'hit').then((res) => res.body),
    recounted: (path: string) => read(path, 'recounted').then((res) => res.body),
    fresh: (path: string) => read(path, 'miss').then((res) => res.body),
    /** Reads a list built again around the page its last answer kept: the answer, headers included. */
    fromPart: (path: string) => read(path, 'part'),
    /** Reads a list built again from scratch: the answer, headers included. */
    rebuilt: (path: string) => read(path, 'miss'),
  };
}

const listTitles = (body: any) => (body.events as Array<{ title: string }>).map((e) => e.title);
const venueName = (event: any) => (Array.isArray(event.venue) ? event.venue : [event.venue]).map((v: any) => v.venue);
const linkedNames = (kind: Kind, event: any) =>
  kind === 'venue' ? venueName(event) : (event.organizer as any[]).map((o) => o.organizer);
const termNames = (event: any, field: 'categories' | 'tags') => (event[field] as any[]).map((t) => t.name);

for (const backend of backends) {
  describe(`cached reads go stale with what they were built from [${backend}]`, () => {
    const log = new LogLines();
    let srv: TestServer;
    let r: ReturnType<typeof reader>;
    before(async () => {
      srv = await startTestServer(backend, { LOG_LEVEL: 'info' }, log);
      r = reader((path) => srv.get(path), log);
    });
    after(() => srv.close());

    it('an event create and update leave the single reads of other records cached, and unfiltered lists are built again', async () => {
      const venue = await create(srv, 'venue', { venue: 'Quiet Hall' });
      const organizer = await create(srv, 'organizer', { organizer: 'Quiet Crew' });
      const category = await makeTerm(srv, 'categories', { name: 'Quiet category' });
      const tag = await makeTerm(srv, 'tags', { name: 'quiet-tag' });
      const other = await makeEvent(srv, {
        title: 'Other event',
        status: 'publish',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        tags: [tag.id],
      });
      const singles = [
        `/events/${other.id}`,
        `/venues/${venue.id}`,
        `/organizers/${organizer.id}`,
        `/categories/${category.id}`,
        `/tags/${tag.id}`,
      ];
      await r.cached(...singles, '/events?per_page=50');

      const created = await makeEvent(srv, { title: 'Created', status: 'publish' });
      for (const path of singles) await r.hit(path);
      assert.ok(listTitles(await r.fresh('/events?per_page=50')).includes('Created'));

      await r.cached(`/events/${created.id}`);
      const updated = await srv.request('PUT', `/events/${created.id}`, {
        as: 'administrator',
        json: { title: 'Updated' },
      });
      assert.equal(updated.status, 200, updated.text);
      assert.equal((await r.fresh(`/events/${created.id}`)).title, 'Updated');
      for (const path of singles) await r.hit(path);
      const list = listTitles(await r.fresh('/events?per_page=50'));
      assert.ok(list.includes('Updated') && !list.includes('Created'));
    });

    it('an event created in a category rewrites the counts of the reads that show it, and leaves the others', async () => {
      const counted = await makeTerm(srv, 'categories', { name: 'Counted' });
      const apart = await makeTerm(srv, 'categories', { name: 'Apart' });
      const member = await makeEvent(srv, { title: 'Member', status: 'publish', categories: [counted.id] });
      const outsider = await makeEvent(srv, { title: 'Outsider', status: 'publish', categories: [apart.id] });
      const countOnly = `/events/${member.id}?_fields=categories.count`;
      await r.cached(
        `/events/${member.id}`,
        `/events/${outsider.id}`,
        `/categories/${counted.id}`,
        `/categories/${apart.id}`,
        countOnly,
      );

      await makeEvent(srv, { title: 'Joiner', status: 'publish', categories: [counted.id] });
      assert.equal((await r.recounted(`/events/${member.id}`)).categories[0].count, 2);
      assert.equal((await r.hit(`/events/${member.id}`)).categories[0].count, 2);
      assert.equal((await r.recounted(`/categories/${counted.id}`)).count, 2);
      assert.equal((await r.hit(`/events/${outsider.id}`)).categories[0].count, 1);
      assert.equal((await r.hit(`/categories/${apart.id}`)).count, 1);
      // A count the cache cannot tell belongs to a term: built again.
      assert.deepEqual(await r.fresh(countOnly), { categories: [{ count: 2 }] });

      const renamed = await srv.request('PUT', `/categories/${counted.id}`, {
        as: 'editor',
        json: { name: 'Recounted' },
      });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal((await r.fresh(`/events/${member.id}`)).categories[0].name, 'Recounted');
      assert.equal((await r.fresh(`/categories/${counted.id}`)).name, 'Recounted');
    });

    for (const kind of KINDS) {
      const aKind = kind === 'venue' ? 'a venue' : 'an organizer';
      it(`${aKind} rename and trash refresh every read embedding it; reads of other records stay cached`, async () => {
        const target = await create(srv, kind, { [kind]: `Old ${kind} name` });
        const bystander = await create(srv, kind, { [kind]: `Bystander ${kind}` });
        const field = kind === 'venue' ? { venue: target.id } : { organizer: [target.id] };
        const otherField = kind === 'venue' ? { venue: bystander.id } : { organizer: [bystander.id] };
        const embedding = await makeEvent(srv, { title: `Embeds a ${kind}`, status: 'publish', ...field });
        const unrelated = await makeEvent(srv, { title: `Embeds another ${kind}`, status: 'publish', ...otherField });
        const filtered = `/events?${kind}=${target.id}`;
        const reads = [`/events/${embedding.id}`, `/${plural(kind)}/${target.id}`, filtered, '/events?per_page=50'];
        await r.cached(...reads, `/events/${unrelated.id}`, `/${plural(kind)}/${bystander.id}`);

        const renamed = await srv.request('PUT', `/${plural(kind)}/${target.id}`, {
          as: 'administrator',
          json: { [kind]: `New ${kind} name` },
        });
        assert.equal(renamed.status, 200, renamed.text);
        assert.deepEqual(linkedNames(kind, await r.fresh(`/events/${embedding.id}`)), [`New ${kind} name`]);
        assert.equal((await r.fresh(`/${plural(kind)}/${target.id}`))[kind], `New ${kind} name`);
        assert.deepEqual(linkedNames(kind, (await r.fresh(filtered)).events[0]), [`New ${kind} name`]);
        const listed = (await r.fresh('/events?per_page=50')).events.find((e: any) => e.id === embedding.id);
        assert.deepEqual(linkedNames(kind, listed), [`New ${kind} name`]);
        assert.deepEqual(linkedNames(kind, await r.hit(`/events/${unrelated.id}`)), [`Bystander ${kind}`]);
        await r.hit(`/${plural(kind)}/${bystander.id}`);

        await r.cached(...reads);
        const trashed = await srv.request('DELETE', `/${plural(kind)}/${target.id}`, { as: 'administrator' });
        assert.equal(trashed.status, 200, trashed.text);
        assert.deepEqual((await r.fresh(`/events/${embedding.id}`))[kind], []);
        const after = (await r.fresh('/events?per_page=50')).events.find((e: any) => e.id === embedding.id);
        assert.deepEqual(after[kind], []);
        assert.deepEqual(linkedNames(kind, await r.hit(`/events/${unrelated.id}`)), [`Bystander ${kind}`]);
      });

      it(`${aKind} published is embedded in the next anonymous read of an event linking it`, async () => {
        const draft = await create(srv, kind, { [kind]: `Draft ${kind}`, status: 'draft' });
        const field = kind === 'venue' ? { venue: draft.id } : { organizer: [draft.id] };
        const event = await makeEvent(srv, { title: `Links a draft ${kind}`, status: 'publish', ...field });
        await r.cached(`/events/${event.id}`);
        assert.deepEqual((await r.hit(`/events/${event.id}`))[kind], [], 'a draft is not shown to anonymous readers');

        const published = await srv.request('PUT', `/${plural(kind)}/${draft.id}`, {
          as: 'administrator',
          json: { status: 'publish' },
        });
        assert.equal(published.status, 200, published.text);
        assert.deepEqual(linkedNames(kind, await r.fresh(`/events/${event.id}`)), [`Draft ${kind}`]);
      });
    }

    for (const field of ['categories', 'tags'] as const) {
      it(`a ${field === 'categories' ? 'category' : 'tag'} rename and delete refresh every read embedding the term; other reads stay cached`, async () => {
        const target = await makeTerm(srv, field, { name: `Old ${field} name` });
        const bystander = await makeTerm(srv, field, { name: `Bystander ${field}` });
        const embedding = await makeEvent(srv, { title: `Has ${field}`, status: 'publish', [field]: [target.id] });
        const unrelated = await makeEvent(srv, {
          title: `Has other ${field}`,
          status: 'publish',
          [field]: [bystander.id],
        });
        const filtered = `/events?${field}=${target.id}`;
        await r.cached(`/events/${embedding.id}`, filtered, `/events/${unrelated.id}`, `/${field}/${bystander.id}`);

        const renamed = await srv.request('PUT', `/${field}/${target.id}`, {
          as: 'editor',
          json: { name: `New ${field} name` },
        });
        assert.equal(renamed.status, 200, renamed.text);
        assert.deepEqual(termNames(await r.fresh(`/events/${embedding.id}`), field), [`New ${field} name`]);
        assert.deepEqual(termNames((await r.fresh(filtered)).events[0], field), [`New ${field} name`]);
        assert.deepEqual(termNames(await r.hit(`/events/${unrelated.id}`), field), [`Bystander ${field}`]);
        await r.hit(`/${field}/${bystander.id}`);

        await r.cached(`/events/${embedding.id}`, '/events?per_page=50');
        const deleted = await srv.request('DELETE', `/${field}/${target.id}`, { as: 'editor' });
        assert.equal(deleted.status, 200, deleted.text);
        assert.deepEqual((await r.fresh(`/events/${embedding.id}`))[field], []);
        const listed = (await r.fresh('/events?per_page=50')).events.find((e: any) => e.id === embedding.id);
        assert.deepEqual(listed[field], []);
        assert.deepEqual(termNames(await r.hit(`/events/${unrelated.id}`), field), [`Bystander ${field}`]);
      });
    }

    it("an event create refreshes the unfiltered lists and its terms' lists (ancestors included); other terms' lists stay cached", async () => {
      const parent = await makeTerm(srv, 'categories', { name: 'Parent of A' });
      const a = await makeTerm(srv, 'categories', { name: 'Category A', parent: parent.id });
      const b = await makeTerm(srv, 'categories', { name: 'Category B' });
      const tag = await makeTerm(srv, 'tags', { name: 'tag-of-b' });
      await makeEvent(srv, { title: 'In A', status: 'publish', categories: [a.id] });
      await makeEvent(srv, { title: 'In B', status: 'publish', categories: [b.id], tags: [tag.id] });
      const lists = {
        a: `/events?categories=${a.slug}`,
        parent: `/events?categories=${parent.id}`,
        b: `/events?categories=${b.id}`,
        tag: `/events?tags=${tag.slug}`,
        all: '/events?per_page=50',
      };
      await r.cached(...Object.values(lists));

      await makeEvent(srv, { title: 'Joins A', status: 'publish', categories: [a.id] });
      assert.deepEqual(listTitles(await r.fresh(lists.a)), ['In A', 'Joins A']);
      assert.deepEqual(listTitles(await r.fresh(lists.parent)), ['In A', 'Joins A']);
      assert.ok(listTitles(await r.fresh(lists.all)).includes('Joins A'));
      assert.deepEqual(listTitles(await r.hit(lists.b)), ['In B']);
      assert.deepEqual(listTitles(await r.hit(lists.tag)), ['In B']);

      await create(srv, 'venue', { venue: 'Unlinked Hall' });
      await r.hit(lists.all);
    });

    it("an event changed off a category list's page refreshes that list's total and page", async () => {
      const category = await makeTerm(srv, 'categories', { name: 'Paged category' });
      const other = await makeTerm(srv, 'categories', { name: 'Unpaged category' });
      const first = await makeEvent(srv, {
        title: 'First',
        status: 'publish',
        categories: [category.id],
        start_date: daysFromNow(3),
        end_date: daysFromNow(3, '12:00:00'),
      });
      const second = await makeEvent(srv, {
        title: 'Second',
        status: 'publish',
        categories: [category.id],
        start_date: daysFromNow(5),
        end_date: daysFromNow(5, '12:00:00'),
      });
      await makeEvent(srv, { title: 'Elsewhere', status: 'publish', categories: [other.id] });
      const paged = `/events?categories=${category.id}&per_page=1`;
      const elsewhere = `/events?categories=${other.id}`;
      await r.cached(paged, elsewhere);
      assert.equal((await srv.get(paged)).headers.get('x-wp-total'), '2');

      const moved = await srv.request('PUT', `/events/${second.id}`, {
        as: 'administrator',
        json: { start_date: daysFromNow(2), end_date: daysFromNow(2, '12:00:00') },
      });
      assert.equal(moved.status, 200, moved.text);
      assert.deepEqual(listTitles(await r.fresh(paged)), ['Second']);
      await r.hit(elsewhere);

      await r.cached(paged);
      const drafted = await srv.request('PUT', `/events/${first.id}`, {
        as: 'administrator',
        json: { status: 'draft' },
      });
      assert.equal(drafted.status, 200, drafted.text);
      // After the page's last record: the total moves, the page is kept.
      const after = await r.fromPart(paged);
      assert.equal(after.headers.get('x-wp-total'), '1');
      assert.deepEqual(listTitles(after.body), ['Second']);
      await r.hit(elsewhere);
    });

    it("an event written after a full page's last record refreshes the list's total around the kept page", async () => {
      const day = (n: number, time = '10:00:00') => daysFromNow(500 + n, time);
      const window = (query: string) =>
        `/events?start_date=${day(0).slice(0, 10)}&end_date=${day(30).slice(0, 10)}&per_page=2${query}`;
      const category = await makeTerm(srv, 'categories', { name: 'Kept page category' });
      const at = (n: number, title: string, fields: Record<string, unknown> = {}) =>
        makeEvent(srv, { title, status: 'publish', start_date: day(n), end_date: day(n, '12:00:00'), ...fields });
      const first = await at(1, 'First', { categories: [category.id] });
      await at(2, 'Second', { categories: [category.id] });
      const lists = { all: window(''), category: window(`&categories=${category.id}`), short: window('&page=2') };
      await r.cached(lists.all, lists.category);
      // A page is kept once its list is built again: a read that repeats.
      const third = await at(3, 'Third', { categories: [category.id] });
      for (const path of [lists.all, lists.category]) {
        const res = await r.rebuilt(path);
        assert.deepEqual(listTitles(res.body), ['First', 'Second']);
        assert.equal(res.headers.get('x-wp-total'), '3');
      }
      await r.cached(...Object.values(lists));

      // In the category: the kept pages show its count, rewritten.
      await at(10, 'Later', { categories: [category.id] });
      for (const path of [lists.all, lists.category]) {
        const res = await r.fromPart(path);
        assert.deepEqual(listTitles(res.body), ['First', 'Second']);
        assert.equal(res.headers.get('x-wp-total'), '4');
        assert.equal(res.body.total, 4);
        assert.equal(res.body.total_pages, 2);
        assert.equal(res.body.events[0].categories[0].count, 4);
        assert.match(res.headers.get('link') ?? '', /rel="next"/);
      }
      // The second page held one record: any event of the window may join it.
      assert.deepEqual(listTitles((await r.rebuilt(lists.short)).body), ['Third', 'Later']);

      const moved = await srv.request('PUT', `/events/${third.id}`, {
        as: 'administrator',
        json: { start_date: day(20), end_date: day(20, '12:00:00') },
      });
      assert.equal(moved.status, 200, moved.text);
      const filtered = await r.fromPart(lists.category);
      assert.deepEqual(listTitles(filtered.body), ['First', 'Second']);
      assert.equal(filtered.headers.get('x-wp-total'), '4');
      assert.deepEqual(listTitles((await r.rebuilt(lists.short)).body), ['Later', 'Third']);
      assert.deepEqual(listTitles((await r.fromPart(lists.all)).body), ['First', 'Second']);

      await r.cached(lists.all, lists.category);
      // On the day of the page's last record, before it.
      await at(2, 'Joins the page', { start_date: day(2, '09:00:00') });
      assert.deepEqual(listTitles((await r.rebuilt(lists.all)).body), ['First', 'Joins the page']);
      assert.deepEqual(listTitles(await r.hit(lists.category)), ['First', 'Second'], 'not in the category');

      const brought = await srv.request('PUT', `/events/${third.id}`, {
        as: 'administrator',
        json: { start_date: day(0), end_date: day(0, '12:00:00') },
      });
      assert.equal(brought.status, 200, brought.text);
      assert.deepEqual(listTitles((await r.rebuilt(lists.category)).body), ['Third', 'First']);

      await r.cached(lists.category);
      const retitled = await srv.request('PUT', `/events/${first.id}`, {
        as: 'administrator',
        json: { title: 'Renamed' },
      });
      assert.equal(retitled.status, 200, retitled.text);
      assert.deepEqual(listTitles((await r.rebuilt(lists.category)).body), ['Third', 'Renamed']);
    });

    it("a record created with another's tag (its ID modulo 256) leaves that one's reads cached", async () => {
      const category = await makeTerm(srv, 'categories', { name: 'Shared residue' });
      const neighbour = await makeEvent(srv, { title: 'Neighbour', status: 'publish' });
      await r.cached(`/events/${neighbour.id}`);
      // Draft venues behind the service's back, until the next record's ID shares the event's residue.
      const wall = '2027-01-01 00:00:00';
      const filler = () => ({
        type: 'venue' as const,
        status: 'draft',
        author: 0,
        slug: '',
        title: '',
        description: '',
        excerpt: '',
        password: '',
        parent_id: 0,
        image_id: null,
        trashed_slug: null,
        trashed_status: null,
        trashed_at: null,
        date: wall,
        date_utc: wall,
        modified: wall,
        modified_utc: wall,
      });
      const insert = (count: number) =>
        srv.db
          .insertInto('posts')
          .values(Array.from({ length: count }, filler))
          .returning('id')
          .execute();
      const [probe] = await insert(1);
      const remaining = (((neighbour.id - 1 - Number(probe!.id)) % 256) + 256) % 256;
      if (remaining) await insert(remaining);
      await r.hit(`/events/${neighbour.id}`);

      const created = await makeEvent(srv, { title: 'Same residue', status: 'publish', categories: [category.id] });
      assert.equal(created.id % 256, neighbour.id % 256);
      assert.equal((await r.hit(`/events/${neighbour.id}`)).title, 'Neighbour');
      assert.equal((await r.fresh(`/events/${created.id}`)).title, 'Same residue');
    });

    it("a category moved under another refreshes the new parent's filtered list", async () => {
      const parent = await makeTerm(srv, 'categories', { name: 'Adopting parent' });
      const child = await makeTerm(srv, 'categories', { name: 'Adopted child' });
      await makeEvent(srv, { title: 'Of the child', status: 'publish', categories: [child.id] });
      const filtered = `/events?categories=${parent.slug}`;
      await r.cached(filtered);
      assert.deepEqual(listTitles(await r.hit(filtered)), []);

      const moved = await srv.request('PUT', `/categories/${child.id}`, {
        as: 'editor',
        json: { parent: parent.id },
      });
      assert.equal(moved.status, 200, moved.text);
      assert.deepEqual(listTitles(await r.fresh(filtered)), ['Of the child']);
    });

    it('an event trashed leaves its single read and the lists; other events stay cached', async () => {
      const doomed = await makeEvent(srv, { title: 'Doomed', status: 'publish' });
      const kept = await makeEvent(srv, { title: 'Kept', status: 'publish' });
      await r.cached(`/events/${doomed.id}`, `/events/${kept.id}`, '/events?per_page=50');
      const trashed = await srv.request('DELETE', `/events/${doomed.id}`, { as: 'administrator' });
      assert.equal(trashed.status, 200, trashed.text);
      const gone = await srv.get(`/events/${doomed.id}`);
      expectRestError(gone, 403, 'event-no-longer-available');
      assert.equal((await log.lineOf(gone)).cache, 'miss');
      assert.ok(!listTitles(await r.fresh('/events?per_page=50')).includes('Doomed'));
      assert.equal((await r.hit(`/events/${kept.id}`)).title, 'Kept');
    });
  });
}

/** `calendar serve` on the test server's database, in a process of its own. */
async function secondProcess(srv: TestServer, log: LogLines): Promise<{ child: ChildProcess; get: Get }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    env: { ...process.env, DATABASE_URL: srv.databaseUrl, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let rest = '';
  child.stdout!.on('data', (chunk) => {
    const lines = (rest + String(chunk)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line.startsWith('{')) log.write(line);
  });
  const get: Get = async (path) => {
    const res = await fetch(`http://127.0.0.1:${port}/wp-json/calendar/events/v1${path}`);
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  for (const until = Date.now() + 30_000; ;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch (err) {
      if (Date.now() > until) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, get };
}

if (backends.includes('postgres')) {
  describe('two service processes on one PostgreSQL database [postgres]', () => {
    const log = new LogLines();
    let srv: TestServer;
    let other: { child: ChildProcess; get: Get };
    before(async () => {
      srv = await startTestServer('postgres');
      other = await secondProcess(srv, log);
    });
    after(async () => {
      other.child.kill('SIGTERM');
      await once(other.child, 'exit');
      await srv.close();
    });

    it("one process's writes refresh the other's reads built from them, and only those", async () => {
      const r = reader(other.get, log);
      const venue = await create(srv, 'venue', { venue: 'Shared Hall' });
      const category = await makeTerm(srv, 'categories', { name: 'Shared category' });
      const embedding = await makeEvent(srv, { title: 'Embeds', status: 'publish', venue: venue.id });
      const unrelated = await makeEvent(srv, { title: 'Unrelated', status: 'publish', categories: [category.id] });
      await r.cached(
        `/events/${embedding.id}`,
        `/events/${unrelated.id}`,
        `/categories/${category.id}`,
        '/events?per_page=50',
      );

      const renamed = await srv.request('PUT', `/venues/${venue.id}`, {
        as: 'administrator',
        json: { venue: 'Renamed Hall' },
      });
      assert.equal(renamed.status, 200, renamed.text);
      assert.deepEqual(venueName(await r.fresh(`/events/${embedding.id}`)), ['Renamed Hall']);
      const listed = (await r.fresh('/events?per_page=50')).events.find((e: any) => e.id === embedding.id);
      assert.deepEqual(venueName(listed), ['Renamed Hall']);
      assert.equal((await r.hit(`/events/${unrelated.id}`)).title, 'Unrelated');

      const apart = await makeTerm(srv, 'categories', { name: 'Category apart' });
      await makeEvent(srv, { title: 'Apart', status: 'publish', categories: [apart.id] });
      await r.cached(`/events?categories=${category.id}`, `/events?categories=${apart.id}`);
      await makeEvent(srv, { title: 'Joins', status: 'publish', categories: [category.id] });
      assert.deepEqual(listTitles(await r.fresh(`/events?categories=${category.id}`)), ['Unrelated', 'Joins']);
      assert.deepEqual(listTitles(await r.hit(`/events?categories=${apart.id}`)), ['Apart']);
      assert.equal((await r.recounted(`/events/${unrelated.id}`)).categories[0].count, 2);
      assert.equal((await r.recounted(`/categories/${category.id}`)).count, 2);
      assert.ok(listTitles(await r.fresh('/events?per_page=50')).includes('Joins'));
      await r.hit(`/events/${embedding.id}`);
    });
  });
}
