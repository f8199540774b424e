import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { expectRestError, forEachBackend } from '../support/server.js';
import { daysFromNow, fillSearchQueue, makeEvent } from './helpers.js';

const titles = (res: { body: any }) => res.body.events.map((e: any) => e.title);

forEachBackend('GET /events', (srv) => {
  it('the default window runs from the start of yesterday to 24 months ahead, bounding the event start', async () => {
    await srv().setSetting('posts_per_page', '50');
    const y = DateTime.utc().minus({ days: 1 }).toISODate();
    await makeEvent(srv(), {
      title: 'zqdw started three days ago',
      start_date: daysFromNow(-3),
      end_date: daysFromNow(-3, '11:00:00'),
    });
    await makeEvent(srv(), { title: 'zqdw yesterday', start_date: `${y} 00:00:00`, end_date: `${y} 01:00:00` });
    await makeEvent(srv(), {
      title: 'zqdw running since two days',
      start_date: daysFromNow(-2),
      end_date: daysFromNow(1),
    });
    await makeEvent(srv(), { title: 'zqdw all day yesterday', all_day: true, start_date: y, end_date: y });
    await makeEvent(srv(), { title: 'zqdw in ten days', start_date: daysFromNow(10), end_date: daysFromNow(12) });
    await makeEvent(srv(), {
      title: 'zqdw in 23 months',
      start_date: DateTime.utc().plus({ months: 23 }).toFormat('yyyy-MM-dd 10:00:00'),
      end_date: DateTime.utc().plus({ months: 23 }).toFormat('yyyy-MM-dd 11:00:00'),
    });
    await makeEvent(srv(), {
      title: 'zqdw in 25 months',
      start_date: DateTime.utc().plus({ months: 25 }).toFormat('yyyy-MM-dd 10:00:00'),
      end_date: DateTime.utc().plus({ months: 25 }).toFormat('yyyy-MM-dd 11:00:00'),
    });
    const res = await srv().get('/events', { query: { search: 'zqdw' } });
    assert.equal(res.status, 200);
    assert.deepEqual(titles(res), [
      'zqdw yesterday',
      'zqdw all day yesterday',
      'zqdw in ten days',
      'zqdw in 23 months',
    ]);
    assert.equal(res.body.total, 4);
    assert.equal(res.body.total_pages, 1);
    assert.equal(res.headers.get('x-tec-total'), '4');
    assert.equal(res.headers.get('x-tec-totalpages'), '1');
    assert.equal(res.body.rest_url, `${srv().root}/events/?page=1&per_page=50&search=zqdw&status=publish`);
    assert.deepEqual(Object.keys(res.body), ['events', 'rest_url', 'total', 'total_pages']);
    assert.equal('json_ld' in res.body.events[0], false);
  });

  it('in strict mode the default window starts at yesterday 23:59 UTC instead of the start of yesterday', async () => {
    await makeEvent(srv(), {
      title: 'zqsm yesterday morning',
      start_date: daysFromNow(-1, '08:00:00'),
      end_date: daysFromNow(-1, '09:00:00'),
    });
    await makeEvent(srv(), {
      title: 'zqsm today',
      start_date: daysFromNow(0, '00:00:00'),
      end_date: daysFromNow(0, '01:00:00'),
    });
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'zqsm' } })), [
      'zqsm yesterday morning',
      'zqsm today',
    ]);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'zqsm', strict_dates: 'yes' } })), [
      'zqsm today',
    ]);
  });

  it('start_date and end_date select events lying within whole days unless strict_dates', async () => {
    await makeEvent(srv(), {
      title: 'zqsd morning',
      start_date: '2027-01-01 09:00:00',
      end_date: '2027-01-01 10:00:00',
    });
    await makeEvent(srv(), {
      title: 'zqsd afternoon',
      start_date: '2027-01-01 15:30:00',
      end_date: '2027-01-01 17:00:00',
    });
    await makeEvent(srv(), {
      title: 'zqsd spans midnight',
      start_date: '2027-01-01 22:00:00',
      end_date: '2027-01-02 02:00:00',
    });
    const q = { start_date: '2027-01-01 15:00:00', end_date: '2027-01-01 18:00:00', search: 'zqsd' };
    assert.deepEqual(titles(await srv().get('/events', { query: q })), ['zqsd morning', 'zqsd afternoon']);
    const strict = await srv().get('/events', { query: { ...q, strict_dates: 'true' } });
    assert.deepEqual(titles(strict), ['zqsd afternoon']);
    assert.equal(
      strict.body.rest_url,
      `${srv().root}/events/?page=1&per_page=50&start_date=2027-01-01%2015%3A00%3A00&end_date=2027-01-01%2018%3A00%3A00&search=zqsd&status=publish&strict_dates=true`,
    );
    assert.deepEqual(titles(await srv().get('/events', { query: { ...q, strict_dates: 'no' } })), [
      'zqsd morning',
      'zqsd afternoon',
    ]);
    expectRestError(
      await srv().get('/events', { query: { ...q, strict_dates: '' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): strict_dates',
    );
  });

  it('starts_before/after and ends_before/after bound start and end, and disable the default window', async () => {
    await makeEvent(srv(), { title: 'zqrb one', start_date: '2027-02-01 10:00:00', end_date: '2027-02-01 11:00:00' });
    await makeEvent(srv(), { title: 'zqrb two', start_date: '2027-02-02 10:00:00', end_date: '2027-02-04 11:00:00' });
    await makeEvent(srv(), { title: 'zqrb three', start_date: '2027-02-03 10:00:00', end_date: '2027-02-03 11:00:00' });
    await makeEvent(srv(), { title: 'zqrb old', start_date: '2020-02-03 10:00:00', end_date: '2020-02-03 11:00:00' });
    const get = (query: Record<string, string>) => srv().get('/events', { query: { search: 'zqrb', ...query } });
    assert.deepEqual(titles(await get({ starts_after: '2027-02-01' })), ['zqrb two', 'zqrb three']);
    assert.deepEqual(titles(await get({ starts_before: '2027-02-02' })), ['zqrb old', 'zqrb one', 'zqrb two']);
    assert.deepEqual(titles(await get({ ends_before: '2027-02-03' })), ['zqrb old', 'zqrb one', 'zqrb three']);
    assert.deepEqual(titles(await get({ ends_after: '2027-02-03' })), ['zqrb two']);
    // Overlap: everything running at some point on 2 February.
    assert.deepEqual(titles(await get({ ends_after: '2027-02-01', starts_before: '2027-02-02' })), ['zqrb two']);
    assert.deepEqual(
      titles(
        await get({ starts_after: '2027-02-01 10:30:00', strict_dates: '1', starts_before: '2027-02-02 10:00:00' }),
      ),
      [],
    );
    assert.deepEqual(
      titles(
        await get({ starts_after: '2027-02-01 10:30:00', strict_dates: '1', starts_before: '2027-02-02 10:00:01' }),
      ),
      ['zqrb two'],
    );
    for (const name of ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']) {
      expectRestError(await get({ [name]: 'not a date' }), 400, 'rest_invalid_param', `Invalid parameter(s): ${name}`);
    }
    assert.deepEqual(titles(await get({ start_date: '1609459200' })), ['zqrb one', 'zqrb two', 'zqrb three']);
  });

  it('search needs every word in the title, excerpt or description; quoted phrases and -exclusions work', async () => {
    await makeEvent(srv(), {
      title: 'Srch Jazz Evening',
      start_date: daysFromNow(5),
      end_date: daysFromNow(5, '11:00:00'),
    });
    await makeEvent(srv(), {
      title: 'Srch Quiet Night',
      excerpt: 'some JAZZ too',
      start_date: daysFromNow(6),
      end_date: daysFromNow(6, '11:00:00'),
    });
    await makeEvent(srv(), {
      title: 'Srch Rock 100%_done',
      description: 'evening of rock',
      start_date: daysFromNow(7),
      end_date: daysFromNow(7, '11:00:00'),
    });
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'srch jazz' } })), [
      'Srch Jazz Evening',
      'Srch Quiet Night',
    ]);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'srch -jazz' } })), ['Srch Rock 100%_done']);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: '"srch jazz evening"' } })), [
      'Srch Jazz Evening',
    ]);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'srch evening' } })), [
      'Srch Jazz Evening',
      'Srch Rock 100%_done',
    ]);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: '100%_' } })), ['Srch Rock 100%_done']);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: '0%_d' } })), ['Srch Rock 100%_done']);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: '1_0' } })), []);
  });

  it('search finds substrings of any length and symbol, in HTML descriptions, and follows edits', async () => {
    const a = await makeEvent(srv(), {
      title: 'Fndq Harbour q7',
      description: '<p>Deep <b>fjordline</b> walk</p>',
      start_date: daysFromNow(5),
      end_date: daysFromNow(5, '11:00:00'),
    });
    await makeEvent(srv(), {
      title: 'Fndq say ab"cd',
      start_date: daysFromNow(6),
      end_date: daysFromNow(6, '11:00:00'),
    });
    const search = async (text: string) => titles(await srv().get('/events', { query: { search: text } }));
    assert.deepEqual(await search('FNDQ'), ['Fndq Harbour q7', 'Fndq say ab"cd']);
    assert.deepEqual(await search('fndq q7'), ['Fndq Harbour q7'], 'a two-character word');
    assert.deepEqual(await search('rdli'), ['Fndq Harbour q7'], 'inside a word of the description');
    assert.deepEqual(await search('<b>fjord'), ['Fndq Harbour q7'], 'the stored HTML is searched as it is');
    assert.deepEqual(await search('ab"cd'), ['Fndq say ab"cd']);
    assert.deepEqual(await search('fndq -harbour'), ['Fndq say ab"cd']);
    const retitled = await srv().post(`/events/${a.id}`, {
      as: 'administrator',
      json: { title: 'Fndq Lighthouse', description: 'Calm' },
    });
    assert.equal(retitled.status, 200, retitled.text);
    assert.deepEqual(await search('harbour'), []);
    assert.deepEqual(await search('fjordline'), []);
    assert.deepEqual(await search('lighthouse'), ['Fndq Lighthouse']);
  });

  it('search stays exact over many separate writes, edits and deletions (the index merges what each one adds)', async () => {
    // Each write is a transaction of its own: on SQLite a segment of the full-text index each,
    // merged eight at a time (migration 09), so 40 creates and the edits go through several merges.
    const made = [];
    for (let i = 0; i < 40; i++)
      made.push(
        await makeEvent(srv(), {
          title: `Mrgq outing ${i} ${i % 2 ? 'odd' : 'even'}`,
          start_date: daysFromNow(30 + i),
          end_date: daysFromNow(30 + i, '11:00:00'),
        }),
      );
    for (const event of made.slice(0, 10)) {
      const res = await srv().post(`/events/${event.id}`, {
        as: 'administrator',
        json: { title: event.title.replace('Mrgq', 'Mrgz') },
      });
      assert.equal(res.status, 200, res.text);
    }
    for (const event of made.slice(10, 15))
      assert.equal(
        (await srv().request('DELETE', `/events/${event.id}`, { as: 'administrator', query: { force: true } })).status,
        200,
      );
    const total = async (search: string) => (await srv().get('/events', { query: { search, per_page: 1 } })).body.total;
    assert.equal(await total('mrgq'), 25);
    assert.equal(await total('mrgz'), 10);
    assert.equal(await total('mrgq odd'), 13);
    assert.equal(await total('mrgz -even'), 5);
    assert.equal(await total('outing'), 35);
    if (srv().backend !== 'sqlite') return;
    const setting = await sql<{ v: number }>`select v from post_search_config where k = 'automerge'`.execute(srv().db);
    assert.deepEqual(setting.rows, [{ v: 8 }]);
  });

  it('search finds a record whether it is still queued for the full-text index or already indexed', async () => {
    const queued = async () =>
      srv().backend === 'sqlite'
        ? (await sql<{ id: number }>`select id from post_search_queue order by id`.execute(srv().db)).rows.map(
            (r) => r.id,
          )
        : [];
    const early = await makeEvent(srv(), {
      title: 'Qidx early',
      start_date: daysFromNow(5),
      end_date: daysFromNow(5, '11:00:00'),
    });
    const search = async (text: string) => titles(await srv().get('/events', { query: { search: text } }));
    if (srv().backend === 'sqlite') assert.ok((await queued()).includes(early.id), 'the new event waits in the queue');
    assert.deepEqual(await search('qidx'), ['Qidx early']);
    // Records filling the queue to its limit: it is indexed as a whole, the event above included.
    await fillSearchQueue(srv());
    assert.deepEqual(await queued(), []);
    const late = await makeEvent(srv(), {
      title: 'Qidx late',
      start_date: daysFromNow(6),
      end_date: daysFromNow(6, '11:00:00'),
    });
    if (srv().backend === 'sqlite') assert.deepEqual(await queued(), [late.id]);
    assert.deepEqual(await search('qidx'), ['Qidx early', 'Qidx late']);
    assert.deepEqual(await search('qidx -late'), ['Qidx early']);
    assert.deepEqual(await search('qidx -early'), ['Qidx late']);
    assert.deepEqual(await search('idx ear'), ['Qidx early']);
  });

  it('categories match by ID or slug, sub-categories included; tags likewise; unknown ones are 400', async () => {
    const parent = await srv().post('/categories', { as: 'editor', json: { name: 'Music' } });
    const child = await srv().post('/categories', {
      as: 'editor',
      json: { name: 'Jazz Music', parent: parent.body.id },
    });
    assert.equal(child.status, 201, child.text);
    await makeEvent(srv(), {
      title: 'zqct parent',
      categories: [parent.body.id],
      tags: 'outdoor',
      start_date: daysFromNow(20),
      end_date: daysFromNow(20),
    });
    await makeEvent(srv(), {
      title: 'zqct child',
      categories: [child.body.id],
      start_date: daysFromNow(21),
      end_date: daysFromNow(21),
    });
    await makeEvent(srv(), {
      title: 'zqct none',
      tags: 'indoor',
      start_date: daysFromNow(22),
      end_date: daysFromNow(22),
    });
    assert.deepEqual(titles(await srv().get('/events', { query: { categories: 'music', search: 'zqct' } })), [
      'zqct parent',
      'zqct child',
    ]);
    assert.deepEqual(
      titles(await srv().get('/events', { query: { categories: String(child.body.id), search: 'zqct' } })),
      ['zqct child'],
    );
    assert.deepEqual(titles(await srv().get('/events', { query: { tags: 'outdoor,indoor', search: 'zqct' } })), [
      'zqct parent',
      'zqct none',
    ]);
    assert.deepEqual(
      titles(await srv().get('/events', { query: { tags: 'indoor', categories: 'music', search: 'zqct' } })),
      [],
    );
    const linked = await srv().get('/events', { query: { categories: ['music', 'jazz-music'], search: 'zqct' } });
    assert.match(linked.body.rest_url, /search=zqct&categories=music%2Cjazz-music&status=publish$/);
    expectRestError(
      await srv().get('/events', { query: { categories: 'nope' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): categories',
    );
    expectRestError(
      await srv().get('/events', { query: { tags: '99999' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): tags',
    );
  });

  it('venue and organizer filter on any linked record; unknown or non-numeric IDs are 400', async () => {
    const a = await makeEvent(srv(), {
      title: 'zqvo a',
      venue: { venue: 'VO Hall A' },
      organizer: [{ organizer: 'VO Org A' }],
      start_date: daysFromNow(30),
      end_date: daysFromNow(30),
    });
    const b = await makeEvent(srv(), {
      title: 'zqvo b',
      venue: { venue: 'VO Hall B' },
      organizer: [{ organizer: 'VO Org B' }, a.organizer[0].id],
      start_date: daysFromNow(31),
      end_date: daysFromNow(31),
    });
    await makeEvent(srv(), { title: 'zqvo c', start_date: daysFromNow(32), end_date: daysFromNow(32) });
    assert.deepEqual(titles(await srv().get('/events', { query: { venue: String(a.venue.id), search: 'zqvo' } })), [
      'zqvo a',
    ]);
    assert.deepEqual(
      titles(await srv().get('/events', { query: { venue: `${a.venue.id},${b.venue.id}`, search: 'zqvo' } })),
      ['zqvo a', 'zqvo b'],
    );
    const org = await srv().get('/events', { query: { organizer: String(a.organizer[0].id), search: 'zqvo' } });
    assert.deepEqual(titles(org), ['zqvo a', 'zqvo b']);
    assert.match(org.body.rest_url, new RegExp(`&organizer=${a.organizer[0].id}$`));
    expectRestError(
      await srv().get('/events', { query: { venue: '999999' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): venue',
    );
    expectRestError(await srv().get('/events', { query: { venue: 'abc' } }), 400, 'rest_invalid_param');
    expectRestError(
      await srv().get('/events', { query: { organizer: String(a.venue.id) } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): organizer',
    );
  });

  it('featured true keeps featured events, false the others, and both are echoed', async () => {
    await makeEvent(srv(), {
      title: 'zqft yes',
      featured: true,
      start_date: daysFromNow(40),
      end_date: daysFromNow(40),
    });
    await makeEvent(srv(), { title: 'zqft no', start_date: daysFromNow(41), end_date: daysFromNow(41) });
    const yes = await srv().get('/events', { query: { featured: 'true', search: 'zqft' } });
    assert.deepEqual(titles(yes), ['zqft yes']);
    assert.match(yes.body.rest_url, /&featured=1$/);
    const no = await srv().get('/events', { query: { featured: '0', search: 'zqft' } });
    assert.deepEqual(titles(no), ['zqft no']);
    assert.match(no.body.rest_url, /&featured=0$/);
    expectRestError(
      await srv().get('/events', { query: { featured: 'yes' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): featured',
    );
  });

  it('status: anonymous callers may only ask for publish; editors for registered statuses or any', async () => {
    await makeEvent(srv(), { title: 'zqst pub', start_date: daysFromNow(50), end_date: daysFromNow(50) });
    await makeEvent(srv(), {
      title: 'zqst draft',
      status: 'draft',
      start_date: daysFromNow(51),
      end_date: daysFromNow(51),
    });
    const trashed = await makeEvent(srv(), {
      title: 'zqst trashed',
      start_date: daysFromNow(52),
      end_date: daysFromNow(52),
    });
    await srv().request('DELETE', `/events/${trashed.id}`, { as: 'editor' });
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'zqst', status: 'publish' } })), [
      'zqst pub',
    ]);
    for (const status of ['draft', 'publish,draft', 'any', 'publish,publish']) {
      expectRestError(
        await srv().get('/events', { query: { search: 'zqst', status } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): status',
      );
    }
    expectRestError(
      await srv().get('/events', { as: 'subscriber', query: { status: 'draft' } }),
      400,
      'rest_invalid_param',
    );
    const editor = await srv().get('/events', { as: 'editor', query: { search: 'zqst' } });
    assert.deepEqual(titles(editor), ['zqst pub', 'zqst draft']);
    assert.match(editor.body.rest_url, /&status=any$/);
    assert.deepEqual(titles(await srv().get('/events', { as: 'editor', query: { search: 'zqst', status: 'any' } })), [
      'zqst pub',
      'zqst draft',
    ]);
    assert.deepEqual(titles(await srv().get('/events', { as: 'editor', query: { search: 'zqst', status: 'trash' } })), [
      'zqst trashed',
    ]);
    assert.deepEqual(
      titles(await srv().get('/events', { as: 'editor', query: { search: 'zqst', status: 'draft, trash' } })),
      ['zqst draft', 'zqst trashed'],
    );
    expectRestError(
      await srv().get('/events', { as: 'editor', query: { status: 'foo, bar, publish' } }),
      400,
      'rest_invalid_param',
    );
  });

  it('lists hold only non-public events the caller could read singly, and totals count only those', async () => {
    const mine = await srv().user('contributor', 'lister');
    await makeEvent(
      srv(),
      { title: 'zqvis my draft', status: 'draft', start_date: daysFromNow(60), end_date: daysFromNow(60) },
      mine,
    );
    await makeEvent(
      srv(),
      { title: 'zqvis other draft', status: 'draft', start_date: daysFromNow(61), end_date: daysFromNow(61) },
      'author',
    );
    await makeEvent(
      srv(),
      { title: 'zqvis private', status: 'private', start_date: daysFromNow(62), end_date: daysFromNow(62) },
      'editor',
    );
    await makeEvent(srv(), { title: 'zqvis public', start_date: daysFromNow(63), end_date: daysFromNow(63) }, 'editor');
    const contributor = await srv().get('/events', { as: mine, query: { search: 'zqvis' } });
    assert.deepEqual(titles(contributor), ['zqvis my draft', 'zqvis public']);
    assert.equal(contributor.body.total, 2);
    const editor = await srv().get('/events', { as: 'editor', query: { search: 'zqvis' } });
    assert.deepEqual(titles(editor), ['zqvis my draft', 'zqvis other draft', 'zqvis private', 'zqvis public']);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'zqvis' } })), ['zqvis public']);
  });

  it('hide_from_listings events are never listed, even when included, but stay readable', async () => {
    const hidden = await makeEvent(srv(), {
      title: 'zqhd hidden',
      hide_from_listings: true,
      start_date: daysFromNow(70),
      end_date: daysFromNow(70),
    });
    assert.deepEqual(titles(await srv().get('/events', { as: 'editor', query: { search: 'zqhd' } })), []);
    assert.deepEqual(titles(await srv().get('/events', { query: { include: String(hidden.id) } })), []);
    assert.equal((await srv().get(`/events/${hidden.id}`)).status, 200);
  });

  it('include restricts to IDs, orders by publication date and ignores start_date/end_date', async () => {
    const old = await makeEvent(srv(), {
      title: 'zqinc old',
      start_date: '2019-05-01 10:00:00',
      end_date: '2019-05-01 11:00:00',
      date: '2024-01-02 00:00:00',
    });
    const soon = await makeEvent(srv(), {
      title: 'zqinc soon',
      start_date: daysFromNow(2),
      end_date: daysFromNow(2),
      date: '2024-01-01 00:00:00',
    });
    const res = await srv().get('/events', {
      query: { include: `${old.id},${soon.id},999999`, start_date: '2030-01-01' },
    });
    assert.deepEqual(titles(res), ['zqinc soon', 'zqinc old']);
    assert.match(
      res.body.rest_url,
      new RegExp(`&start_date=2030-01-01&status=publish&include=${old.id},${soon.id},999999$`),
    );
    assert.deepEqual(
      titles(
        await srv().get('/events', {
          query: { include: [String(old.id), String(soon.id)], starts_after: '2020-01-01' },
        }),
      ),
      ['zqinc soon'],
    );
    for (const include of ['foo-bar,23', '0', '1.5', '-3']) {
      expectRestError(
        await srv().get('/events', { query: { include } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): include',
      );
    }
  });

  it('post_parent filters on the stored parent and must name an event', async () => {
    const parent = await makeEvent(srv(), {
      title: 'zqpp parent',
      start_date: daysFromNow(80),
      end_date: daysFromNow(80),
      venue: { venue: 'PP Venue' },
    });
    const child = await makeEvent(srv(), {
      title: 'zqpp child',
      start_date: daysFromNow(81),
      end_date: daysFromNow(81),
    });
    assert.deepEqual(titles(await srv().get('/events', { query: { post_parent: String(parent.id) } })), []);
    await srv().db.updateTable('posts').set({ parent_id: parent.id }).where('id', '=', child.id).execute();
    assert.deepEqual(titles(await srv().get('/events', { query: { post_parent: String(parent.id) } })), ['zqpp child']);
    expectRestError(
      await srv().get('/events', { query: { post_parent: String(parent.venue.id) } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): post_parent',
    );
    expectRestError(await srv().get('/events', { query: { post_parent: 'abc' } }), 400, 'rest_invalid_param');
  });

  it('ticketed=true is refused with event-tickets-not-active; false filters nothing; other text is a type error', async () => {
    const res = await srv().get('/events', { query: { ticketed: 'true' } });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): ticketed');
    assert.equal(res.body.data.params.ticketed, 'Event Tickets plugin is not activated.');
    assert.deepEqual(res.body.data.details.ticketed, {
      code: 'event-tickets-not-active',
      message: 'Event Tickets plugin is not activated.',
      data: { status: 400 },
    });
    expectRestError(await srv().get('/events', { query: { ticketed: 'yes' } }), 400, 'rest_invalid_param');
    assert.equal((await srv().get('/events', { query: { ticketed: 'false' } })).status, 200);
    const foo = await srv().get('/events', { query: { ticketed: 'foo' } });
    assert.equal(foo.body.data.params.ticketed, 'ticketed is not of type boolean.');
  });

  it('geoloc keeps events by venue coordinates, and a centre plus radius by distance', async () => {
    const near = { venue: 'Geo Near', geo_lat: 40.7128, geo_lng: -74.006 };
    await makeEvent(srv(), { title: 'zqgeo nyc', venue: near, start_date: daysFromNow(90), end_date: daysFromNow(90) });
    await makeEvent(srv(), {
      title: 'zqgeo newark',
      venue: { venue: 'Geo Newark', geo_lat: 40.7357, geo_lng: -74.1724 },
      start_date: daysFromNow(91),
      end_date: daysFromNow(91),
    });
    await makeEvent(srv(), {
      title: 'zqgeo boston',
      venue: { venue: 'Geo Boston', geo_lat: 42.3601, geo_lng: -71.0589 },
      start_date: daysFromNow(92),
      end_date: daysFromNow(92),
    });
    await makeEvent(srv(), {
      title: 'zqgeo nowhere',
      venue: { venue: 'Geo Nowhere' },
      start_date: daysFromNow(93),
      end_date: daysFromNow(93),
    });
    await makeEvent(srv(), { title: 'zqgeo no venue', start_date: daysFromNow(94), end_date: daysFromNow(94) });
    const get = (query: Record<string, string>) => srv().get('/events', { query: { search: 'zqgeo', ...query } });
    assert.deepEqual(titles(await get({ geoloc: 'true' })), ['zqgeo nyc', 'zqgeo newark', 'zqgeo boston']);
    assert.deepEqual(titles(await get({ geoloc: 'false' })), ['zqgeo nowhere', 'zqgeo no venue']);
    const radius = await get({ geoloc_lat: '40.7128', geoloc_lng: '-74.006' });
    assert.deepEqual(titles(radius), ['zqgeo nyc', 'zqgeo newark']);
    assert.match(radius.body.rest_url, /&geoloc_lat=40\.7128&geoloc_lng=-74\.006&status=publish$/);
    assert.deepEqual(titles(await get({ geoloc_lat: '40.7128', geoloc_lng: '-74.006', geoloc_radius: '5' })), [
      'zqgeo nyc',
    ]);
    assert.deepEqual(titles(await get({ geoloc_lat: '40.7128', geoloc_lng: '-74.006', geoloc_radius: '200' })), [
      'zqgeo nyc',
      'zqgeo newark',
      'zqgeo boston',
    ]);
    await srv().setSetting('geoloc_unit', 'km');
    assert.deepEqual(titles(await get({ geoloc_lat: '40.7128', geoloc_lng: '-74.006', geoloc_radius: '10' })), [
      'zqgeo nyc',
    ]);
    assert.deepEqual(titles(await get({ geoloc_lat: '40.7128', geoloc_lng: '-74.006', geoloc_radius: '16' })), [
      'zqgeo nyc',
      'zqgeo newark',
    ]);
    await srv().setSetting('geoloc_unit', 'miles');
    expectRestError(await get({ geoloc_lat: '40.7' }), 400, 'rest_invalid_param', 'Invalid parameter(s): geoloc_lat');
    expectRestError(
      await get({ geoloc_lat: '91', geoloc_lng: '0' }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): geoloc_lat',
    );
    expectRestError(
      await get({ geoloc_lat: '1', geoloc_lng: 'x' }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): geoloc_lng',
    );
    expectRestError(
      await get({ geoloc_lat: '1', geoloc_lng: '1', geoloc_radius: '0' }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): geoloc_radius',
    );
    expectRestError(await get({ geoloc: 'maybe' }), 400, 'rest_invalid_param', 'Invalid parameter(s): geoloc');
  });

  it('password-protected events are listed with their protected fields blanked unless the password is given', async () => {
    await makeEvent(srv(), {
      title: 'zqpw locked',
      post_password: 'pw',
      description: 'secret',
      cost: '5',
      featured: true,
      categories: 'PW Cat',
      start_date: daysFromNow(100),
      end_date: daysFromNow(100),
    });
    const res = await srv().get('/events', { query: { search: 'zqpw' } });
    const e = res.body.events[0];
    assert.equal(e.title, 'zqpw locked');
    assert.deepEqual([e.description, e.excerpt, e.image, e.cost, e.website], ['', '', false, '', '']);
    assert.deepEqual(Object.keys(e.cost_details), ['currency_symbol', 'currency_position', 'currency_code', 'values']);
    assert.deepEqual(
      [e.all_day, e.show_map, e.show_map_link, e.hide_from_listings, e.sticky, e.featured],
      [null, null, null, null, null, null],
    );
    assert.deepEqual([e.categories, e.tags, e.venue, e.organizer, e.custom_fields], [[], [], [], [], []]);
    const open = (await srv().get('/events', { query: { search: 'zqpw', password: 'pw' } })).body.events[0];
    assert.equal(open.description, '<p>secret</p>');
    assert.equal(open.featured, true);
    assert.equal(open.categories[0].name, 'PW Cat');
  });

  it('orders by start, then publication date, then ID', async () => {
    const at = daysFromNow(110, '09:00:00');
    const second = await makeEvent(srv(), {
      title: 'zqord b',
      start_date: at,
      end_date: at,
      date: '2024-02-01 00:00:00',
    });
    const first = await makeEvent(srv(), {
      title: 'zqord a',
      start_date: at,
      end_date: at,
      date: '2024-01-01 00:00:00',
    });
    const third = await makeEvent(srv(), {
      title: 'zqord c',
      start_date: at,
      end_date: at,
      date: '2024-02-01 00:00:00',
    });
    await makeEvent(srv(), { title: 'zqord earliest', start_date: daysFromNow(109), end_date: daysFromNow(109) });
    assert.ok(second.id < third.id && first.id > second.id);
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'zqord' } })), [
      'zqord earliest',
      'zqord a',
      'zqord b',
      'zqord c',
    ]);
  });

  it('paging: links across pages, the Link header, totals, and 404 past the end', async () => {
    for (let i = 1; i <= 5; i++)
      await makeEvent(srv(), { title: `zqpg ${i}`, start_date: daysFromNow(120 + i), end_date: daysFromNow(120 + i) });
    const base = `${srv().root}/events/`;
    const p1 = await srv().get('/events', { query: { search: 'zqpg', per_page: 2 } });
    assert.deepEqual(titles(p1), ['zqpg 1', 'zqpg 2']);
    assert.equal(p1.body.rest_url, `${base}?page=1&per_page=2&search=zqpg&status=publish`);
    assert.equal(p1.body.next_rest_url, `${base}?per_page=2&search=zqpg&status=publish&page=2`);
    assert.equal('previous_rest_url' in p1.body, false);
    assert.deepEqual([p1.body.total, p1.body.total_pages], [5, 3]);
    assert.equal(
      p1.headers.get('link'),
      `<${srv().base}/>; rel="https://api.w.org/", ` +
        `<${base}?per_page=2&search=zqpg&status=publish&page=2>; rel="next", ` +
        `<${srv().config.siteUrl}/events/?ical=1&search=zqpg>; rel="alternate"; type="text/calendar"`,
    );
    const p2 = await srv().get(p1.body.next_rest_url.replace(srv().config.siteUrl, srv().origin));
    assert.deepEqual(titles(p2), ['zqpg 3', 'zqpg 4']);
    assert.equal(p2.body.previous_rest_url, `${base}?per_page=2&search=zqpg&status=publish`);
    assert.equal(p2.body.next_rest_url, `${base}?per_page=2&search=zqpg&status=publish&page=3`);
    assert.deepEqual(Object.keys(p2.body), [
      'events',
      'rest_url',
      'next_rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ]);
    const p3 = await srv().get('/events', { query: { search: 'zqpg', per_page: 2, page: 3 } });
    assert.deepEqual(titles(p3), ['zqpg 5']);
    assert.equal(p3.body.previous_rest_url, `${base}?per_page=2&search=zqpg&status=publish&page=2`);
    assert.equal('next_rest_url' in p3.body, false);
    const past = await srv().get('/events', { query: { search: 'zqpg', per_page: 2, page: 4 } });
    expectRestError(past, 404, 'event-archive-page-not-found', 'The requested event archive page does not exist');
    assert.equal(past.headers.get('x-tec-total'), null);
    const empty = await srv().get('/events', { query: { search: 'no-such-words-anywhere' } });
    assert.deepEqual([empty.status, empty.body.events, empty.body.total, empty.body.total_pages], [200, [], 0, 0]);
  });

  it('per_page defaults to posts_per_page and is clamped to max_per_page; bad paging is 400', async () => {
    await srv().setSetting('posts_per_page', '2');
    const res = await srv().get('/events', { query: { search: 'zqpg' } });
    assert.equal(res.body.events.length, 2);
    assert.match(res.body.rest_url, /per_page=2&/);
    await srv().setSetting('max_per_page', '3');
    const clamped = await srv().get('/events', { query: { search: 'zqpg', per_page: 100 } });
    assert.equal(clamped.body.events.length, 3);
    assert.match(clamped.body.rest_url, /per_page=3&/);
    await srv().setSetting('max_per_page', '50');
    await srv().setSetting('posts_per_page', '50');
    for (const [name, value] of [
      ['page', '0'],
      ['page', 'foo'],
      ['per_page', '-1'],
      ['per_page', '2.5'],
    ]) {
      expectRestError(
        await srv().get('/events', { query: { [name!]: value! } }),
        400,
        'rest_invalid_param',
        `Invalid parameter(s): ${name}`,
      );
    }
  });

  it('unsupported methods and malformed paths are rest_no_route', async () => {
    for (const [method, path] of [
      ['PUT', '/events'],
      ['DELETE', '/events'],
      ['GET', '/events/by-slug/'],
      ['GET', '/events/abc'],
      ['PATCH', '/events/1.5'],
    ]) {
      expectRestError(await srv().request(method!, path!, { as: 'editor' }), 404, 'rest_no_route');
    }
  });

  it('HEAD answers like GET, with the totals headers and no body', async () => {
    const res = await srv().request('HEAD', '/events', { query: { search: 'zqpg' } });
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.equal(res.headers.get('x-tec-total'), '5');
  });

  it('every failing filter is named in one rest_invalid_param, in declaration order', async () => {
    const res = await srv().get('/events', { query: { featured: 'x', page: '0', start_date: 'nope' } });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): page, start_date');
  });
});

