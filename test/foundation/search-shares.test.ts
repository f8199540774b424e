import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SEARCH_SHARES_MAX, SEARCH_SHARE_LIFETIME_MS, SearchShares } from '../../src/db/search-shares.js';

/** A sampler that records the terms it was asked for. */
function sampler(share = 0.25) {
  const asked: string[] = [];
  return {
    asked,
    sample: async (text: string) => {
      asked.push(text);
      return share;
    },
  };
}

describe('search-share cache', () => {
  it('keeps one share per term whatever its case, until the lifetime has passed', async () => {
    let now = 1_000;
    const shares = new SearchShares(() => now);
    const { asked, sample } = sampler();
    assert.equal(await shares.shareOf('Jazz', sample), 0.25);
    now += SEARCH_SHARE_LIFETIME_MS - 1;
    assert.equal(await shares.shareOf('jazz', sample), 0.25);
    assert.deepEqual(asked, ['Jazz']);
    now += 1;
    await shares.shareOf('JAZZ', sample);
    assert.deepEqual(asked, ['Jazz', 'JAZZ']);
  });

  it(`holds at most ${SEARCH_SHARES_MAX} terms: when full, it is emptied before the next one is kept`, async () => {
    const shares = new SearchShares(() => 0);
    const { asked, sample } = sampler();
    for (let i = 0; i < SEARCH_SHARES_MAX; i++) await shares.shareOf(`term${i}`, sample);
    await shares.shareOf('term0', sample);
    assert.equal(asked.length, SEARCH_SHARES_MAX);
    await shares.shareOf('one more', sample);
    await shares.shareOf('one more', sample);
    assert.equal(asked.length, SEARCH_SHARES_MAX + 1);
    await shares.shareOf('term0', sample);
    assert.equal(asked.length, SEARCH_SHARES_MAX + 2);
  });
});
