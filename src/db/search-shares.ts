/** How long a share steers plans before it is sampled again. */
export const SEARCH_SHARE_LIFETIME_MS = 60_000;

/** Terms kept at most. */
export const SEARCH_SHARES_MAX = 10_000;

/**
 * The search-share cache of the event list planner (resources/events/list-planner.ts), one per
 * app (`AppContext.searchShares`), for the app's one database.
 *
 * Holds: for each search term, lower-cased (matching ignores case), the share of the sampled
 * records that hold it, and when it was sampled.
 * Bound: `SEARCH_SHARES_MAX` terms; when it is full, it is emptied before the next share is kept.
 * Invalidation: a share older than `SEARCH_SHARE_LIFETIME_MS` is sampled again when next asked
 * for. Writes do not invalidate it: a share only chooses between two plans with the same results,
 * so a stale one may cost time but never changes an answer.
 */
export class SearchShares {
  private readonly shares = new Map<string, { share: number; at: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** The term's share as kept, unless older than the lifetime; else `sample`'s, then kept. */
  async shareOf(text: string, sample: (text: string) => Promise<number>): Promise<number> {
    const key = text.toLowerCase();
    const now = this.clock();
    const kept = this.shares.get(key);
    if (kept && now - kept.at < SEARCH_SHARE_LIFETIME_MS) return kept.share;
    const share = await sample(text);
    if (this.shares.size >= SEARCH_SHARES_MAX) this.shares.clear();
    this.shares.set(key, { share, at: now });
    return share;
  }
}
