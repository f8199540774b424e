import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';

const NS = '/calendar/events/v1';
const WHEN = { start_date: '2030-06-01 19:00:00', end_date: '2030-06-01 22:00:00' };

/** Organizer `email` is any string, as in TEC (decisions.md X 13, revised; venues-organizers.md 4.2). */
forEachBackend('organizer email is free text (X 13)', (srv) => {
  const storedEmail = async (id: number) =>
    (await srv().db.selectFrom('organizers').select('email').where('post_id', '=', id).executeTakeFirstOrThrow()).email;

  describe('POST /organizers', () => {
    it('a free-text email is stored and echoed as given', async () => {
      for (const email of ['info at example dot org', 'see website', '42 email', 'a@b@c', 'foo']) {
        const res = await srv().post('/organizers', { as: 'editor', json: { organizer: `Free text ${email}`, email } });
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.email, email);
        assert.equal(await storedEmail(res.body.id), email);
        const read = await srv().get(`/organizers/${res.body.id}`, { as: 'editor' });
        assert.equal(read.body.email, email);
        assert.equal(read.body.json_ld.email, email);
      }
    });

    it('a free-text email is text-normalised like the other attributes', async () => {
      const res = await srv().post('/organizers', {
        as: 'editor',
        json: { organizer: 'Normalised mail', email: '  <b>info</b>  at\texample\n dot org ' },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.email, 'info at example dot org');
    });

    it('a non-string email is still rejected, and nothing is written', async () => {
      const before = await srv()
        .db.selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('type', '=', 'organizer')
        .executeTakeFirstOrThrow();
      const res = await srv().post('/organizers', { as: 'editor', json: { organizer: 'Numeric mail', email: 12345 } });
      expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): email');
      const after = await srv()
        .db.selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('type', '=', 'organizer')
        .executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n));
    });
  });

  describe('POST /organizers/{id}', () => {
    it('an update to a free-text email is stored and echoed', async () => {
      const created = await srv().post('/organizers', {
        as: 'editor',
        json: { organizer: 'Update mail', email: 'hello@example.org' },
      });
      assert.equal(created.status, 201, created.text);
      const res = await srv().post(`/organizers/${created.body.id}`, {
        as: 'editor',
        json: { email: 'ask at the desk' },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.email, 'ask at the desk');
      assert.equal(await storedEmail(created.body.id), 'ask at the desk');
    });

    it('email: "" clears it', async () => {
      const created = await srv().post('/organizers', {
        as: 'editor',
        json: { organizer: 'Clear mail', email: 'see website' },
      });
      assert.equal(created.status, 201, created.text);
      const res = await srv().post(`/organizers/${created.body.id}`, { as: 'editor', json: { email: '' } });
      assert.equal(res.status, 200, res.text);
      // Empty attributes are left out of an organizer (venues-organizers.md 1.2).
      assert.equal('email' in res.body, false);
      const read = await srv().get(`/organizers/${created.body.id}`, { as: 'editor' });
      assert.equal('email' in read.body, false);
      assert.equal(read.body.json_ld.email, '');
      assert.equal(await storedEmail(created.body.id), '');
    });
  });

  describe('events with inline organizers', () => {
    it('POST /events creates an inline organizer with a free-text email', async () => {
      const res = await srv().post('/events', {
        as: 'administrator',
        json: {
          title: 'Inline free-text mail',
          ...WHEN,
          organizer: [{ organizer: 'Inline mail org', email: 'info at example dot org' }],
        },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.organizer.length, 1);
      assert.equal(res.body.organizer[0].organizer, 'Inline mail org');
      assert.equal(res.body.organizer[0].email, 'info at example dot org');
      assert.equal(await storedEmail(res.body.organizer[0].id), 'info at example dot org');
    });

    it('POST /events/{id} links an inline organizer with a free-text email', async () => {
      const event = await srv().post('/events', {
        as: 'administrator',
        json: { title: 'Update inline mail', ...WHEN },
      });
      assert.equal(event.status, 201, event.text);
      const res = await srv().post(`/events/${event.body.id}`, {
        as: 'administrator',
        json: { organizer: [{ organizer: 'Updated inline org', email: `${event.body.id} email` }] },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.organizer.length, 1);
      assert.equal(res.body.organizer[0].email, `${event.body.id} email`);
    });
  });

  describe('discovery and /doc', () => {
    it('type email as a plain string without a format', async () => {
      const index = await srv().get('/');
      for (const endpoint of [
        index.body.routes[`${NS}/organizers`].endpoints[1],
        index.body.routes[`${NS}/organizers/(?P<id>\\d+)`].endpoints[2],
      ]) {
        assert.equal(endpoint.args.email.type, 'string');
        assert.equal('format' in endpoint.args.email, false);
        assert.equal('pattern' in endpoint.args.email, false);
      }
      const doc = await srv().get('/doc');
      const body = doc.body.paths['/organizers'].post.requestBody.content['application/json'].schema.properties.email;
      assert.deepEqual(body.type, 'string');
      assert.equal('format' in body, false);
      assert.equal('pattern' in body, false);
    });
  });
});
