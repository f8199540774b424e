import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatasetSummary } from '../../bench/dataset.js';
import { runLoad, type LoadPlan } from '../../bench/drive.js';
import {
  UNCACHED_LIST_CAPACITY,
  UNCACHED_LIST_STRIDE,
  uncachedListPath,
  vocabularyOf,
  type UncachedLists,
} from '../../bench/list-urls.js';
import { API_ROOT, distinctReads, scenarioPools } from '../../bench/scenarios.js';

const range = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

/** A dataset summary of the benchmark's shape at 100k events, without a database. */
const summary: DatasetSummary = {
  seed: 1,
  anchor: '2026-11-27',
  events: 100_000,
  venues: 2_500,
  organizers: 1_666,
  images: 1_000,
  categories: 104,
  tags: 200,
  series: 0,
  occurrences: 0,
  seconds: 0,
  publishedEventIds: range(5_000, (i) => 3_000 + 7 * i),
  categoryIds: range(104, (i) => 10 + i),
  categorySlugs: range(104, (i) => `category-${i}`),
  tagSlugs: range(200, (i) => `tag-${i}`),
  venueIds: range(2_500, (i) => 200_000 + i),
  organizerIds: range(1_666, (i) => 300_000 + i),
  words: ['jazz', 'poetry', 'workshop', 'family'],
  writeDay: { day: '2026-12-27', eventIds: range(20, (i) => 3_000 + 7 * i) },
};
const lists: UncachedLists = { seed: 1, vocabulary: vocabularyOf(summary) };

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

describe('list-uncached URLs (bench/list-urls.ts)', () => {
  it('numbers map one to one onto date windows and per_page: the stride is prime to the capacity', () => {
    assert.equal(gcd(UNCACHED_LIST_STRIDE, UNCACHED_LIST_CAPACITY), 1);
    assert.ok(UNCACHED_LIST_STRIDE * UNCACHED_LIST_CAPACITY < Number.MAX_SAFE_INTEGER, 'exact integer arithmetic');
  });

  it('100,000 consecutive numbers, and the last ones below the capacity, give as many different URLs', () => {
    const seen = new Set<string>();
    for (let n = 0; n < 100_000; n++) seen.add(uncachedListPath(lists, n));
    for (let n = UNCACHED_LIST_CAPACITY - 1_000; n < UNCACHED_LIST_CAPACITY; n++) seen.add(uncachedListPath(lists, n));
    assert.equal(seen.size, 101_000);
  });

  it('the same seed gives the same URLs, another seed other ones', () => {
    const first = range(100, (n) => uncachedListPath(lists, n));
    assert.deepEqual(
      range(100, (n) => uncachedListPath({ seed: 1, vocabulary: vocabularyOf(summary) }, n)),
      first,
    );
    const other = range(100, (n) => uncachedListPath({ ...lists, seed: 2 }, n));
    assert.equal(other.filter((path) => first.includes(path)).length, 0);
  });

  it('numbers outside 0 to the capacity − 1 are refused rather than wrapping around', () => {
    for (const n of [-1, 1.5, UNCACHED_LIST_CAPACITY])
      assert.throws(() => uncachedListPath(lists, n), RangeError, String(n));
  });

  it('every URL is a valid list query naming the dataset: page 1–5, per_page 10–50, a window of 1 to 92 days', () => {
    const v = lists.vocabulary;
    const terms = (value: string, names: string[]) => {
      const items = value.split(',');
      assert.ok(items.length >= 1 && items.length <= 2 && new Set(items).size === items.length, value);
      for (const item of items) assert.ok(names.includes(item), `${item} is not in the dataset`);
    };
    const used = new Map<string, number>();
    const anchor = Date.parse(`${v.anchor}T00:00:00Z`);
    for (let n = 0; n < 20_000; n++) {
      const path = uncachedListPath(lists, n);
      assert.match(path, /^\/events\?page=[1-5]&per_page=\d+&start_date=[\d-]+&end_date=[\d-]+(&|$)/);
      const q = new URLSearchParams(path.slice('/events?'.length));
      for (const key of q.keys()) used.set(key, (used.get(key) ?? 0) + 1);
      const perPage = Number(q.get('per_page'));
      assert.ok(perPage >= 10 && perPage <= 50, path);
      const start = Date.parse(`${q.get('start_date')}T00:00:00Z`);
      const days = (Date.parse(`${q.get('end_date')}T00:00:00Z`) - start) / 86_400_000 + 1;
      assert.ok(days >= 1 && days <= 92, path);
      assert.ok(Math.abs(start - anchor) <= 1095 * 86_400_000, `${path} starts outside the dataset's six years`);
      if (q.has('categories'))
        terms(q.get('categories')!, [...v.categorySlugs, ...v.categoryIds.map((id) => String(id))]);
      if (q.has('tags')) terms(q.get('tags')!, v.tagSlugs);
      if (q.has('venue')) assert.ok(v.venueIds.includes(Number(q.get('venue'))), path);
      if (q.has('organizer')) assert.ok(v.organizerIds.includes(Number(q.get('organizer'))), path);
      if (q.has('search')) assert.ok(v.words.includes(q.get('search')!), path);
      if (q.has('featured')) assert.equal(q.get('featured'), '1');
    }
    const optional = ['search', 'venue', 'organizer', 'featured', 'categories', 'tags'];
    assert.deepEqual([...used.keys()].sort(), ['end_date', 'page', 'per_page', 'start_date', ...optional].sort());
    for (const key of optional) assert.ok(used.get(key)! < 20_000 / 2, `${key} in most URLs`);
  });

  it("no URL of the other scenarios' pools is one of them, so no cached answer of theirs serves one", () => {
    const pools = scenarioPools(summary, { seed: 1, variedPoolSize: 1_000, authorization: 'Basic eDp5' });
    const generated = new Set(range(20_000, (n) => `${API_ROOT}${uncachedListPath(lists, n)}`));
    for (const [name, load] of Object.entries(pools))
      for (const read of distinctReads(load.pools)) {
        assert.ok(!read.path.startsWith(`${API_ROOT}/events?page=`), `${name}: ${read.path} starts like them`);
        assert.ok(!generated.has(read.path), `${name}: ${read.path}`);
      }
    assert.deepEqual(distinctReads(pools['list-uncached'].pools), [], 'list-uncached has nothing to read cold');
  });
});

describe('the load generator with list-uncached URLs (bench/drive.ts)', () => {
  it('two plans, the second numbered on from the first, never send the same URL', async () => {
    const received: string[] = [];
    const server = createServer((req, res) => {
      received.push(req.url!);
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const plan: LoadPlan = {
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        connections: 4,
        headers: {},
        duration: 1,
        pools: [{ name: 'list-uncached', weight: 1, uncachedLists: lists }],
        expected: [404],
        seed: 1,
        firstUrl: 0,
      };
      const first = await runLoad(plan);
      const second = await runLoad({ ...plan, seed: 2, firstUrl: first.generated });
      assert.ok(first.requests > 0 && second.requests > 0);
      assert.ok(first.generated >= first.requests && second.generated >= second.requests);
      assert.equal(new Set(received).size, received.length, 'a URL was sent twice');
      assert.ok(received.length <= first.generated + second.generated);
      const numbered = new Set(
        range(first.generated + second.generated, (n) => `${API_ROOT}${uncachedListPath(lists, n)}`),
      );
      assert.ok(
        received.every((url) => numbered.has(url)),
        'every URL sent is one of the numbers the plans used up',
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
