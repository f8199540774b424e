import { it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { daysFromNow, makeEvent } from './helpers.js';

forEachBackend('GET /events/{id}', (srv) => {
  it('a published event is readable by anyone, with json_ld last', async () => {
    const e = await makeEvent(srv(), {
      title: 'Rock & "Roll"',
      timezone: 'America/New_York',
      start_date: '2027-07-14 19:30:00',
      end_date: '2027-07-14 22:00:00',
      excerpt: "It's live",
      cost: '$25',
      venue: { venue: 'Blue Room', city: 'New York', geo_lat: 40.7, geo_lng: -74 },
      organizer: [{ organizer: 'First' }, { organizer: 'Second' }],
    });
    const res = await srv().get(`/events/${e.id}`);
    assert.equal(res.status, 200);
    const keys = Object.keys(res.body);
    assert.equal(keys[keys.length - 1], 'json_ld');
    const ld = res.body.json_ld;
    assert.deepEqual(Object.keys(ld), [
      '@context',
      '@type',
      'name',
      'description',
      'url',
      'eventAttendanceMode',
      'eventStatus',
      'startDate',
      'endDate',
      'location',
      'organizer',
      'offers',
      'performer',
    ]);
    assert.equal(ld['@context'], 'http://schema.org');
    assert.equal(ld.name, 'Rock &amp; &quot;Roll&quot;');
    assert.equal(ld.description, "&lt;p&gt;It\\'s live&lt;/p&gt;\\n", "with wpautop's trailing newline (E9)");
    assert.equal(ld.startDate, '2027-07-14T19:30:00-04:00');
    assert.equal(ld.endDate, '2027-07-14T22:00:00-04:00');
    assert.equal(ld.location['@type'], 'Place');
    assert.deepEqual(ld.location.geo, { '@type': 'GeoCoordinates', latitude: 40.7, longitude: -74 });
    assert.equal(ld.organizer.name, 'First');
    assert.deepEqual(ld.offers, {
      '@type': 'Offer',
      price: '25',
      priceCurrency: 'USD',
      url: e.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${e.date.slice(0, 10)}T00:00:00+00:00`,
    });
    assert.equal(ld.performer, 'Organization');
    assert.ok(res.body.venue.json_ld, 'the embedded venue carries its own json_ld');
    assert.ok(res.body.organizer[0].json_ld);
    const { json_ld: _ld, ...rest } = res.body;
    const { venue: _v1, organizer: _o1, ...restCore } = rest;
    const { venue: _v2, organizer: _o2, ...created } = e;
    assert.deepEqual(restCore, created);
  });

  it('an unknown ID is 404, a non-event 400, a non-numeric ID no route', async () => {
    expectRestError(
      await srv().get('/events/999999'),
      404,
      'rest-event-not-found',
      'Event with ID 999999 does not exist.',
    );
    expectRestError(await srv().get('/events/0'), 404, 'rest-event-not-found', 'Event with ID 0 does not exist.');
    const e = await makeEvent(srv(), { venue: { venue: 'A Venue' }, organizer: [{ organizer: 'An Organizer' }] });
    expectRestError(
      await srv().get(`/events/${e.venue.id}`),
      400,
      'rest-invalid-event-id',
      'The specified ID is not a valid event.',
    );
    expectRestError(await srv().get(`/events/${e.organizer[0].id}`), 400, 'rest-invalid-event-id');
    expectRestError(await srv().get('/events/abc'), 404, 'rest_no_route');
  });

  it('visibility by status and role follows the reference table', async () => {
    const owner = await srv().user('contributor', 'owner');
    const otherAuthor = await srv().user('author', 'reader-author');
    const events: Record<string, any> = {
      draft: await makeEvent(srv(), { status: 'draft' }, owner),
      pending: await makeEvent(srv(), { status: 'pending' }, owner),
      private: await makeEvent(srv(), { status: 'private', author: owner.id }, 'editor'),
      future: await makeEvent(srv(), { date: daysFromNow(30), author: owner.id }, 'editor'),
    };
    assert.equal(events.future.status, 'future');
    for (const [status, e] of Object.entries(events)) {
      expectRestError(
        await srv().get(`/events/${e.id}`),
        403,
        'event-not-accessible',
        'The requested event is not accessible',
      );
      expectRestError(await srv().get(`/events/${e.id}`, { as: 'subscriber' }), 403, 'event-not-accessible');
      expectRestError(await srv().get(`/events/${e.id}`, { as: otherAuthor }), 403, 'event-not-accessible');
      assert.equal((await srv().get(`/events/${e.id}`, { as: owner })).status, 200, `owner reads ${status}`);
      assert.equal((await srv().get(`/events/${e.id}`, { as: 'editor' })).status, 200, `editor reads ${status}`);
    }
  });

  it('json_ld is left out for a private event read by its contributor author, kept for editors', async () => {
    const owner = await srv().user('contributor', 'private-owner');
    const e = await makeEvent(srv(), { status: 'private', author: owner.id }, 'editor');
    assert.equal('json_ld' in (await srv().get(`/events/${e.id}`, { as: owner })).body, false);
    assert.equal('json_ld' in (await srv().get(`/events/${e.id}`, { as: 'editor' })).body, true);
    const draft = await makeEvent(srv(), { status: 'draft' }, owner);
    assert.equal('json_ld' in (await srv().get(`/events/${draft.id}`, { as: owner })).body, true);
  });

  it('a password-protected event needs the right password (or context=edit from an editor), and never shows json_ld', async () => {
    const e = await makeEvent(srv(), { post_password: 'Open Sesame', description: 'secret' });
    expectRestError(
      await srv().get(`/events/${e.id}`),
      403,
      'event-password-protected',
      'The requested event is not accessible without a password',
    );
    expectRestError(
      await srv().get(`/events/${e.id}`, { query: { password: 'open sesame' } }),
      403,
      'event-password-protected',
    );
    expectRestError(await srv().get(`/events/${e.id}`, { as: 'administrator' }), 403, 'event-password-protected');
    expectRestError(
      await srv().get(`/events/${e.id}`, { query: { password: '' } }),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): password',
    );
    const right = await srv().get(`/events/${e.id}`, { query: { password: 'Open Sesame' } });
    assert.equal(right.status, 200);
    assert.equal(right.body.description, '<p>secret</p>');
    assert.equal('json_ld' in right.body, false);
    const edit = await srv().get(`/events/${e.id}`, { as: 'editor', query: { context: 'edit' } });
    assert.equal(edit.status, 200);
    expectRestError(
      await srv().get(`/events/${e.id}`, { as: 'contributor', query: { context: 'edit' } }),
      403,
      'event-password-protected',
    );
  });

  it('a venue the caller may not read is not embedded', async () => {
    const venue = await srv().post('/venues', { as: 'editor', json: { venue: 'Draft Venue', status: 'draft' } });
    assert.equal(venue.status, 201, venue.text);
    const e = await makeEvent(srv(), { venue: venue.body.id });
    assert.deepEqual((await srv().get(`/events/${e.id}`)).body.venue, []);
    assert.equal((await srv().get(`/events/${e.id}`, { as: 'editor' })).body.venue.id, venue.body.id);
  });
});

forEachBackend('GET /events/by-slug/{slug}', (srv) => {
  it('reads an event by its slug, in any letter case, with json_ld', async () => {
    const e = await makeEvent(srv(), { title: 'Jazz Night' });
    const res = await srv().get('/events/by-slug/Jazz-Night');
    assert.equal(res.status, 200);
    assert.equal(res.body.id, e.id);
    assert.ok(res.body.json_ld);
  });

  it('a slug that is not an event slug is 400 rest_invalid_param', async () => {
    const e = await makeEvent(srv(), { venue: { venue: 'Only A Venue' } });
    expectRestError(
      await srv().get('/events/by-slug/nothing-here'),
      400,
      'rest_invalid_param',
      'Invalid parameter(s): slug',
    );
    expectRestError(await srv().get(`/events/by-slug/${e.venue.slug}`), 400, 'rest_invalid_param');
  });

  it('drafts answer 403 to others, trashed events 403 event-no-longer-available, passwords as on the ID route', async () => {
    const draft = await makeEvent(srv(), { title: 'Slug Draft', status: 'draft' });
    expectRestError(await srv().get(`/events/by-slug/${draft.slug}`), 403, 'event-not-accessible');
    const trashed = await makeEvent(srv(), { title: 'Slug Trashed' });
    await srv().request('DELETE', `/events/${trashed.id}`, { as: 'editor' });
    expectRestError(await srv().get('/events/by-slug/slug-trashed__trashed'), 403, 'event-no-longer-available');
    const locked = await makeEvent(srv(), { title: 'Slug Locked', post_password: 'pw' });
    expectRestError(await srv().get(`/events/by-slug/${locked.slug}`), 403, 'event-password-protected');
    assert.equal((await srv().get(`/events/by-slug/${locked.slug}`, { query: { password: 'pw' } })).status, 200);
  });
});
