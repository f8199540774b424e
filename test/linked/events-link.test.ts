import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { countRecords, create } from './helpers.js';

const WHEN = { start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 22:00:00' };

forEachBackend('venues and organizers inside events (venues-organizers.md 1.10, 7)', (srv) => {
  const createEvent = async (
    fields: Record<string, unknown>,
    as: 'administrator' | 'author' | 'contributor' = 'administrator',
  ) => {
    const res = await srv().post('/events', { as, json: { title: 'Linked event', ...WHEN, ...fields } });
    assert.equal(res.status, 201, res.text);
    return res.body as Record<string, any>;
  };

  describe('embedded shape', () => {
    it('one venue is an object, several a list in link order, none []; organizers are always a list', async () => {
      const v1 = await create(srv(), 'venue', { venue: 'Shape V1' });
      const v2 = await create(srv(), 'venue', { venue: 'Shape V2' });
      const o1 = await create(srv(), 'organizer', { organizer: 'Shape O1' });
      const one = await createEvent({ venue: v1.id, organizer: o1.id });
      assert.equal(one.venue.id, v1.id);
      assert.equal(Array.isArray(one.venue), false);
      assert.deepEqual(
        one.organizer.map((o: any) => o.id),
        [o1.id],
      );
      const several = await createEvent({ venue: `${v2.id},${v1.id}` });
      assert.deepEqual(
        several.venue.map((v: any) => v.id),
        [v2.id, v1.id],
      );
      assert.deepEqual(several.organizer, []);
      const none = await createEvent({});
      assert.deepEqual(none.venue, []);
      assert.deepEqual(none.organizer, []);
    });

    it('embedded records equal the records themselves; json_ld only in single-event reads', async () => {
      const v = await create(srv(), 'venue', { venue: 'Embedded Equal', city: 'Lyon', geo_lat: 45.76, geo_lng: 4.84 });
      const o = await create(srv(), 'organizer', { organizer: 'Embedded Org', email: 'e@x.org' });
      const event = await createEvent({ venue: v.id, organizer: [o.id] });
      assert.equal('json_ld' in event.venue, false, 'write responses carry no json_ld');
      const single = await srv().get(`/events/${event.id}`);
      assert.deepEqual(single.body.venue, (await srv().get(`/venues/${v.id}`)).body);
      assert.deepEqual(single.body.organizer[0], (await srv().get(`/organizers/${o.id}`)).body);
      const list = await srv().get('/events', {
        query: { venue: v.id, start_date: '2030-01-01', end_date: '2030-12-31' },
      });
      assert.equal(list.status, 200, list.text);
      const listed = list.body.events.find((e: any) => e.id === event.id);
      assert.equal(listed.venue.id, v.id);
      assert.equal('json_ld' in listed.venue, false);
    });

    it('linked records the caller may not read are left out (VO-29)', async () => {
      const draft = await create(srv(), 'venue', { venue: 'Invisible draft venue', status: 'draft' });
      const pub = await create(srv(), 'organizer', { organizer: 'Visible org' });
      const privOrg = await create(srv(), 'organizer', { organizer: 'Private org', status: 'private' });
      const event = await createEvent({ venue: draft.id, organizer: [privOrg.id, pub.id] });
      const anon = await srv().get(`/events/${event.id}`);
      assert.deepEqual(anon.body.venue, []);
      assert.deepEqual(
        anon.body.organizer.map((o: any) => o.id),
        [pub.id],
      );
      const editor = await srv().get(`/events/${event.id}`, { as: 'editor' });
      assert.equal(editor.body.venue.id, draft.id);
      assert.deepEqual(
        editor.body.organizer.map((o: any) => o.id),
        [privOrg.id, pub.id],
      );
    });
  });

  describe('inline records on event writes (7.2, VO-11, VO-18)', () => {
    it('data objects create records, or reuse a same-named one the caller may edit', async () => {
      const existing = await create(srv(), 'organizer', { organizer: 'Reused Inline Org', phone: '1' });
      const before = { venues: await countRecords(srv(), 'venue'), organizers: await countRecords(srv(), 'organizer') };
      const event = await createEvent({
        venue: { venue: 'Inline Created Hall', city: 'Oslo', show_map: false },
        organizer: [{ organizer: 'reused inline org', email: 'r@x.org' }, { organizer: 'Inline New Org' }],
      });
      assert.equal(event.venue.venue, 'Inline Created Hall');
      assert.equal(event.venue.city, 'Oslo');
      assert.equal(event.venue.show_map, false);
      assert.equal(event.organizer[0].id, existing.id);
      assert.equal(event.organizer[0].email, 'r@x.org');
      assert.equal(event.organizer[0].phone, '1');
      assert.equal(event.organizer[1].organizer, 'Inline New Org');
      assert.equal(await countRecords(srv(), 'venue'), before.venues + 1);
      assert.equal(await countRecords(srv(), 'organizer'), before.organizers + 1);
    });

    it('inline data with a bad value is 400 rest_invalid_param and nothing is written', async () => {
      const before = { venues: await countRecords(srv(), 'venue'), events: await countRecords(srv(), 'event') };
      for (const venue of [{ venue: '' }, { venue: 'Bad web', website: 'nope' }, { city: 'No name' }, 999999, 'foo']) {
        const res = await srv().post('/events', { as: 'administrator', json: { title: 'Rejected', ...WHEN, venue } });
        expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): venue');
      }
      const org = await srv().post('/events', {
        as: 'administrator',
        json: { title: 'Rejected', ...WHEN, organizer: [{ organizer: 'Bad mail', email: 12345 }] },
      });
      expectRestError(org, 400, 'rest_invalid_param', 'Invalid parameter(s): organizer');
      assert.equal(await countRecords(srv(), 'venue'), before.venues);
      assert.equal(await countRecords(srv(), 'event'), before.events);
    });

    it('a failure after an inline record was created rolls the whole write back', async () => {
      const editor = await srv().user('editor');
      const before = {
        venues: await countRecords(srv(), 'venue'),
        organizers: await countRecords(srv(), 'organizer'),
        events: await countRecords(srv(), 'event'),
      };
      const res = await srv().post('/events', {
        as: 'author',
        json: {
          title: 'Rolled back',
          ...WHEN,
          venue: { venue: 'Rolled Back Hall' },
          organizer: [{ organizer: 'Not mine', author: editor.id }],
        },
      });
      expectRestError(res, 403, 'rest_forbidden');
      assert.equal(await countRecords(srv(), 'venue'), before.venues);
      assert.equal(await countRecords(srv(), 'organizer'), before.organizers);
      assert.equal(await countRecords(srv(), 'event'), before.events);
    });

    it('inline records of a contributor are drafts owned by the contributor', async () => {
      const contributor = await srv().user('contributor', 'inline-event-contrib');
      const res = await srv().post('/events', {
        as: contributor,
        json: { title: 'Contrib event', ...WHEN, organizer: [{ organizer: 'Contrib Inline Org' }] },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.organizer.length, 1, 'the contributor may read its own draft, so it is embedded');
      const id = res.body.organizer[0].id;
      const org = await srv().get(`/organizers/${id}`, { as: 'editor' });
      assert.equal(org.body.status, 'draft');
      assert.equal(org.body.author, String(contributor.id));
    });
  });

  describe('trashing a linked record (VO-15)', () => {
    it('the event loses exactly that link and still reads cleanly', async () => {
      const v = await create(srv(), 'venue', { venue: 'Trashed Linked Venue' });
      const o1 = await create(srv(), 'organizer', { organizer: 'Trashed Linked Org' });
      const o2 = await create(srv(), 'organizer', { organizer: 'Kept Linked Org' });
      const event = await createEvent({ venue: v.id, organizer: [o1.id, o2.id] });
      assert.equal((await srv().request('DELETE', `/venues/${v.id}`, { as: 'administrator' })).status, 200);
      assert.equal((await srv().request('DELETE', `/organizers/${o1.id}`, { as: 'administrator' })).status, 200);
      const res = await srv().get(`/events/${event.id}`, { as: 'administrator' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.venue, []);
      assert.deepEqual(
        res.body.organizer.map((o: any) => o.id),
        [o2.id],
      );
      const filtered = await srv().get('/organizers', { query: { event: event.id } });
      assert.deepEqual(
        filtered.body.organizers.map((o: any) => o.id),
        [o2.id],
      );
    });
  });

  describe('event filters by venue and organizer', () => {
    it('unknown IDs and IDs of the other kind are 400', async () => {
      const v = await create(srv(), 'venue', { venue: 'Filter kind venue' });
      expectRestError(
        await srv().get('/events', { query: { venue: 999999 } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): venue',
      );
      expectRestError(
        await srv().get('/events', { query: { organizer: v.id } }),
        400,
        'rest_invalid_param',
        'Invalid parameter(s): organizer',
      );
    });
  });
});
