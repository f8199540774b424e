import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Role } from '../../src/auth/roles.js';
import { operatorContext } from '../../src/import/call.js';
import type { RequestContext } from '../../src/http/route.js';
import { ParamReason, RestError } from '../../src/http/errors.js';
import {
  embeddedLinked,
  loadLinkedForEvents,
  organizerKind,
  publishLinkedOfEvent,
  resolveLinkedInput,
  setEventLinks,
  validateLinkedFilter,
  validateLinkedInput,
  venueKind,
} from '../../src/resources/linked/index.js';
import { nowIn } from '../../src/resources/post-like/dates.js';
import { forEachBackend, type TestServer } from '../support/server.js';
import { countRecords, create, insertEvent, linkColumn, linkTable } from './helpers.js';

/** A request context as the events routes hand it to the contract functions. */
async function contextFor(srv: TestServer, role: Role | null, login?: string): Promise<RequestContext> {
  const user = role ? await srv.user(role, login) : null;
  return operatorContext(srv.built.app, user && role ? { id: user.id, login: user.login, role } : null);
}

forEachBackend('events contract of venues and organizers', (srv) => {
  describe('validateLinkedInput (7.2 stage 1, E31)', () => {
    it('accepts empty values, IDs in every form, {id} objects and valid data objects', async () => {
      const ctx = await contextFor(srv(), 'author');
      const a = await create(srv(), 'venue', { venue: 'Valid A' });
      const b = await create(srv(), 'venue', { venue: 'Valid B', status: 'draft' });
      const accepted: unknown[] = [
        null,
        '',
        0,
        '0',
        false,
        [],
        [0, ''],
        a.id,
        String(a.id),
        `${a.id}, ${b.id}`,
        [a.id, String(b.id)],
        { id: a.id },
        { id: a.id, venue: 'ignored' },
        [{ id: b.id }],
        { venue: 'New Inline', city: 'Rome', show_map: false },
        [a.id, { venue: 'Another' }],
      ];
      for (const value of accepted)
        assert.equal(await validateLinkedInput(venueKind, value, ctx), true, JSON.stringify(value));
    });

    it('rejects unknown IDs, IDs of other types, bare words and data objects failing the create rules', async () => {
      const ctx = await contextFor(srv(), 'contributor');
      const org = await create(srv(), 'organizer', { organizer: 'Not a venue' });
      const event = await insertEvent(srv(), { startsInDays: 1 });
      const venue = await create(srv(), 'venue', { venue: 'Real venue' });
      // Each refusal says why (docs/api.md "Why a parameter was refused").
      const rejected: Array<[unknown, string]> = [
        [999999, 'unknown_venue'],
        [org.id, 'unknown_venue'],
        [event, 'unknown_venue'],
        [`${venue.id},${org.id}`, 'unknown_venue'],
        ['foo', 'not_an_id'],
        [[venue.id, 'foo'], 'not_an_id'],
        [9007199254740991, 'not_an_id'],
        [{ id: org.id }, 'unknown_venue'],
        [{ website: 'https://x.org' }, 'invalid_venue_data'],
        [{ venue: '' }, 'invalid_venue_data'],
        [{ venue: 'X', website: 'nope' }, 'invalid_venue_data'],
        [{ venue: 'X', zip: 12345 }, 'invalid_venue_data'],
        [{ venue: 'X', geo_lat: 100 }, 'invalid_venue_data'],
        [{ venue: 'X', image: 'https://x.org/a.png' }, 'invalid_venue_data'],
        [[{ venue: 'ok' }, { venue: 'X', status: 'trash' }], 'invalid_venue_data'],
      ];
      const codeOf = (outcome: unknown) => (outcome instanceof ParamReason ? outcome.code : outcome);
      for (const [value, code] of rejected)
        assert.equal(codeOf(await validateLinkedInput(venueKind, value, ctx)), code, JSON.stringify(value));
      // Any string is an e-mail, as in TEC (decisions.md X 13); only non-strings fail.
      assert.equal(
        codeOf(await validateLinkedInput(organizerKind, [{ organizer: 'Bad mail', email: 12345 }], ctx)),
        'invalid_organizer_data',
      );
      assert.equal(
        await validateLinkedInput(organizerKind, [{ organizer: 'Free-text mail', email: 'nope' }], ctx),
        true,
      );
      assert.equal(await validateLinkedInput(organizerKind, [{ organizer: 'Good mail', email: 'a@b.org' }], ctx), true);
    });
  });

  describe('resolveLinkedInput (7.2 stage 2)', () => {
    it('returns IDs in the given order without repeats; empty values are no links', async () => {
      const ctx = await contextFor(srv(), 'editor');
      const a = await create(srv(), 'organizer', { organizer: 'Order A' });
      const b = await create(srv(), 'organizer', { organizer: 'Order B' });
      await srv()
        .db.transaction()
        .execute(async (trx) => {
          assert.deepEqual(await resolveLinkedInput(trx, organizerKind, [b.id, { id: a.id }, b.id], ctx), [b.id, a.id]);
          assert.deepEqual(await resolveLinkedInput(trx, organizerKind, `${a.id},${b.id}`, ctx), [a.id, b.id]);
          assert.deepEqual(await resolveLinkedInput(trx, organizerKind, { id: a.id }, ctx), [a.id]);
          for (const empty of ['', 0, null, []])
            assert.deepEqual(await resolveLinkedInput(trx, organizerKind, empty, ctx), []);
        });
    });

    it('creates records from data objects with the caller as author and the scale-back status', async () => {
      const ctx = await contextFor(srv(), 'contributor', 'inline-contrib');
      const ids = await srv()
        .db.transaction()
        .execute((trx) =>
          resolveLinkedInput(
            trx,
            venueKind,
            [{ venue: 'Inline Hall', city: 'Oslo', show_map: false, status: 'publish' }, { venue: 'Inline Room' }],
            ctx,
          ),
        );
      assert.equal(ids.length, 2);
      const hall = await srv().get(`/venues/${ids[0]}`, { as: 'editor' });
      assert.equal(hall.body.venue, 'Inline Hall');
      assert.equal(hall.body.city, 'Oslo');
      assert.equal(hall.body.show_map, false);
      assert.equal(hall.body.show_map_link, true);
      assert.equal(hall.body.status, 'pending');
      assert.equal(hall.body.author, String(ctx.user!.id));
      const room = await srv().get(`/venues/${ids[1]}`, { as: 'editor' });
      assert.equal(room.body.status, 'draft');
    });

    it('reuses a same-named record the caller may edit, applying the given attributes (VO-11)', async () => {
      const ctx = await contextFor(srv(), 'administrator');
      const existing = await create(srv(), 'organizer', { organizer: 'Reusable Org', phone: '1' });
      const before = await countRecords(srv(), 'organizer');
      const ids = await srv()
        .db.transaction()
        .execute((trx) =>
          resolveLinkedInput(trx, organizerKind, [{ organizer: 'reusable org', email: 'x@y.org' }], ctx),
        );
      assert.deepEqual(ids, [existing.id]);
      assert.equal(await countRecords(srv(), 'organizer'), before);
      const res = await srv().get(`/organizers/${existing.id}`);
      assert.equal(res.body.phone, '1');
      assert.equal(res.body.email, 'x@y.org');
    });

    it('fails with invalid-linked-post-id for an ID of another type, and a rolled-back event write leaves no inline record', async () => {
      const ctx = await contextFor(srv(), 'administrator');
      const org = await create(srv(), 'organizer', { organizer: 'Wrong type' });
      const before = await countRecords(srv(), 'venue');
      await assert.rejects(
        srv()
          .db.transaction()
          .execute((trx) => resolveLinkedInput(trx, venueKind, [{ venue: 'Rolled back' }, { id: org.id }], ctx)),
        (err: unknown) => err instanceof RestError && err.code === 'invalid-linked-post-id' && err.status === 400,
      );
      assert.equal(await countRecords(srv(), 'venue'), before);
    });

    it('inline data naming another author needs edit_others_posts', async () => {
      const ctx = await contextFor(srv(), 'author', 'inline-author');
      const editor = await srv().user('editor');
      await assert.rejects(
        srv()
          .db.transaction()
          .execute((trx) => resolveLinkedInput(trx, venueKind, { venue: 'Given away', author: editor.id }, ctx)),
        (err: unknown) => err instanceof RestError && err.code === 'rest_forbidden' && err.status === 403,
      );
    });
  });

  describe('setEventLinks and validateLinkedFilter', () => {
    it('replaces the links of an event in order; an empty list unlinks all', async () => {
      const a = await create(srv(), 'venue', { venue: 'Link A' });
      const b = await create(srv(), 'venue', { venue: 'Link B' });
      const event = await insertEvent(srv(), { startsInDays: 1, venues: [a.id] });
      const read = async () =>
        (
          await srv()
            .db.selectFrom(linkTable('venue'))
            .selectAll()
            .where('event_id', '=', event)
            .orderBy('position')
            .execute()
        ).map((r: any) => r[linkColumn('venue')]);
      await srv()
        .db.transaction()
        .execute((trx) => setEventLinks(trx, venueKind, event, [b.id, a.id, b.id]));
      assert.deepEqual(await read(), [b.id, a.id]);
      await srv()
        .db.transaction()
        .execute((trx) => setEventLinks(trx, venueKind, event, []));
      assert.deepEqual(await read(), []);
    });

    it('the events list filters need existing IDs of the kind', async () => {
      const ctx = await contextFor(srv(), null);
      const v = await create(srv(), 'venue', { venue: 'Filter V', status: 'draft' });
      const o = await create(srv(), 'organizer', { organizer: 'Filter O' });
      assert.equal(await validateLinkedFilter(venueKind, String(v.id), ctx), true);
      assert.equal(await validateLinkedFilter(venueKind, [v.id], ctx), true);
      assert.equal(await validateLinkedFilter(organizerKind, `${o.id}`, ctx), true);
      const rejected: Array<[unknown, string]> = [
        [String(o.id), 'unknown_venue'],
        [`${v.id},${o.id}`, 'unknown_venue'],
        ['999999', 'unknown_venue'],
        ['foo', 'not_an_id'],
        ['', 'not_an_id'],
        [[], 'not_an_id'],
      ];
      for (const [bad, code] of rejected) {
        const outcome = await validateLinkedFilter(venueKind, bad, ctx);
        assert.equal(outcome instanceof ParamReason ? outcome.code : outcome, code, JSON.stringify(bad));
      }
    });
  });

  describe('loadLinkedForEvents (1.10, events.md 1.7/1.8)', () => {
    it('embeds full records in link order per event, json_ld only when asked', async () => {
      const anon = await contextFor(srv(), null);
      const a = await create(srv(), 'organizer', { organizer: 'Embed A', email: 'a@x.org' });
      const b = await create(srv(), 'organizer', { organizer: 'Embed B' });
      const v = await create(srv(), 'venue', { venue: 'Embed V', city: 'Lima' });
      const e1 = await insertEvent(srv(), { startsInDays: 1, organizers: [b.id, a.id], venues: [v.id] });
      const e2 = await insertEvent(srv(), { startsInDays: 1 });
      const orgs = await loadLinkedForEvents(srv().db, organizerKind, [e1, e2], anon, { jsonLd: false });
      assert.deepEqual(
        orgs.get(e1)!.map((o) => o.id),
        [b.id, a.id],
      );
      assert.deepEqual(orgs.get(e2), []);
      const single = (await srv().get(`/organizers/${a.id}`)).body;
      const { json_ld: _ld, ...listShape } = single;
      assert.deepEqual(orgs.get(e1)![1], listShape);
      const withLd = await loadLinkedForEvents(srv().db, venueKind, [e1], anon, { jsonLd: true });
      assert.equal((withLd.get(e1)![0]!.json_ld as any)['@type'], 'Place');
      assert.deepEqual(withLd.get(e1)![0], (await srv().get(`/venues/${v.id}`)).body);
    });

    it('leaves out linked records the caller may not read (VO-29)', async () => {
      const draft = await create(srv(), 'venue', { venue: 'Embedded draft', status: 'draft' }, 'editor');
      const pub = await create(srv(), 'venue', { venue: 'Embedded pub' });
      const event = await insertEvent(srv(), { startsInDays: 1, venues: [draft.id, pub.id] });
      const anon = await loadLinkedForEvents(srv().db, venueKind, [event], await contextFor(srv(), null), {
        jsonLd: false,
      });
      assert.deepEqual(
        anon.get(event)!.map((r) => r.id),
        [pub.id],
      );
      const editor = await loadLinkedForEvents(srv().db, venueKind, [event], await contextFor(srv(), 'editor'), {
        jsonLd: false,
      });
      assert.deepEqual(
        editor.get(event)!.map((r) => r.id),
        [draft.id, pub.id],
      );
    });

    it('venue is [] for none, the object for one and a list for several; organizer is always a list (E31)', () => {
      const one = { id: 1 };
      const two = { id: 2 };
      assert.deepEqual(embeddedLinked(venueKind, []), []);
      assert.deepEqual(embeddedLinked(venueKind, [one]), one);
      assert.deepEqual(embeddedLinked(venueKind, [one, two]), [one, two]);
      assert.deepEqual(embeddedLinked(organizerKind, []), []);
      assert.deepEqual(embeddedLinked(organizerKind, [one]), [one]);
    });
  });
  describe('publishLinkedOfEvent (7.3 as decided by VO-28)', () => {
    it('publishes the draft and pending records linked to the event that the caller may publish, never trashed ones', async () => {
      const draft = await create(srv(), 'organizer', { organizer: 'Auto draft', status: 'draft' }, 'editor');
      const pending = await create(srv(), 'organizer', { organizer: 'Auto pending', status: 'pending' }, 'editor');
      const trashed = await create(srv(), 'organizer', { organizer: 'Auto trashed' });
      const priv = await create(srv(), 'organizer', { organizer: 'Auto private', status: 'private' });
      const venue = await create(srv(), 'venue', { venue: 'Auto venue draft', status: 'draft' }, 'editor');
      const event = await insertEvent(srv(), {
        startsInDays: 1,
        venues: [venue.id],
        organizers: [draft.id, pending.id, trashed.id, priv.id],
      });
      await srv().db.updateTable('posts').set({ status: 'trash' }).where('id', '=', trashed.id).execute();
      const contributor = await contextFor(srv(), 'contributor');
      const none = await srv()
        .db.transaction()
        .execute((trx) => publishLinkedOfEvent(trx, [venueKind, organizerKind], event, contributor, nowIn('UTC')));
      assert.deepEqual(none, []);
      const editor = await contextFor(srv(), 'editor');
      const published = await srv()
        .db.transaction()
        .execute((trx) => publishLinkedOfEvent(trx, [venueKind, organizerKind], event, editor, nowIn('UTC')));
      assert.deepEqual(published.sort(), [venue.id, draft.id, pending.id].sort());
      const statuses = await srv()
        .db.selectFrom('posts')
        .select(['id', 'status'])
        .where('id', 'in', [draft.id, pending.id, trashed.id, priv.id, venue.id])
        .orderBy('id')
        .execute();
      assert.deepEqual(
        statuses.map((r) => r.status),
        ['publish', 'publish', 'trash', 'private', 'publish'],
      );
    });
  });
});
