import { it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { eventListQueries, type EventListRequest } from '../../src/resources/events/list-planner.js';
import { givenDate, type EventListConditions } from '../../src/resources/events/list-conditions.js';
import { linkedOfEventsQuery } from '../../src/resources/linked/inline.js';
import { organizerKind, venueKind } from '../../src/resources/linked/index.js';
import { categoryTaxonomy, tagTaxonomy } from '../../src/resources/terms/index.js';
import { termsOfEventsQuery } from '../../src/resources/terms/events.js';
import { slugRangeQuery } from '../../src/resources/post-like/slug.js';
import { planOf } from '../support/plans.js';
import { forEachBackend, type TestServer } from '../support/server.js';
import { daysFromNow, makeEvent } from './helpers.js';

/** What a caller who can edit events lists by default: every status but trash and auto-draft (events.md 2.3). */
const EDITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/**
 * A list request for the planner alone: an anonymous caller on a UTC site with the default
 * settings, a first page of `perPage`, then the given conditions.
 */
function listRequest(srv: TestServer, conditions: Partial<EventListConditions>, perPage = 10): EventListRequest {
  return {
    reads: srv.db,
    app: srv.built.app,
    conditions: {
      user: null,
      statuses: ['publish'],
      timezone: 'UTC',
      strict_dates: false,
      geoloc_radius: 25,
      geoloc_unit: 'miles',
      ...conditions,
    },
    paging: { page: 1, perPage, offset: 0 },
    now: DateTime.utc(),
  };
}

/**
 * No table read from end to end: every access goes through an index or a primary key (a select
 * without a table reads one constant row). The queue of records not yet in SQLite's full-text
 * index (`q`) is read whole: it never holds more than SEARCH_QUEUE_LIMIT records.
 */
function assertIndexed(plan: string, what: string) {
  const fullScans = plan
    .split('\n')
    .filter(
      (line) =>
        /\bSeq Scan\b/.test(line) ||
        (/^\s*SCAN \w+/.test(line) &&
          !/USING (COVERING )?INDEX|PRIMARY KEY|VIRTUAL TABLE INDEX|^\s*SCAN CONSTANT ROW$|^\s*SCAN q$/.test(line)),
    );
  assert.deepEqual(fullScans, [], `${what}: full table scan in\n${plan}`);
  assert.match(plan, /INDEX|Index|PRIMARY KEY/, `${what}: no index in\n${plan}`);
}

forEachBackend('GET /events query plans', (srv) => {
  it('every list filter runs on indexes, for the page and for the count', async () => {
    const e = await makeEvent(srv(), {
      venue: { venue: 'Plan Hall', geo_lat: 1, geo_lng: 2 },
      organizer: [{ organizer: 'Plan Org' }],
      categories: 'Plan Cat',
      tags: 'plan-tag',
    });
    const cases: Array<[string, Partial<EventListConditions>]> = [
      ['default window', {}],
      ['explicit dates', { start_date: givenDate('2027-01-01'), end_date: givenDate('2027-02-01') }],
      ['relative dates', { starts_after: givenDate(daysFromNow(1)), ends_before: givenDate(daysFromNow(9)) }],
      [
        'strict dates',
        {
          start_date: givenDate('2027-01-01 10:00:00'),
          end_date: givenDate('2027-02-01 10:00:00'),
          strict_dates: true,
        },
      ],
      ['featured', { featured: true }],
      [
        'featured, cut days',
        {
          starts_after: givenDate('2027-01-01 10:00:00'),
          ends_before: givenDate('2027-02-01 10:00:00'),
          strict_dates: true,
          featured: true,
        },
      ],
      ['venue', { venue: [e.venue.id] }],
      ['organizer', { organizer: [e.organizer[0].id] }],
      ['categories', { categories: [e.categories[0].id] }],
      ['tags', { tags: [e.tags[0].id] }],
      ['categories and tags', { categories: [e.categories[0].id], tags: [e.tags[0].id] }],
      ['search', { search: 'planned' }],
      ['include', { include: [e.id] }],
      ['post_parent', { post_parent: e.id }],
      ['geoloc', { geoloc: true }],
      ['geoloc radius', { geoloc_lat: 1, geoloc_lng: 2 }],
      ['editor statuses', { user: { id: 1, login: 'admin', role: 'editor' }, statuses: EDITABLE_STATUSES }],
      ['contributor statuses', { user: { id: 2, login: 'c', role: 'contributor' }, statuses: EDITABLE_STATUSES }],
    ];
    for (const [what, conditions] of cases) {
      const { pageFor, count } = await eventListQueries(listRequest(srv(), conditions));
      // Pages are planned knowing the total: few matches of a term filter, or many.
      for (const total of [10, 100_000]) {
        const plan = await planOf(srv(), pageFor(total));
        if (process.env.SHOW_PLANS) console.log(`-- ${what} (page of ${total})\n${plan}`);
        assertIndexed(plan, `${what} (page of ${total})`);
      }
      const plan = await planOf(srv(), count);
      if (process.env.SHOW_PLANS) console.log(`-- ${what} (count)\n${plan}`);
      assertIndexed(plan, `${what} (count)`);
    }
  });
});

forEachBackend('GET /events totals of two term filters', (srv) => {
  it('the total is exact; on SQLite the filter with fewer events drives and each of its events is looked up by key in the other', async () => {
    const rare = await makeEvent(srv(), { categories: 'Plan Rare', tags: 'plan-common' });
    for (let i = 0; i < 3; i++) await makeEvent(srv(), { tags: 'plan-common' });
    const params = { categories: String(rare.categories[0].id), tags: 'plan-common' };
    assert.equal((await srv().get('/events', { query: params })).body.total, 1);
    if (srv().backend !== 'sqlite') return;
    const { count } = await eventListQueries(
      listRequest(srv(), { categories: [rare.categories[0].id], tags: [rare.tags[0].id] }),
    );
    const plan = await planOf(srv(), count);
    // The category drives; the tag is probed per link, not gathered into a set of all its events.
    assert.match(plan, /SEARCH e USING COVERING INDEX event_terms_listing \(term_id=\?/, plan);
    assert.match(
      plan,
      /SEARCH et EXISTS USING COVERING INDEX \S+ \((event_id=\? AND term_id=\?|term_id=\? AND event_id=\?)\)/,
      plan,
    );
    assert.doesNotMatch(plan, /LIST SUBQUERY/, plan);
  });
});

forEachBackend('query plans of the records embedded in events', (srv) => {
  it("venues, organizers and terms are read by key from the events' links, for one event and for a page", async () => {
    const e = await makeEvent(srv(), {
      venue: { venue: 'Embed Hall' },
      organizer: [{ organizer: 'Embed Org' }],
      categories: 'Embed Cat',
      tags: 'embed-tag',
    });
    for (const ids of [[e.id], Array.from({ length: 50 }, (_, i) => e.id + i)]) {
      for (const kind of [venueKind, organizerKind]) {
        const plan = await planOf(srv(), linkedOfEventsQuery(srv().db, kind, ids, null));
        // `l`: the events' links, read by index into a table of their own, then read whole.
        assertIndexed(plan.replace(/^\s*SCAN l$/m, ''), `${kind.type} of ${ids.length} events`);
        // SQLite left free reads every record of the kind through the type-and-status index.
        if (srv().backend === 'sqlite')
          assert.match(plan, /SEARCH p USING INTEGER PRIMARY KEY/, `${kind.type} of ${ids.length} events:\n${plan}`);
        // PostgreSQL left free may merge them with every post after the first in key order: the
        // posts are narrowed to the links' records, given as an array.
        else
          assert.match(
            plan,
            /on posts p\b[^\n]*\n(\s+(Index Cond|Filter): [^\n]*\n)*?\s+(Index Cond|Filter): [^\n]*\bid = ANY \(\$\d+\)/,
            `${kind.type} of ${ids.length} events:\n${plan}`,
          );
      }
      const plan = await planOf(srv(), termsOfEventsQuery(srv().db, [categoryTaxonomy.name, tagTaxonomy.name], ids));
      assertIndexed(plan, `terms of ${ids.length} events`);
      // SQLite left free probes every term of the taxonomies for each event.
      if (srv().backend === 'sqlite')
        assert.match(
          plan,
          /SEARCH event_terms USING COVERING INDEX \S+ \(event_id=\?\)[\s\S]*SEARCH terms USING INTEGER PRIMARY KEY/,
          `terms of ${ids.length} events:\n${plan}`,
        );
    }
  });
});

forEachBackend('GET /events totals of a common search term', (srv) => {
  it('a common term is checked on each event of a small window and looked up in a wide one, with the same totals', async () => {
    // 40 events carry the word, so it is common for a page of one (SQLite: the newest records sampled hold it).
    for (let i = 0; i < 38; i++)
      await makeEvent(srv(), {
        title: `Cmnw outing ${i}`,
        start_date: `2031-0${1 + (i % 9)}-10 10:00:00`,
        end_date: `2031-0${1 + (i % 9)}-10 12:00:00`,
      });
    for (const title of [
      'Cmnw march one',
      'Cmnw march two',
      'Other march one',
      'Other march two',
      'Other march three',
    ]) {
      await makeEvent(srv(), { title, start_date: '2032-03-10 10:00:00', end_date: '2032-03-10 12:00:00' });
    }
    const narrow = { start_date: '2032-03-01', end_date: '2032-03-31' };
    const wide = { start_date: '2031-01-01', end_date: '2032-12-31' };
    const total = async (query: Record<string, string>) =>
      (await srv().get('/events', { query: { ...query, per_page: 1 } })).body.total as number;
    assert.equal(await total({ ...narrow, search: 'cmnw' }), 2);
    assert.equal(await total({ ...narrow, search: '-cmnw' }), 3);
    assert.equal(await total({ ...narrow, search: 'cmnw march -two' }), 1);
    assert.equal(await total({ ...wide, search: 'cmnw' }), 40);
    assert.equal(await total({ ...wide, search: '-cmnw' }), 3);
    if (srv().backend !== 'sqlite') return;
    // Five events in the narrow window against ~40 records estimated to hold it: each of the five is checked.
    const countSql = async (range: typeof narrow, search: string) => {
      const dates = { start_date: givenDate(range.start_date), end_date: givenDate(range.end_date) };
      return (await eventListQueries(listRequest(srv(), { ...dates, search }, 1))).count.compile().sql;
    };
    const narrowSql = await countSql(narrow, 'cmnw');
    assert.doesNotMatch(narrowSql, /post_search match/);
    assert.match(narrowSql, / like /);
    assert.match(await countSql(wide, 'cmnw'), /post_search match/);
  });
});

forEachBackend('query plan of the free slug suffix', (srv) => {
  it('the slugs of a title are read as one range of the code-point slug index', async () => {
    const plan = await planOf(
      srv(),
      slugRangeQuery(srv().db, { type: 'event', from: 'weekly-meetup-', to: 'weekly-meetup.', excludeId: 0 }),
    );
    if (srv().backend === 'sqlite')
      assert.match(plan, /SEARCH posts USING (COVERING )?INDEX posts_type_slug \(type=\? AND slug>\? AND slug<\?\)/);
    else assert.match(plan, /Index (Only )?Scan using posts_type_slug_code_points on posts/);
  });
});
