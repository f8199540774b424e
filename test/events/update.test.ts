import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { makeEvent, makeImage, tableCounts } from './helpers.js';

forEachBackend('POST|PUT|PATCH /events/{id}', (srv) => {
  it('an update changes only what it names, through each of the three methods', async () => {
    const imageId = await makeImage(srv());
    const e = await makeEvent(srv(), {
      timezone: 'Europe/Paris',
      start_date: '2027-05-01 20:00:00',
      end_date: '2027-05-01 23:00:00',
      cost: '$10',
      website: 'https://example.org',
      featured: true,
      show_map: true,
      image: imageId,
      categories: 'Music',
      venue: { venue: 'Kept Venue' },
      organizer: [{ organizer: 'Kept Organizer' }],
    });
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const res = await srv().request(method, `/events/${e.id}`, {
        as: 'administrator',
        json: { title: `Renamed ${method}` },
      });
      assert.equal(res.status, 200, res.text);
      const u = res.body;
      assert.equal(u.title, `Renamed ${method}`);
      assert.equal(u.slug, e.slug);
      for (const key of [
        'status',
        'date',
        'date_utc',
        'start_date',
        'end_date',
        'utc_start_date',
        'timezone',
        'cost',
        'website',
        'featured',
        'show_map',
        'image',
        'categories',
        'venue',
        'organizer',
      ]) {
        assert.deepEqual(u[key], e[key], `${method} kept ${key}`);
      }
      assert.ok(u.modified >= e.modified);
    }
  });

  it('every update counts in the stored sequence; a rejected one does not', async () => {
    const e = await makeEvent(srv());
    const sequence = async () =>
      (await srv().db.selectFrom('events').select('sequence').where('post_id', '=', e.id).executeTakeFirstOrThrow())
        .sequence;
    assert.equal(await sequence(), 0);
    for (const [i, method] of ['POST', 'PUT', 'PATCH'].entries()) {
      const res = await srv().request(method, `/events/${e.id}`, { as: 'administrator', json: { excerpt: method } });
      assert.equal(res.status, 200, res.text);
      assert.equal(await sequence(), i + 1);
    }
    const bySlug = await srv().post(`/events/by-slug/${e.slug}`, { as: 'administrator', json: { featured: true } });
    assert.equal(bySlug.status, 200, bySlug.text);
    assert.equal(await sequence(), 4);
    const refused = await srv().post(`/events/${e.id}`, { as: 'administrator', json: { start_date: 'no date' } });
    expectRestError(refused, 400, 'rest_invalid_param');
    assert.equal(await sequence(), 4);
  });

  it('explicit empty values clear venue, organizer, categories, tags, image, cost and website', async () => {
    const imageId = await makeImage(srv());
    const e = await makeEvent(srv(), {
      image: imageId,
      cost: '5',
      website: 'https://example.org',
      categories: 'A',
      tags: 'b',
      venue: { venue: 'V1' },
      organizer: [{ organizer: 'O1' }],
    });
    const res = await srv().request('PATCH', `/events/${e.id}`, {
      as: 'editor',
      json: { venue: 0, organizer: [], categories: '', tags: [], image: '', cost: '', website: '' },
    });
    assert.equal(res.status, 200, res.text);
    const u = res.body;
    assert.deepEqual(
      [u.venue, u.organizer, u.categories, u.tags, u.image, u.cost, u.website],
      [[], [], [], [], false, '', u.url],
    );
    const links = await srv().db.selectFrom('event_venues').select('venue_id').where('event_id', '=', e.id).execute();
    assert.equal(links.length, 0);
    const nulls = await makeEvent(srv(), { venue: { venue: 'V2' }, image: imageId });
    const cleared = await srv().request('PATCH', `/events/${nulls.id}`, {
      as: 'editor',
      json: { venue: null, image: null },
    });
    assert.deepEqual([cleared.body.venue, cleared.body.image], [[], false]);
  });

  it('clearing one link leaves the others in the answer and in the next read', async () => {
    const e = await makeEvent(srv(), {
      categories: 'Kept apart',
      tags: 'still-tagged',
      venue: { venue: 'Still Hall' },
      organizer: [{ organizer: 'Still Org' }],
    });
    const res = await srv().request('PATCH', `/events/${e.id}`, { as: 'editor', json: { categories: '' } });
    assert.equal(res.status, 200, res.text);
    const shown = (body: any) => [
      body.categories.length,
      body.tags.map((t: any) => t.slug),
      body.venue.venue,
      body.organizer.map((o: any) => o.organizer),
    ];
    const expected = [0, ['still-tagged'], 'Still Hall', ['Still Org']];
    assert.deepEqual(shown(res.body), expected);
    assert.deepEqual(shown((await srv().get(`/events/${e.id}`, { as: 'editor' })).body), expected);
  });

  it('a lone start date changes only that bound, then an end before the start is clamped', async () => {
    const e = await makeEvent(srv(), { start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 23:00:00' });
    const res = await srv().post(`/events/${e.id}`, { as: 'editor', json: { start_date: '2027-05-01 21:00:00' } });
    assert.equal(res.body.start_date, '2027-05-01 21:00:00');
    assert.equal(res.body.end_date, '2027-05-01 23:00:00');
    const later = await srv().post(`/events/${e.id}`, { as: 'editor', json: { start_date: '2027-05-02 10:00:00' } });
    assert.equal(later.body.end_date, '2027-05-02 10:00:00');
    assert.equal(later.body.utc_end_date, '2027-05-02 10:00:00');
  });

  it('a time zone alone keeps the wall-clock times and recomputes UTC', async () => {
    const e = await makeEvent(srv(), { start_date: '2027-01-15 10:00:00', end_date: '2027-01-15 12:00:00' });
    const res = await srv().post(`/events/${e.id}`, { as: 'editor', json: { timezone: 'America/New_York' } });
    assert.equal(res.body.start_date, '2027-01-15 10:00:00');
    assert.equal(res.body.utc_start_date, '2027-01-15 15:00:00');
    assert.equal(res.body.timezone_abbr, 'EST');
    const dates = await srv().post(`/events/${e.id}`, {
      as: 'editor',
      json: { start_date: '2027-07-15 10:00:00', end_date: '2027-07-15 11:00:00' },
    });
    assert.equal(dates.body.timezone, 'America/New_York');
    assert.equal(dates.body.utc_start_date, '2027-07-15 14:00:00');
    assert.equal(dates.body.timezone_abbr, 'EDT');
  });

  it('all_day true normalises the stored times, false keeps them', async () => {
    const e = await makeEvent(srv(), { start_date: '2027-05-01 20:00:00', end_date: '2027-05-02 08:00:00' });
    const on = await srv().post(`/events/${e.id}`, { as: 'editor', json: { all_day: true } });
    assert.deepEqual(
      [on.body.all_day, on.body.start_date, on.body.end_date],
      [true, '2027-05-01 00:00:00', '2027-05-02 23:59:59'],
    );
    const off = await srv().post(`/events/${e.id}`, { as: 'editor', json: { all_day: false } });
    assert.deepEqual(
      [off.body.all_day, off.body.start_date, off.body.end_date],
      [false, '2027-05-01 00:00:00', '2027-05-02 23:59:59'],
    );
  });

  it('a body slug renames the event; the path id always names the target', async () => {
    const e = await makeEvent(srv(), { title: 'Old Name' });
    const other = await makeEvent(srv(), { title: 'Other Name' });
    const res = await srv().post(`/events/${e.id}`, { as: 'editor', json: { slug: 'Brand New', id: other.id } });
    assert.equal(res.body.id, e.id);
    assert.equal(res.body.slug, 'brand-new');
    const taken = await srv().post(`/events/${e.id}`, { as: 'editor', json: { slug: other.slug } });
    assert.equal(taken.body.slug, `${other.slug}-2`);
  });

  it('an unknown ID is 404 rest-event-not-found, another record type 400 rest-invalid-event-id', async () => {
    expectRestError(
      await srv().post('/events/999999', { as: 'editor', json: { title: 'x' } }),
      404,
      'rest-event-not-found',
      'Event with ID 999999 does not exist.',
    );
    const e = await makeEvent(srv(), { venue: { venue: 'Some Venue' } });
    expectRestError(
      await srv().post(`/events/${e.venue.id}`, { as: 'editor', json: { title: 'x' } }),
      400,
      'rest-invalid-event-id',
      'The specified ID is not a valid event.',
    );
    expectRestError(
      await srv().post('/events/0', { as: 'editor', json: { title: 'x' } }),
      404,
      'rest-event-not-found',
      'Event with ID 0 does not exist.',
    );
  });

  it('roles: contributors edit their own drafts only, authors their own events, editors any', async () => {
    const contributor = await srv().user('contributor');
    const draft = await makeEvent(srv(), { status: 'draft' }, contributor);
    assert.equal((await srv().post(`/events/${draft.id}`, { as: contributor, json: { title: 'mine' } })).status, 200);
    const published = await makeEvent(srv(), { author: contributor.id }, 'editor');
    expectRestError(
      await srv().post(`/events/${published.id}`, { as: contributor, json: { title: 'no' } }),
      403,
      'rest_forbidden',
    );
    const byAuthor = await makeEvent(srv(), {}, 'author');
    assert.equal((await srv().post(`/events/${byAuthor.id}`, { as: 'author', json: { title: 'own' } })).status, 200);
    const others = await makeEvent(srv(), {}, 'editor');
    expectRestError(
      await srv().post(`/events/${others.id}`, { as: 'author', json: { title: 'no' } }),
      403,
      'rest_forbidden',
    );
    expectRestError(await srv().post(`/events/${others.id}`, { json: { title: 'no' } }), 401, 'rest_forbidden');
    assert.equal((await srv().post(`/events/${byAuthor.id}`, { as: 'editor', json: { title: 'any' } })).status, 200);
  });

  it('a contributor asking to publish gets pending; an omitted status keeps the current one', async () => {
    const contributor = await srv().user('contributor');
    const draft = await makeEvent(srv(), { status: 'draft' }, contributor);
    const res = await srv().post(`/events/${draft.id}`, { as: contributor, json: { status: 'publish' } });
    assert.equal(res.body.status, 'pending');
    const kept = await srv().post(`/events/${draft.id}`, { as: contributor, json: { title: 'still pending' } });
    assert.equal(kept.body.status, 'pending');
  });

  it('publishing a floating draft stamps the publication date', async () => {
    const draft = await makeEvent(srv(), { status: 'draft' });
    assert.equal(draft.date_utc, '0000-00-00 00:00:00');
    const res = await srv().post(`/events/${draft.id}`, { as: 'editor', json: { status: 'publish' } });
    assert.equal(res.body.status, 'publish');
    assert.notEqual(res.body.date_utc, '0000-00-00 00:00:00');
  });

  it('post_password is set and cleared by an update', async () => {
    const e = await makeEvent(srv());
    await srv().post(`/events/${e.id}`, { as: 'editor', json: { post_password: 'pw' } });
    expectRestError(await srv().get(`/events/${e.id}`), 403, 'event-password-protected');
    await srv().post(`/events/${e.id}`, { as: 'editor', json: { post_password: '' } });
    assert.equal((await srv().get(`/events/${e.id}`)).status, 200);
  });

  it('an empty password parameter is rest_invalid_param; any other is ignored on update', async () => {
    const e = await makeEvent(srv(), { post_password: 'pw' });
    expectRestError(
      await srv().post(`/events/${e.id}`, { as: 'editor', json: { password: '' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): password',
    );
    assert.equal(
      (await srv().post(`/events/${e.id}`, { as: 'editor', json: { password: 'wrong', title: 'ok' } })).status,
      200,
    );
  });

  it('a rejected update leaves the event and the database unchanged', async () => {
    const e = await makeEvent(srv(), { venue: { venue: 'Stays' } });
    const before = await tableCounts(srv());
    const res = await srv().post(`/events/${e.id}`, {
      as: 'editor',
      json: {
        title: 'changed',
        categories: 'Never Created',
        venue: { venue: 'Never' },
        organizer: [{ organizer: '' }],
      },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await tableCounts(srv()), before);
    const row = await srv().db.selectFrom('posts').select('title').where('id', '=', e.id).executeTakeFirstOrThrow();
    assert.equal(row.title, 'An event');
  });
});

forEachBackend('POST|PUT|PATCH /events/by-slug/{slug}', (srv) => {
  it('the path slug names the event and a body slug renames it', async () => {
    const e = await makeEvent(srv(), { title: 'Slug Target' });
    const res = await srv().request('PATCH', '/events/by-slug/slug-target', {
      as: 'editor',
      json: { slug: 'renamed-target', title: 'T' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, e.id);
    assert.equal(res.body.slug, 'renamed-target');
    const same = await srv().request('PUT', '/events/by-slug/renamed-target', {
      as: 'editor',
      json: { title: 'Again' },
    });
    assert.equal(same.body.slug, 'renamed-target');
  });

  it('an unknown slug is 404 rest-event-not-found with ID 0', async () => {
    expectRestError(
      await srv().post('/events/by-slug/no-such-event', { as: 'editor', json: { title: 'x' } }),
      404,
      'rest-event-not-found',
      'Event with ID 0 does not exist.',
    );
  });

  it('the per-event checks of the ID routes apply once the slug is resolved', async () => {
    const e = await makeEvent(srv(), { title: 'Editors Only' }, 'editor');
    expectRestError(
      await srv().post(`/events/by-slug/${e.slug}`, { as: 'contributor', json: { title: 'x' } }),
      403,
      'rest_forbidden',
    );
    expectRestError(await srv().post(`/events/by-slug/${e.slug}`, { json: { title: 'x' } }), 401, 'rest_forbidden');
  });
});

forEachBackend('DELETE /events/{id}', (srv) => {
  it('moves the event to the trash and answers with it; a second DELETE is 410', async () => {
    const e = await makeEvent(srv(), { title: 'Jazz Night', venue: { venue: 'Kept' }, categories: 'Kept' });
    const res = await srv().request('DELETE', `/events/${e.id}`, { as: 'editor', query: { force: 'true' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'trash');
    assert.equal(res.body.slug, 'jazz-night__trashed');
    assert.equal(res.body.url, `${srv().config.siteUrl}/event/jazz-night__trashed/`);
    assert.equal(res.body.venue.venue, 'Kept');
    assert.equal(res.body.categories.length, 1);
    expectRestError(
      await srv().request('DELETE', `/events/${e.id}`, { as: 'editor' }),
      410,
      'event-is-in-trash',
      'The event is already trashed',
    );
    expectRestError(
      await srv().get(`/events/${e.id}`, { as: 'administrator' }),
      403,
      'event-no-longer-available',
      'This event is no longer available',
    );
    const row = await srv()
      .db.selectFrom('posts')
      .select(['trashed_slug', 'trashed_status'])
      .where('id', '=', e.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { trashed_slug: 'jazz-night', trashed_status: 'publish' });
  });

  it('trashing frees the slug; an update with a status restores the event and its slug made unique', async () => {
    const e = await makeEvent(srv(), { title: 'Restore Me' });
    await srv().request('DELETE', `/events/${e.id}`, { as: 'editor' });
    const taker = await makeEvent(srv(), { title: 'Restore Me' });
    assert.equal(taker.slug, 'restore-me');
    const stays = await srv().post(`/events/${e.id}`, { as: 'editor', json: { title: 'Restore Me' } });
    assert.equal(stays.body.status, 'trash');
    const res = await srv().post(`/events/${e.id}`, { as: 'editor', json: { status: 'publish' } });
    assert.equal(res.body.status, 'publish');
    assert.equal(res.body.slug, 'restore-me-2');
  });

  it('unknown IDs are 404, other record types 400, an empty password 400', async () => {
    expectRestError(await srv().request('DELETE', '/events/999999', { as: 'editor' }), 404, 'rest-event-not-found');
    const e = await makeEvent(srv(), { venue: { venue: 'Not an event' } });
    expectRestError(
      await srv().request('DELETE', `/events/${e.venue.id}`, { as: 'editor' }),
      400,
      'rest-invalid-event-id',
    );
    expectRestError(
      await srv().request('DELETE', `/events/${e.id}`, { as: 'editor', query: { password: '' } }),
      400,
      'rest_invalid_param',
    );
  });

  it('roles: contributors trash their own drafts only; anonymous is 401', async () => {
    const contributor = await srv().user('contributor');
    const draft = await makeEvent(srv(), { status: 'draft' }, contributor);
    assert.equal((await srv().request('DELETE', `/events/${draft.id}`, { as: contributor })).status, 200);
    const published = await makeEvent(srv(), { author: contributor.id }, 'editor');
    expectRestError(
      await srv().request('DELETE', `/events/${published.id}`, { as: contributor }),
      403,
      'rest_forbidden',
    );
    expectRestError(await srv().request('DELETE', `/events/${published.id}`), 401, 'rest_forbidden');
    expectRestError(await srv().request('DELETE', `/events/${published.id}`, { as: 'author' }), 403, 'rest_forbidden');
  });

  it('the trash purge removes trashed events for good with their links', async () => {
    const { purgeTrash } = await import('../../src/resources/post-like/trash.js');
    const e = await makeEvent(srv(), { venue: { venue: 'Purge Venue' }, categories: 'Purge' });
    await srv().request('DELETE', `/events/${e.id}`, { as: 'editor' });
    await srv()
      .db.transaction()
      .execute((trx) => purgeTrash(trx, 0));
    assert.equal(await srv().db.selectFrom('posts').select('id').where('id', '=', e.id).executeTakeFirst(), undefined);
    assert.equal(
      (await srv().db.selectFrom('event_venues').selectAll().where('event_id', '=', e.id).execute()).length,
      0,
    );
    assert.equal(
      (await srv().db.selectFrom('event_terms').selectAll().where('event_id', '=', e.id).execute()).length,
      0,
    );
  });
});

forEachBackend('DELETE /events/by-slug/{slug}', (srv) => {
  it('trashes by slug; the old slug is then unknown (400) and the trashed one answers 410', async () => {
    const e = await makeEvent(srv(), { title: 'By Slug' });
    const res = await srv().request('DELETE', '/events/by-slug/by-slug', { as: 'editor' });
    assert.equal(res.body.id, e.id);
    expectRestError(
      await srv().request('DELETE', '/events/by-slug/by-slug', { as: 'editor' }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): slug',
    );
    expectRestError(
      await srv().request('DELETE', '/events/by-slug/by-slug__trashed', { as: 'editor' }),
      410,
      'event-is-in-trash',
    );
  });

  it('checks the per-event delete right after resolving the slug', async () => {
    const e = await makeEvent(srv(), { title: 'Guarded' }, 'editor');
    expectRestError(
      await srv().request('DELETE', `/events/by-slug/${e.slug}`, { as: 'contributor' }),
      403,
      'rest_forbidden',
    );
  });
});
