import { DateTime } from 'luxon';
import { WRITE_DAY_EVENTS, type DatasetSummary } from './dataset.js';
import type { PlannedRequest, RequestPool } from './drive.js';
import { drawCategories, drawPage, drawTags, vocabularyOf } from './list-urls.js';
import { Random } from './random.js';

export const SCENARIOS = [
  'list-default',
  'list-varied',
  'list-uncached',
  'single',
  'venues-upcoming',
  'create',
  'day-writes',
  'mixed',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Concurrent writers of day-writes, whatever --connections says: the load issue 28 asks to measure. */
export const DAY_WRITERS = 8;

export const SCENARIO_DESCRIPTIONS: Record<ScenarioName, string> = {
  'list-default': 'GET /events, the same URL every time',
  'list-varied': 'GET /events, a different filter combination each request from a fixed pool',
  'list-uncached': 'GET /events, a URL never sent before each request (date window, per_page, filters)',
  single: 'GET /events/{id} over random published events',
  'venues-upcoming': 'GET /venues?only_with_upcoming=1',
  create: 'authenticated POST /events with an inline venue and two categories',
  'day-writes': `${DAY_WRITERS} connections (not --connections): authenticated POST /events on one day, retitles of ${WRITE_DAY_EVENTS} events of that day`,
  mixed: '90% reads of a small pool (default list, 100 events, 10 one-category lists), 10% creates',
};

/**
 * What the response cache can do for a scenario's reads, shown next to its figures: `cached`, the
 * same URLs again, answered from the cache once the cold pass has filled it; `uncached`, never the
 * same URL twice; `stale on writes`, repeated URLs of which a write makes stale the answers built
 * from what it changed (db/cache-tags.ts); `-`, no reads.
 */
export const SCENARIO_READS: Record<ScenarioName, string> = {
  'list-default': 'cached',
  'list-varied': 'cached',
  'list-uncached': 'uncached',
  single: 'cached',
  'venues-upcoming': 'cached',
  create: '-',
  'day-writes': '-',
  mixed: 'stale on writes',
};

export const API_ROOT = '/wp-json/calendar/events/v1';

export interface PoolOptions {
  seed: number;
  /** Size of the list-varied pool. */
  variedPoolSize: number;
  /** `Basic …` header of the administrator that writes. */
  authorization: string;
}

export interface ScenarioLoad {
  pools: RequestPool[];
  /** Concurrent connections when the scenario sets its own load; otherwise the run's `--connections`. */
  connections?: number;
  /** Statuses besides 2xx that are normal answers: a page past the end of a list is a 404 (events.md 2.8). */
  expected: number[];
}

export type ScenarioPools = Record<ScenarioName, ScenarioLoad>;

/** The distinct GETs of the pools, in pool order: what a scenario's cold pass reads. */
export function distinctReads(pools: RequestPool[]): PlannedRequest[] {
  const seen = new Map<string, PlannedRequest>();
  for (const pool of pools)
    for (const request of 'requests' in pool ? pool.requests : [])
      if (request.method === 'GET' && !seen.has(request.path)) seen.set(request.path, request);
  return [...seen.values()];
}

const get = (path: string): PlannedRequest => ({ method: 'GET', path: `${API_ROOT}${path}` });

/**
 * Filter combinations of GET /events: date windows, categories, tags, venue, search, featured,
 * page 1–5, per_page 10–50. The same combinations at every dataset size, so on a small dataset more
 * of them are pages past the end (404, counted apart from errors).
 */
function variedListPaths(summary: DatasetSummary, seed: number, size: number): string[] {
  const rng = new Random(`varied:${seed}`);
  const anchor = DateTime.fromISO(summary.anchor, { zone: 'utc' });
  const paths = new Set<string>();
  for (let attempts = 0; paths.size < size && attempts < size * 10; attempts++) {
    const q = new URLSearchParams();
    if (rng.chance(0.6)) {
      const from = anchor.plus({ days: rng.int(-720, 700) });
      const to = from.plus({ days: rng.pick([7, 30, 90, 365]) });
      if (rng.chance(0.7)) {
        q.set('start_date', from.toISODate()!);
        q.set('end_date', to.toISODate()!);
      } else {
        q.set('starts_after', from.toISODate()!);
        q.set('ends_before', to.toISODate()!);
      }
    }
    if (rng.chance(0.3)) q.set('categories', drawCategories(rng, summary));
    if (rng.chance(0.25)) q.set('tags', drawTags(rng, summary));
    if (rng.chance(0.15)) q.set('venue', String(rng.pick(summary.venueIds)));
    if (rng.chance(0.1)) q.set('search', rng.pick(summary.words));
    if (rng.chance(0.1)) q.set('featured', '1');
    q.set('per_page', String(rng.pick([10, 10, 20, 25, 50])));
    q.set('page', String(drawPage(rng)));
    paths.add(`/events?${q.toString()}`);
  }
  return [...paths];
}

/**
 * Writes on one day of the dataset (DatasetSummary.writeDay), half and half: creates of published
 * events starting on it (no venue, no categories), and updates changing only the title of events
 * that start on it. Its own generator, so that the other pools stay as they were.
 */
function dayWritesPools(summary: DatasetSummary, seed: number, headers: Record<string, string>): RequestPool[] {
  const rng = new Random(`day-writes:${seed}`);
  const day = DateTime.fromISO(summary.writeDay.day, { zone: 'utc' });
  const creates: PlannedRequest[] = Array.from({ length: 50 }, () => {
    const start = day.set({ hour: rng.int(8, 20), minute: rng.pick([0, 15, 30, 45]) });
    const body = {
      title: `Bench event {{n}}`,
      description: 'Created by the benchmark.',
      start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'),
      end_date: start.plus({ hours: rng.int(1, 3) }).toFormat('yyyy-MM-dd HH:mm:ss'),
      status: 'publish',
    };
    return { method: 'POST', path: `${API_ROOT}/events`, headers, body: JSON.stringify(body) };
  });
  const retitles: PlannedRequest[] = summary.writeDay.eventIds.map((id) => ({
    method: 'POST',
    path: `${API_ROOT}/events/${id}`,
    headers,
    body: JSON.stringify({ title: `Bench event retitled {{n}}` }),
  }));
  return [
    { name: 'day-create', weight: 1, requests: creates },
    { name: 'day-retitle', weight: 1, requests: retitles },
  ];
}

/** The request pools of every scenario, from the dataset. */
export function scenarioPools(summary: DatasetSummary, options: PoolOptions): ScenarioPools {
  const rng = new Random(`pools:${options.seed}`);
  const json = { authorization: options.authorization, 'content-type': 'application/json' };
  const listDefault = [get('/events')];
  const listVaried = variedListPaths(summary, options.seed, options.variedPoolSize).map(get);
  const single = summary.publishedEventIds.slice(0, 2000).map((id) => get(`/events/${id}`));
  const venues = [get('/venues?only_with_upcoming=1')];
  const anchor = DateTime.fromISO(summary.anchor, { zone: 'utc' });
  const creates: PlannedRequest[] = Array.from({ length: 50 }, (_, i) => {
    const start = anchor.plus({ days: rng.int(1, 400), hours: rng.int(9, 20) });
    const body = {
      title: `Bench event {{n}}`,
      description: 'Created by the benchmark.',
      start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'),
      end_date: start.plus({ hours: rng.int(1, 4) }).toFormat('yyyy-MM-dd HH:mm:ss'),
      status: 'publish',
      venue: { venue: `Bench Hall {{n}}`, address: `${i + 1} Main Street`, city: 'Lyon', country: 'France' },
      categories: rng.sample(summary.categoryIds, 2),
    };
    return { method: 'POST', path: `${API_ROOT}/events`, headers: json, body: JSON.stringify(body) };
  });
  // The few pages a calendar's visitors keep reading (front page, some events, some categories),
  // so that what mixed measures is how often its creates empty the cache, not a large pool.
  const polledEvents = single.slice(0, 100);
  const categoryLists = rng.sample(summary.categorySlugs, 10).map((slug) => get(`/events?categories=${slug}`));
  const writeDay = dayWritesPools(summary, options.seed, json);
  const only = (name: string, requests: PlannedRequest[], expected: number[] = []): ScenarioLoad => ({
    pools: [{ name, weight: 1, requests }],
    expected,
  });
  return {
    'list-default': only('list-default', listDefault),
    'list-varied': only('list-varied', listVaried, [404]),
    'list-uncached': {
      pools: [
        { name: 'list-uncached', weight: 1, uncachedLists: { seed: options.seed, vocabulary: vocabularyOf(summary) } },
      ],
      expected: [404],
    },
    single: only('single', single),
    'venues-upcoming': only('venues-upcoming', venues),
    create: only('create', creates),
    'day-writes': { pools: writeDay, connections: DAY_WRITERS, expected: [] },
    mixed: {
      pools: [
        { name: 'list-default', weight: 30, requests: listDefault },
        { name: 'single', weight: 30, requests: polledEvents },
        { name: 'category-list', weight: 30, requests: categoryLists },
        { name: 'create', weight: 10, requests: creates },
      ],
      expected: [],
    },
  };
}
