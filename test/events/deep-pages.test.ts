import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { seedDataset } from '../../bench/dataset.js';
import { forEachBackend } from '../support/server.js';

// Deep pages of a list narrowed by dates, status, `featured` and term filters alone are found by
// their first start (events/list-planner.ts, `seekStart`): the same events, in the same order, as
// the pages before them, and as the list's order over the whole window gives them.
forEachBackend('GET /events deep pages', (srv) => {
  const anchor = DateTime.utc().startOf('day');
  const from = anchor.minus({ days: 800 }).toISODate()!;
  const to = anchor.plus({ days: 800 }).toISODate()!;
  const perPage = 50;
  let expected: number[] = [];
  /** A leaf category given to two events in three, and the top category above it. */
  let leaf: number;
  let top: number;
  /** The IDs of the top category and of every category under it. */
  let tree: number[];
  /** A tag given to nineteen events in twenty. */
  let tag: number;

  /** Links the term to every event of the window but one in `every`, through the triggers. */
  const linkMost = async (term: number, every: number) => {
    const linked = await srv().db.selectFrom('event_terms').select('event_id').where('term_id', '=', term).execute();
    const already = new Set(linked.map((row) => Number(row.event_id)));
    const added = expected
      .filter((id, i) => i % every !== 0 && !already.has(id))
      .map((id) => ({ event_id: id, term_id: term, position: 9 }));
    for (let i = 0; i < added.length; i += 500)
      await srv()
        .db.insertInto('event_terms')
        .values(added.slice(i, i + 500))
        .execute();
  };

  /**
   * The list's order (events.md 2.6) over the window, read from the tables (the site is in UTC), of
   * the events holding a term of each of `inAll`.
   */
  const ordered = async (...inAll: number[][]) => {
    let query = srv()
      .db.selectFrom('events as e')
      .innerJoin('posts as p', 'p.id', 'e.post_id')
      .select('p.id')
      .where('p.status', '=', 'publish')
      .where('e.hide_from_listings', '=', 0)
      .where('e.utc_start_date', '>=', `${from} 00:00:00`)
      .where('e.utc_end_date', '<=', `${to} 23:59:59`);
    for (const ids of inAll)
      query = query.where('p.id', 'in', (eb) =>
        eb.selectFrom('event_terms').select('event_id').where('term_id', 'in', ids),
      );
    const rows = await query.orderBy('e.start_date').orderBy('p.date').orderBy('p.id').execute();
    return rows.map((row) => Number(row.id));
  };

  /** Reads the pages and compares each with its slice of `all`. */
  const comparePages = async (query: Record<string, string | number>, all: number[], pages: number[]) => {
    for (const page of pages) {
      const res = await srv().get('/events', {
        query: { ...query, start_date: from, end_date: to, per_page: perPage, page },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('x-wp-total'), String(all.length));
      const ids = (res.body.events as Array<{ id: number }>).map((event) => event.id);
      assert.deepEqual(ids, all.slice((page - 1) * perPage, page * perPage), `${JSON.stringify(query)} page ${page}`);
    }
  };

  /** Pages around the seek's thresholds, the middle and the end. */
  const pagesOf = (all: number[]) => {
    const pages = Math.ceil(all.length / perPage);
    return [1, 4, 5, 6, 19, 20, 21, 22, 23, Math.floor(pages / 2), Math.floor(pages / 2) + 1, pages - 1, pages].filter(
      (page, i, list) => page >= 1 && page <= pages && list.indexOf(page) === i,
    );
  };

  before(async () => {
    await seedDataset(srv().db, { events: 2500, seed: 3, backend: srv().backend, anchor: anchor.toISODate()! });
    // 150 events starting at the same time around the thousandth place: more ties before a deep
    // page's first event than the seek reads back, so that it counts them instead.
    const around = await ordered();
    const [tied] = await srv()
      .db.selectFrom('events')
      .select('start_date')
      .where('post_id', '=', around[950]!)
      .execute();
    await srv()
      .db.updateTable('events')
      .set({ start_date: tied!.start_date })
      .where('post_id', 'in', around.slice(951, 1100))
      .execute();
    expected = await ordered();
    const categories = await srv()
      .db.selectFrom('terms')
      .select(['id', 'parent'])
      .where('taxonomy', '=', 'tribe_events_cat')
      .execute();
    const childrenOf = (id: number) => categories.filter((c) => Number(c.parent) === id).map((c) => Number(c.id));
    top = Number(categories.find((c) => Number(c.parent) === 0 && childrenOf(Number(c.id)).length > 0)!.id);
    const middles = childrenOf(top);
    const leaves = middles.flatMap(childrenOf);
    leaf = leaves[0]!;
    tree = [top, ...middles, ...leaves];
    // Enough events in one category, and in one tag, for pages of them to be read in start order
    // rather than from their links; through the triggers, which keep the links' listing columns
    // and the counts.
    const [rare] = await srv()
      .db.selectFrom('terms')
      .select('id')
      .where('taxonomy', '=', 'post_tag')
      .orderBy('event_count')
      .orderBy('id')
      .limit(1)
      .execute();
    tag = Number(rare!.id);
    await linkMost(leaf, 3);
    await linkMost(tag, 20);
  });

  it('every page of a window, near either end, holds the events the order puts there, ties at its edges included', async () => {
    assert.ok(expected.length > 1500, `the window holds ${expected.length} events`);
    await comparePages({}, expected, pagesOf(expected));
    // Events starting at the same time as a deep page's first: the dataset's times are on quarter hours.
    const starts = await srv()
      .db.selectFrom('events')
      .select(['start_date'])
      .where('post_id', 'in', expected.slice(1000, 1100))
      .execute();
    assert.ok(new Set(starts.map((row) => row.start_date)).size < 10, 'ties among the deep events');
  });

  it('every page of a category with more than a thousand events holds the events the order puts there', async () => {
    const all = await ordered([leaf]);
    assert.ok(all.length > 1000, `the category holds ${all.length} events in the window`);
    await comparePages({ categories: leaf }, all, pagesOf(all));
  });

  it('every page of a category and its descendants counts and places an event in two of them once', async () => {
    const all = await ordered(tree);
    const links = await srv()
      .db.selectFrom('event_terms')
      .select('event_id')
      .where('term_id', 'in', tree)
      .where('event_id', 'in', all)
      .execute();
    assert.ok(links.length > all.length, 'some events carry two categories of the tree');
    await comparePages({ categories: top }, all, pagesOf(all));
  });

  it('every page of a category and a tag together holds the events carrying both', async () => {
    const all = await ordered(tree, [tag]);
    assert.ok(all.length > 1000, `${all.length} events carry both`);
    await comparePages({ categories: top, tags: tag }, all, pagesOf(all));
  });
});
