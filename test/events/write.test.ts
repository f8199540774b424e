import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { daysFromNow, makeEvent, makeImage, tableCounts } from './helpers.js';

forEachBackend('POST /events', (srv) => {
  it('missing title, start_date and end_date are one rest_missing_callback_param, before permission', async () => {
    const res = await srv().post('/events', { json: {} });
    expectRestError(res, 400, 'rest_missing_callback_param', 'Missing parameter(s): title, start_date, end_date');
    assert.deepEqual(res.body.data.params, ['title', 'start_date', 'end_date']);
  });

  it('anonymous callers get 401 and subscribers 403 rest_forbidden', async () => {
    const json = { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1) };
    expectRestError(
      await srv().post('/events', { json }),
      401,
      'rest_forbidden',
      'Sorry, you are not allowed to do that.',
    );
    expectRestError(await srv().post('/events', { as: 'subscriber', json }), 403, 'rest_forbidden');
  });

  it('answers 201 with the full representation in key order, without json_ld', async () => {
    const res = await srv().post('/events', {
      as: 'author',
      json: {
        title: '  Jazz Night ',
        start_date: '2027-07-14 19:30:00',
        end_date: '2027-07-14 22:00:00',
        description: 'Live jazz.\nTonight.',
        excerpt: 'Short text',
      },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('location'), null);
    assert.deepEqual(Object.keys(res.body), [
      'id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'rest_url',
      'title',
      'description',
      'excerpt',
      'slug',
      'image',
      'all_day',
      'start_date',
      'start_date_details',
      'end_date',
      'end_date_details',
      'utc_start_date',
      'utc_start_date_details',
      'utc_end_date',
      'utc_end_date_details',
      'timezone',
      'timezone_abbr',
      'cost',
      'cost_details',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'categories',
      'tags',
      'venue',
      'organizer',
      'custom_fields',
    ]);
    const author = await srv().user('author');
    const e = res.body;
    assert.equal(e.author, String(author.id));
    assert.equal(e.status, 'publish');
    assert.equal(e.title, 'Jazz Night');
    assert.equal(e.slug, 'jazz-night');
    assert.equal(e.description, '<p>Live jazz.<br />\nTonight.</p>');
    assert.equal(e.excerpt, '<p>Short text</p>');
    assert.equal(e.url, `${srv().config.siteUrl}/event/jazz-night/`);
    assert.equal(e.rest_url, `${srv().root}/events/${e.id}`);
    assert.equal(e.global_id, `localhost?id=${e.id}`);
    assert.deepEqual(e.global_id_lineage, [`localhost?id=${e.id}`]);
    assert.deepEqual(e.start_date_details, {
      year: '2027',
      month: '07',
      day: '14',
      hour: '19',
      minutes: '30',
      seconds: '00',
    });
    assert.equal(e.modified, e.date);
    assert.equal(e.modified_utc, e.date_utc);
    assert.equal(e.timezone, 'UTC');
    assert.equal(e.timezone_abbr, 'UTC');
    assert.equal(e.cost, '');
    assert.deepEqual(e.cost_details, { currency_symbol: '', currency_code: '', currency_position: '', values: [] });
    assert.equal(e.website, e.url);
    assert.equal(e.show_map, false);
    assert.equal(e.show_map_link, false);
    assert.deepEqual([e.hide_from_listings, e.sticky, e.featured, e.all_day], [false, false, false, false]);
    assert.deepEqual([e.categories, e.tags, e.venue, e.organizer, e.custom_fields], [[], [], [], [], []]);
  });

  it('a contributor creates a draft by default, and pending when asking for publish, future or private', async () => {
    assert.equal((await makeEvent(srv(), {}, 'contributor')).status, 'draft');
    for (const status of ['publish', 'future', 'private'])
      assert.equal((await makeEvent(srv(), { status }, 'contributor')).status, 'pending');
    const draft = await makeEvent(srv(), { status: 'draft' }, 'contributor');
    assert.equal(draft.date_utc, '0000-00-00 00:00:00');
    assert.equal(draft.modified_utc, '0000-00-00 00:00:00');
    assert.match(draft.slug, /^an-event(-\d+)?$/);
  });

  it('trash and unknown statuses are rejected with rest_invalid_param', async () => {
    for (const status of ['trash', 'kinda_thinking_about_it']) {
      const res = await srv().post('/events', {
        as: 'editor',
        json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), status },
      });
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): status');
    }
  });

  it('a publication date at least a minute ahead schedules the event as future; a past future date publishes', async () => {
    const future = await makeEvent(srv(), { date: daysFromNow(5, '08:00:00') });
    assert.equal(future.status, 'future');
    assert.equal(future.date, daysFromNow(5, '08:00:00'));
    const past = await makeEvent(srv(), { status: 'future', date_utc: '2020-01-01 00:00:00' });
    assert.equal(past.status, 'publish');
    assert.equal(past.date_utc, '2020-01-01 00:00:00');
  });

  it('a scheduled event is published once its time has passed, as soon as it is read', async () => {
    const e = await makeEvent(srv(), { date: daysFromNow(5) });
    assert.equal(e.status, 'future');
    expectRestError(await srv().get(`/events/${e.id}`), 403, 'event-not-accessible');
    await srv().db.updateTable('posts').set({ date_utc: '2020-01-01 00:00:00' }).where('id', '=', e.id).execute();
    const res = await srv().get(`/events/${e.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'publish');
    const row = await srv().db.selectFrom('posts').select('status').where('id', '=', e.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'publish');
  });

  it('a read that bypasses the response cache (a GET with a body) also sees a scheduled event published once due', async () => {
    const e = await makeEvent(srv(), { date: daysFromNow(5) });
    await srv().db.updateTable('posts').set({ date_utc: '2020-01-01 00:00:00' }).where('id', '=', e.id).execute();
    const res = await srv().request('POST', `/events/${e.id}`, { query: { _method: 'GET' }, json: {} });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'publish');
    assert.equal(res.body.id, e.id);
  });

  it('dates are read in the event time zone and UTC is computed across a DST change', async () => {
    const e = await makeEvent(srv(), {
      timezone: 'America/New_York',
      start_date: '2027-03-13 22:00:00',
      end_date: '2027-03-14 10:00:00',
    });
    assert.equal(e.utc_start_date, '2027-03-14 03:00:00');
    assert.equal(e.utc_end_date, '2027-03-14 14:00:00');
    assert.equal(e.timezone_abbr, 'EST');
    const summer = await makeEvent(srv(), {
      timezone: 'America/New_York',
      start_date: '2027-07-14 19:30:00',
      end_date: '2027-07-14 22:00:00',
    });
    assert.equal(summer.utc_start_date, '2027-07-14 23:30:00');
    assert.equal(summer.utc_end_date, '2027-07-15 02:00:00');
    assert.equal(summer.timezone_abbr, 'EDT');
  });

  it('a time inside the spring-forward gap moves forward by the gap', async () => {
    const e = await makeEvent(srv(), {
      timezone: 'America/New_York',
      start_date: '2027-03-14 02:30:00',
      end_date: '2027-03-14 04:00:00',
    });
    assert.equal(e.start_date, '2027-03-14 03:30:00');
    assert.equal(e.utc_start_date, '2027-03-14 07:30:00');
  });

  it('offset time zones, timestamps and relative dates are accepted', async () => {
    const offset = await makeEvent(srv(), {
      timezone: 'UTC+5.5',
      start_date: '2027-01-10 10:00:00',
      end_date: '2027-01-10 11:00:00',
    });
    assert.equal(offset.timezone, 'UTC+5.5');
    assert.equal(offset.timezone_abbr, 'UTC+5.5');
    assert.equal(offset.utc_start_date, '2027-01-10 04:30:00');
    const stamp = await makeEvent(srv(), { timezone: 'Europe/Berlin', start_date: 1815300000, end_date: '1815303600' });
    assert.equal(stamp.utc_start_date, '2027-07-11 10:00:00');
    assert.equal(stamp.start_date, '2027-07-11 12:00:00');
    assert.equal(stamp.end_date, '2027-07-11 13:00:00');
    assert.equal(stamp.timezone_abbr, 'CEST');
    const relative = await makeEvent(srv(), { start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' });
    assert.equal(relative.start_date, daysFromNow(1, '09:00:00'));
    assert.equal(relative.end_date, daysFromNow(1, '11:00:00'));
  });

  it('bad dates and time zones are rest_invalid_param naming each parameter', async () => {
    const res = await srv().post('/events', {
      as: 'editor',
      json: { title: 'x', start_date: 'before my birthday', end_date: 1.5, timezone: 'Mars/Olympus' },
    });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): timezone, start_date, end_date');
    assert.deepEqual(res.body.data.params, {
      timezone: 'Invalid parameter.',
      start_date: 'Invalid parameter.',
      end_date: 'Invalid parameter.',
    });
    for (const timezone of ['+05:00', 'EST5', 'UTCfoo']) {
      const bad = await srv().post('/events', {
        as: 'editor',
        json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), timezone },
      });
      expectRestError(bad, 400, 'rest_invalid_param', 'Invalid parameter(s): timezone');
    }
  });

  it('all-day events run from 00:00:00 of the first day to 23:59:59 of the last', async () => {
    const e = await makeEvent(srv(), {
      all_day: true,
      timezone: 'Europe/Paris',
      start_date: '2027-05-01 15:00',
      end_date: '2027-05-03 09:00',
    });
    assert.equal(e.all_day, true);
    assert.equal(e.start_date, '2027-05-01 00:00:00');
    assert.equal(e.end_date, '2027-05-03 23:59:59');
    assert.equal(e.utc_start_date, '2027-04-30 22:00:00');
    assert.equal(e.utc_end_date, '2027-05-03 21:59:59');
  });

  it('an end before the start becomes the start, UTC end included (E27)', async () => {
    const e = await makeEvent(srv(), {
      timezone: 'America/Chicago',
      start_date: '2027-06-10 18:00:00',
      end_date: '2027-06-10 08:00:00',
    });
    assert.equal(e.end_date, '2027-06-10 18:00:00');
    assert.equal(e.utc_end_date, e.utc_start_date);
  });

  it('booleans accept true/false/1/0 and reject anything else with the type message', async () => {
    const e = await makeEvent(srv(), {
      show_map: 'true',
      show_map_link: 1,
      hide_from_listings: '1',
      sticky: true,
      featured: 'TRUE',
    });
    assert.deepEqual(
      [e.show_map, e.show_map_link, e.hide_from_listings, e.sticky, e.featured],
      [true, true, true, true, true],
    );
    const res = await srv().post('/events', {
      as: 'editor',
      json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), featured: 'yes' },
    });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): featured');
    assert.equal(res.body.data.params.featured, 'featured is not of type boolean.');
    assert.deepEqual(res.body.data.details.featured, {
      code: 'rest_invalid_type',
      message: 'featured is not of type boolean.',
      data: { param: 'featured' },
    });
  });

  it('cost is parsed from free text', async () => {
    const cases: Array<[unknown, string, string, string, string[]]> = [
      ['10', '$10', '', '', ['10']],
      ['10-20', '$10 – $20', '', '', ['10', '20']],
      ['$10 - $20', '$10 – $20', '', '', ['10', '20']],
      ['Free', 'Free', '', '', ['free']],
      ['Donation', 'Donation', '', '', ['donation']],
      ['0', 'Free', '', '', ['0']],
      ['$5', '$5', '$', 'prefix', ['5']],
      ['$0', 'Free', '$', 'prefix', ['0']],
      ['20$', '20$', '$', 'postfix', ['20']],
      ['€ 12', '€12', '€', 'prefix', ['12']],
      ['12.5 USD', '12.5USD', 'USD', 'postfix', ['12.5']],
      ['$5.50', '$5.50', '$', 'prefix', ['5.50']],
      ['1,000', '$1,000', '', '', ['1000']],
      [['0$', '20$', '30$'], 'Free – 30$', '$', 'postfix', ['0', '20', '30']],
      [['Free', '10$'], '10$', '$', 'postfix', ['free', '10']],
      ['€6.50 - €8.50', '$6.50 – $8.50', '', '', ['6.50', '8.50']],
      ['5,50 7,50', '$5,50 – $7,50', '', '', ['5.50', '7.50']],
      [25, '$25', '', '', ['25']],
    ];
    for (const [cost, display, symbol, position, values] of cases) {
      const e = await makeEvent(srv(), { cost });
      assert.equal(e.cost, display, `cost ${JSON.stringify(cost)}`);
      assert.deepEqual(
        e.cost_details,
        { currency_symbol: symbol, currency_code: '', currency_position: position, values },
        `cost ${JSON.stringify(cost)}`,
      );
    }
  });

  it('website must be an http(s) URL or empty; an empty one shows the event url', async () => {
    const e = await makeEvent(srv(), { website: 'https://example.org/jazz?a=1&b=2' });
    assert.equal(e.website, 'https://example.org/jazz?a=1&b=2');
    const empty = await makeEvent(srv(), { website: '' });
    assert.equal(empty.website, empty.url);
    for (const website of ['example.com', 'foo']) {
      const res = await srv().post('/events', {
        as: 'editor',
        json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), website },
      });
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): website');
    }
  });

  it('HTML is sanitized for every role unless unfiltered_html lets editors store it', async () => {
    const e = await makeEvent(srv(), {
      title: '<b>Bold</b><script>x</script>',
      description: '<p onclick="x()">Hi</p><script>alert(1)</script>',
    });
    assert.equal(e.title, '<b>Bold</b>');
    assert.equal(e.description, '<p>Hi</p>');
    await srv().setSetting('unfiltered_html', 'on');
    const raw = await makeEvent(srv(), { description: '<iframe src="https://x.example"></iframe>' }, 'editor');
    assert.equal(raw.description, '<iframe src="https://x.example"></iframe>');
    const author = await makeEvent(srv(), { description: '<iframe src="https://x.example"></iframe>' }, 'author');
    assert.equal(author.description, '');
    await srv().setSetting('unfiltered_html', 'off');
  });

  it('slugs are sanitized and unique among events, for drafts too', async () => {
    const a = await makeEvent(srv(), { title: 'Café Concert!' });
    assert.equal(a.slug, 'cafe-concert');
    const b = await makeEvent(srv(), { title: 'Café Concert!', status: 'draft' });
    assert.equal(b.slug, 'cafe-concert-2');
    const c = await makeEvent(srv(), { slug: 'Cafe Concert' });
    assert.equal(c.slug, 'cafe-concert-3');
    const feed = await makeEvent(srv(), { slug: 'feed' });
    assert.equal(feed.slug, 'feed-2');
    // A title that yields no slug: the ID.
    const untitled = await makeEvent(srv(), { title: '!?' });
    assert.equal(untitled.slug, String(untitled.id));
  });

  it('many events of one title take -2, -3, … in order, and a freed suffix is taken again', async () => {
    const events = [];
    for (let i = 0; i < 40; i++) events.push(await makeEvent(srv(), { title: 'Weekly Meetup' }));
    assert.deepEqual(
      events.map((e) => e.slug),
      ['weekly-meetup', ...Array.from({ length: 39 }, (_, i) => `weekly-meetup-${i + 2}`)],
    );
    // Trashing renames the slug to …__trashed, which frees it.
    assert.equal((await srv().request('DELETE', `/events/${events[29].id}`, { as: 'administrator' })).status, 200);
    assert.equal((await makeEvent(srv(), { title: 'Weekly Meetup' })).slug, 'weekly-meetup-30');
    assert.equal((await makeEvent(srv(), { title: 'Weekly Meetup' })).slug, 'weekly-meetup-41');
  });

  it('a 200-character title keeps its suffixed slugs within 200 characters, each unique', async () => {
    const title = 'x'.repeat(199) + 'y';
    const slugs = [];
    for (let i = 0; i < 12; i++) slugs.push((await makeEvent(srv(), { title })).slug);
    assert.equal(slugs[0], title);
    assert.equal(slugs[1], `${'x'.repeat(198)}-2`);
    assert.equal(slugs[11], `${'x'.repeat(197)}-12`);
    assert.ok(slugs.every((slug) => slug.length <= 200));
    assert.equal(new Set(slugs).size, 12);
  });

  it('categories and tags are given as IDs or names; unknown names create terms', async () => {
    const e = await makeEvent(srv(), { categories: 'Zeta, Alpha', tags: ['rock', 'Rock'] });
    assert.deepEqual(
      e.categories.map((t: any) => t.name),
      ['Alpha', 'Zeta'],
    );
    assert.deepEqual(
      e.tags.map((t: any) => [t.name, t.taxonomy]),
      [['rock', 'post_tag']],
    );
    const again = await makeEvent(srv(), { categories: [e.categories[0].id], tags: 'rock' });
    assert.deepEqual(
      again.categories.map((t: any) => t.id),
      [e.categories[0].id],
    );
    assert.deepEqual(
      again.tags.map((t: any) => t.id),
      [e.tags[0].id],
    );
  });

  it('an inline venue is created and linked, an existing organizer linked by ID', async () => {
    const org = await srv().post('/organizers', {
      as: 'editor',
      json: { organizer: 'City Jazz Society', email: 'info@jazz.example' },
    });
    assert.equal(org.status, 201);
    const e = await makeEvent(srv(), {
      venue: { venue: 'Blue Room', address: '131 Third Street', city: 'New York' },
      organizer: [org.body.id],
    });
    assert.equal(e.venue.venue, 'Blue Room');
    assert.equal(e.venue.city, 'New York');
    assert.deepEqual(
      e.organizer.map((o: any) => o.id),
      [org.body.id],
    );
    assert.equal(e.organizer[0].email, 'info@jazz.example');
  });

  it('several venues are linked in order and shown as a list', async () => {
    const v1 = await makeEvent(srv(), { venue: { venue: 'First Hall' } });
    const v2 = await makeEvent(srv(), { venue: { venue: 'Second Hall' } });
    const e = await makeEvent(srv(), { venue: `${v2.venue.id},${v1.venue.id}` });
    assert.ok(Array.isArray(e.venue));
    assert.deepEqual(
      e.venue.map((v: any) => v.venue),
      ['Second Hall', 'First Hall'],
    );
  });

  it('an image is given by ID or by URL; a contributor may not use a URL', async () => {
    const imageId = await makeImage(srv());
    const e = await makeEvent(srv(), { image: imageId });
    assert.deepEqual(e.image, {
      url: 'https://cdn.example.org/pics/photo.jpg',
      id: imageId,
      extension: 'jpg',
      width: 800,
      height: 600,
    });
    const byUrl = await makeEvent(srv(), { image: 'https://cdn.example.org/pics/other.png' }, 'author');
    assert.equal(byUrl.image.url, 'https://cdn.example.org/pics/other.png');
    assert.equal(byUrl.image.extension, 'png');
    const reused = await makeEvent(srv(), { image: 'https://cdn.example.org/pics/other.png' });
    assert.equal(reused.image.id, byUrl.image.id);
    const contributor = await srv().post('/events', {
      as: 'contributor',
      json: {
        title: 'x',
        start_date: daysFromNow(1),
        end_date: daysFromNow(1),
        image: 'https://cdn.example.org/x.jpg',
      },
    });
    expectRestError(contributor, 400, 'rest_invalid_param', 'Invalid parameter(s): image');
    const notImage = await srv().post('/events', {
      as: 'editor',
      json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), image: e.id },
    });
    expectRestError(notImage, 400, 'rest_invalid_param', 'Invalid parameter(s): image');
    const empty = await srv().post('/events', {
      as: 'editor',
      json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), image: '' },
    });
    expectRestError(empty, 400, 'rest_invalid_param', 'Invalid parameter(s): image');
  });

  it('naming another author needs "edit others\' events"', async () => {
    const other = await srv().user('author', 'other-author');
    const res = await srv().post('/events', {
      as: 'author',
      json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), author: other.id },
    });
    expectRestError(res, 403, 'rest_forbidden');
    const byEditor = await makeEvent(srv(), { author: other.id }, 'editor');
    assert.equal(byEditor.author, String(other.id));
    const unknown = await srv().post('/events', {
      as: 'editor',
      json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), author: 99999 },
    });
    expectRestError(unknown, 400, 'rest_invalid_param', 'Invalid parameter(s): author');
  });

  it('post_password sets a password that is never returned', async () => {
    const e = await makeEvent(srv(), { post_password: 's3cret' });
    assert.equal('post_password' in e, false);
    assert.equal('password' in e, false);
    const row = await srv().db.selectFrom('posts').select('password').where('id', '=', e.id).executeTakeFirstOrThrow();
    assert.equal(row.password, 's3cret');
  });

  it('a rejected write leaves nothing behind: no venue, organizer, term or image', async () => {
    const before = await tableCounts(srv());
    const res = await srv().post('/events', {
      as: 'editor',
      json: {
        title: 'x',
        start_date: daysFromNow(1),
        end_date: daysFromNow(1),
        categories: 'Brand New Category',
        image: 'https://cdn.example.org/new.jpg',
        venue: { venue: 'New Venue' },
        organizer: [{ organizer: 'New Organizer' }, { id: 999999 }],
      },
    });
    expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): organizer');
    assert.deepEqual(await tableCounts(srv()), before);
  });

  it('a failure inside the transaction rolls back everything created before it', async () => {
    const before = await tableCounts(srv());
    const res = await srv().post('/events', {
      as: 'editor',
      json: {
        title: 'x',
        start_date: daysFromNow(1),
        end_date: daysFromNow(1),
        categories: 'Rollback Category',
        venue: { venue: 'Rollback Venue' },
        organizer: { organizer: '' },
      },
    });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(await tableCounts(srv()), before);
  });

  it('form-encoded bodies with bracket arrays and nested objects are accepted', async () => {
    const form = [
      'title=Form+Event',
      `start_date=${encodeURIComponent(daysFromNow(4))}`,
      `end_date=${encodeURIComponent(daysFromNow(4, '11:00:00'))}`,
      'categories[]=Form+Cat&categories[]=Other+Cat',
      'venue[venue]=Form+Hall&venue[city]=Rome',
      'organizer[0][organizer]=Form+Org',
      'featured=1',
    ].join('&');
    const res = await srv().post('/events', { as: 'editor', form });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      res.body.categories.map((c: any) => c.name),
      ['Form Cat', 'Other Cat'],
    );
    assert.equal(res.body.venue.city, 'Rome');
    assert.equal(res.body.organizer[0].organizer, 'Form Org');
    assert.equal(res.body.featured, true);
  });

  it('query-string parameters count on writes too', async () => {
    const res = await srv().post('/events', {
      as: 'editor',
      query: { title: 'From Query' },
      json: { start_date: daysFromNow(1), end_date: daysFromNow(1) },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.title, 'From Query');
  });

  it('a single organizer object and a comma string of IDs are accepted (E31)', async () => {
    const one = await makeEvent(srv(), { organizer: { organizer: 'Solo Org' } });
    assert.deepEqual(
      one.organizer.map((o: any) => o.organizer),
      ['Solo Org'],
    );
    const two = await makeEvent(srv(), { organizer: { organizer: 'Duo Org' } });
    const both = await makeEvent(srv(), { organizer: `${two.organizer[0].id},${one.organizer[0].id}` });
    assert.deepEqual(
      both.organizer.map((o: any) => o.organizer),
      ['Duo Org', 'Solo Org'],
    );
  });

  it('venue and organizer input naming unknown records or empty data is 400 and writes nothing', async () => {
    const before = await tableCounts(srv());
    for (const json of [
      { venue: 999999 },
      { venue: { id: 999999 } },
      { organizer: ['abc'] },
      { venue: { venue: '' } },
    ]) {
      const res = await srv().post('/events', {
        as: 'editor',
        json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), ...json },
      });
      assert.equal(res.status, 400, res.text);
      assert.ok(['rest_invalid_param', 'could-not-create-venue'].includes(res.body.code), res.text);
    }
    assert.deepEqual(await tableCounts(srv()), before);
  });

  it('date_utc alone sets both publication dates; date alone is read in the site time zone', async () => {
    const utcOnly = await makeEvent(srv(), { date_utc: '2026-01-05 12:00:00' });
    assert.deepEqual([utcOnly.date, utcOnly.date_utc], ['2026-01-05 12:00:00', '2026-01-05 12:00:00']);
    await srv().setSetting('timezone', 'Europe/Berlin');
    const local = await makeEvent(srv(), { date: '2026-01-05 12:00:00' });
    assert.deepEqual([local.date, local.date_utc], ['2026-01-05 12:00:00', '2026-01-05 11:00:00']);
    assert.equal(local.timezone, 'Europe/Berlin');
    const both = await makeEvent(srv(), { date: '2026-01-05 12:00:00', date_utc: '2026-01-05 12:00:00' });
    assert.deepEqual([both.date, both.date_utc], ['2026-01-05 12:00:00', '2026-01-05 12:00:00']);
    expectRestError(
      await srv().post('/events', {
        as: 'editor',
        json: { title: 'x', start_date: daysFromNow(1), end_date: daysFromNow(1), date: 'foo' },
      }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): date',
    );
    await srv().setSetting('timezone', 'UTC');
  });

  it('representation-only fields sent on create are ignored', async () => {
    const e = await makeEvent(srv(), {
      url: 'http://evil.example/',
      utc_start_date: '2000-01-01 00:00:00',
      cost_details: { values: ['1'] },
      timezone_abbr: 'XYZ',
    });
    assert.equal(e.url, `${srv().config.siteUrl}/event/${e.slug}/`);
    assert.notEqual(e.utc_start_date, '2000-01-01 00:00:00');
    assert.deepEqual(e.cost_details.values, []);
    assert.equal(e.timezone_abbr, 'UTC');
  });
});