forEachBackend('GET /events on a New York site', (srv) => {
  it("bounds are site-local wall clock compared with each event's own wall clock; strict values are read as UTC", async () => {
    await srv().setSetting('timezone', 'America/New_York');
    await makeEvent(srv(), {
      title: 'zqny chicago evening',
      timezone: 'America/Chicago',
      start_date: '2027-03-10 19:00:00',
      end_date: '2027-03-10 21:00:00',
    });
    await makeEvent(srv(), {
      title: 'zqny site zone',
      start_date: '2027-03-10 08:00:00',
      end_date: '2027-03-10 09:00:00',
    });
    const e = (
      await srv().get('/events', { query: { search: 'zqny', start_date: '2027-03-10', end_date: '2027-03-10' } })
    ).body.events;
    assert.deepEqual(
      e.map((x: any) => x.title),
      ['zqny site zone', 'zqny chicago evening'],
    );
    assert.equal(e[1].timezone, 'America/Chicago');
    assert.equal(e[1].utc_start_date, '2027-03-11 01:00:00');
    assert.equal(e[0].timezone, 'America/New_York');
    const strict = (start: string) =>
      srv().get('/events', {
        query: { search: 'zqny', start_date: start, end_date: '2027-03-12 00:00:00', strict_dates: 'true' },
      });
    // 00:00 UTC on the 11th is 19:00 in New York: the Chicago event's wall clock 19:00 still counts.
    assert.deepEqual(titles(await strict('2027-03-11 00:00:00')), ['zqny chicago evening']);
    assert.deepEqual(titles(await strict('2027-03-11 00:30:00')), []);
  });

  it('an event crossing the DST change is listed by its wall clock, with UTC computed on each side', async () => {
    const e = await makeEvent(srv(), {
      title: 'zqdst overnight',
      start_date: '2027-03-13 22:00:00',
      end_date: '2027-03-14 10:00:00',
    });
    assert.deepEqual(
      [e.timezone, e.utc_start_date, e.utc_end_date, e.timezone_abbr],
      ['America/New_York', '2027-03-14 03:00:00', '2027-03-14 14:00:00', 'EST'],
    );
    assert.deepEqual(
      titles(
        await srv().get('/events', { query: { search: 'zqdst', start_date: '2027-03-13', end_date: '2027-03-14' } }),
      ),
      ['zqdst overnight'],
    );
    assert.deepEqual(
      titles(
        await srv().get('/events', { query: { search: 'zqdst', start_date: '2027-03-13', end_date: '2027-03-13' } }),
      ),
      [],
    );
    assert.deepEqual(
      titles(
        await srv().get('/events', {
          query: { search: 'zqdst', ends_after: '2027-03-13', starts_before: '2027-03-13' },
        }),
      ),
      ['zqdst overnight'],
    );
  });

  it('the default window starts at the site-local start of yesterday in UTC terms', async () => {
    const now = DateTime.utc();
    const bound = now
      .startOf('day')
      .minus({ days: 1 })
      .set({ hour: 23, minute: 59 })
      .setZone('America/New_York')
      .toISODate();
    const before = DateTime.fromISO(bound!).minus({ days: 1 }).toISODate();
    await makeEvent(srv(), { title: 'zqnyd at bound', start_date: `${bound} 00:00:00`, end_date: `${bound} 01:00:00` });
    await makeEvent(srv(), {
      title: 'zqnyd before bound',
      start_date: `${before} 23:59:59`,
      end_date: `${bound} 01:00:00`,
    });
    assert.deepEqual(titles(await srv().get('/events', { query: { search: 'zqnyd' } })), ['zqnyd at bound']);
  });
});
