import { it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/server.js';
import { daysFromNow } from './helpers.js';

forEachBackend('POST /events/{id} publishing linked records (VO-28)', (srv) => {
  it('saving a published event publishes the draft venue and organizer already linked to it', async () => {
    const venue = await srv().post('/venues', { as: 'contributor', json: { venue: 'Back Room' } });
    const organizer = await srv().post('/organizers', { as: 'contributor', json: { organizer: 'Night Owls' } });
    assert.equal(venue.body.status, 'draft');
    assert.equal(organizer.body.status, 'draft');

    const created = await srv().post('/events', {
      as: 'administrator',
      json: {
        title: 'Late Show',
        start_date: daysFromNow(3),
        end_date: daysFromNow(3, '23:00:00'),
        venue: venue.body.id,
        organizer: [organizer.body.id],
      },
    });
    assert.equal(created.status, 201);
    // Linked in the same request: not yet linked when the event was saved, so still drafts.
    const statusOf = async (id: number) =>
      (await srv().db.selectFrom('posts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    assert.equal(await statusOf(venue.body.id), 'draft');
    assert.equal(await statusOf(organizer.body.id), 'draft');

    const updated = await srv().post(`/events/${created.body.id}`, {
      as: 'administrator',
      json: { title: 'Late Show (encore)' },
    });
    assert.equal(updated.status, 200);
    assert.equal(await statusOf(venue.body.id), 'publish');
    assert.equal(await statusOf(organizer.body.id), 'publish');
    assert.equal(updated.body.venue.id, venue.body.id);
    assert.equal(updated.body.venue.status, 'publish');
  });

  it('a draft event save publishes nothing, and a contributor cannot publish linked records', async () => {
    const venue = await srv().post('/venues', { as: 'contributor', json: { venue: 'Cellar' } });
    const draft = await srv().post('/events', {
      as: 'administrator',
      json: {
        title: 'Rehearsal',
        status: 'draft',
        start_date: daysFromNow(4),
        end_date: daysFromNow(4, '12:00:00'),
        venue: venue.body.id,
      },
    });
    await srv().post(`/events/${draft.body.id}`, { as: 'administrator', json: { title: 'Rehearsal 2' } });
    const row = await srv()
      .db.selectFrom('posts')
      .select('status')
      .where('id', '=', venue.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'draft');
  });
});
