import type { DatasetSummary } from './dataset.js';
import { Random } from './random.js';

/** What the benchmark's event-list URLs name: the dataset's anchor day, terms, venues, organizers and words. */
export type ListVocabulary = Pick<
  DatasetSummary,
  'anchor' | 'categoryIds' | 'categorySlugs' | 'tagSlugs' | 'venueIds' | 'organizerIds' | 'words'
>;

export function vocabularyOf(summary: DatasetSummary): ListVocabulary {
  const { anchor, categoryIds, categorySlugs, tagSlugs, venueIds, organizerIds, words } = summary;
  return { anchor, categoryIds, categorySlugs, tagSlugs, venueIds, organizerIds, words };
}

/** One or two categories, each by slug or by ID. */
export function drawCategories(rng: Random, v: ListVocabulary): string {
  return rng
    .sample(
      v.categorySlugs.map((slug, i) => (rng.chance(0.3) ? String(v.categoryIds[i]) : slug)),
      rng.int(1, 2),
    )
    .join(',');
}

/** One or two tags, popular ones more often. */
export function drawTags(rng: Random, v: ListVocabulary): string {
  const tags = new Set<string>();
  const count = rng.int(1, 2);
  while (tags.size < count) tags.add(v.tagSlugs[rng.skewed(v.tagSlugs.length)]!);
  return [...tags].join(',');
}

/** Page 1–5, the first ones more often, as visitors follow the next links. */
export function drawPage(rng: Random): number {
  return rng.weighted([
    [1, 50],
    [2, 20],
    [3, 12],
    [4, 10],
    [5, 8],
  ] as const);
}

/** The seed and the dataset's names: all the load generator needs to make list-uncached URLs. */
export interface UncachedLists {
  seed: number;
  vocabulary: ListVocabulary;
}

/** Window starts, one a day over the dataset's six years around the anchor day. */
const WINDOW_STARTS = 2191;
const FIRST_START_DAY = -1095;
/** Window lengths of 1 to 92 days: a day, a week, a month, a quarter and everything between. */
const WINDOW_DAYS = 92;
const MIN_PER_PAGE = 10;
/** per_page 10 to 50, the service's maximum (events.md 2.1). */
const PER_PAGE_VALUES = 41;

/** How many different URLs `uncachedListPath` makes for one seed: the (start, length, per_page) triples. */
export const UNCACHED_LIST_CAPACITY = WINDOW_STARTS * WINDOW_DAYS * PER_PAGE_VALUES;
/**
 * A prime that does not divide the capacity, so that n → (STRIDE · n + offset) mod capacity is a
 * bijection; near the capacity times the golden ratio, so that consecutive numbers, the requests
 * in flight together, get windows far apart.
 */
export const UNCACHED_LIST_STRIDE = 5_107_717;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The list-uncached scenario's URL number `n`, a different one for every n below the capacity, so
 * that a run numbering its requests never sends the same URL twice and the response cache, keyed
 * by the exact URL, answers none of them.
 *
 * The number picks the date window (`start_date`, `end_date`) and `per_page` through a seeded
 * bijection onto all their combinations; a generator seeded with the number draws the rest: page
 * 1–5, categories, tags, venue, organizer, a search word of the dataset, featured. The parameters
 * come in the order of the service's own `rest_url`, page first (events.md 2.8), and no URL of the
 * other scenarios starts that way, so none of their cached answers can serve one of these.
 * Generation stays cheap (no date library): the load generator makes one per request, for the
 * baseline at its rate too.
 */
export function uncachedListPath(lists: UncachedLists, n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= UNCACHED_LIST_CAPACITY)
    throw new RangeError(`list-uncached has URLs 0 to ${UNCACHED_LIST_CAPACITY - 1}, not ${n}`);
  const { seed, vocabulary: v } = lists;
  const offset = Math.floor(new Random(`uncached:${seed}`).next() * UNCACHED_LIST_CAPACITY);
  const triple = (UNCACHED_LIST_STRIDE * n + offset) % UNCACHED_LIST_CAPACITY;
  const start = Date.parse(`${v.anchor}T00:00:00Z`) + (FIRST_START_DAY + (triple % WINDOW_STARTS)) * DAY_MS;
  const days = 1 + (Math.floor(triple / WINDOW_STARTS) % WINDOW_DAYS);
  const perPage = MIN_PER_PAGE + Math.floor(triple / (WINDOW_STARTS * WINDOW_DAYS));

  const rng = new Random(`uncached:${seed}:${n}`);
  const q = new URLSearchParams();
  q.set('page', String(drawPage(rng)));
  q.set('per_page', String(perPage));
  q.set('start_date', isoDay(start));
  q.set('end_date', isoDay(start + (days - 1) * DAY_MS));
  if (rng.chance(0.1)) q.set('search', rng.pick(v.words));
  if (rng.chance(0.15)) q.set('venue', String(rng.pick(v.venueIds)));
  if (rng.chance(0.1)) q.set('organizer', String(rng.pick(v.organizerIds)));
  if (rng.chance(0.1)) q.set('featured', '1');
  if (rng.chance(0.3)) q.set('categories', drawCategories(rng, v));
  if (rng.chance(0.25)) q.set('tags', drawTags(rng, v));
  return `/events?${q.toString()}`;
}
