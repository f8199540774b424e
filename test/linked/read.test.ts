import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectRestError, forEachBackend } from '../support/server.js';
import { KINDS, create, insertEvent, insertImage, plural } from './helpers.js';

forEachBackend('GET /venues/{id}, /organizers/{id} and by-slug', (srv) => {
  for (const kind of KINDS) {
    const path = `/${plural(kind)}`;
    const other = kind === 'venue' ? 'organizer' : 'venue';

    describe(`GET ${path}/{id}`, () => {
      it('returns the record with json_ld', async () => {
        const rec = await create(srv(), kind, { [kind]: `Read ${kind}` });
        const res = await srv().get(`${path}/${rec.id}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.id, rec.id);
        assert.equal(res.body[kind], `Read ${kind}`);
        assert.equal(typeof res.body.json_ld, 'object');
        assert.equal(res.headers.get('allow'), 'GET');
      });

      it('an unknown ID, an event, an image and the other kind are 400 rest_invalid_param', async () => {
        const event = await insertEvent(srv(), { startsInDays: 1 });
        const image = await insertImage(srv(), 'https://cdn.example.org/x.jpg');
        const otherRec = await create(srv(), other, {});
        for (const id of [999999, 0, event, image, otherRec.id, '99999999999', '9007199254740993']) {
          const res = await srv().get(`${path}/${id}`);
          expectRestError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): id');
          assert.deepEqual(res.body.data.params, { id: 'Invalid parameter.' });
        }
      });

      it('a non-digit ID matches no route', async () => {
        expectRestError(await srv().get(`${path}/foo`), 404, 'rest_no_route');
        expectRestError(await srv().request('DELETE', path, { as: 'administrator' }), 404, 'rest_no_route');
      });

      it('leading zeros and a trailing slash address the same record', async () => {
        const rec = await create(srv(), kind, {});
        const res = await srv().get(`${path}/00${rec.id}/`);
        assert.equal(res.status, 200);
        assert.equal(res.body.id, rec.id);
      });

      for (const status of ['draft', 'pending', 'private'] as const) {
        it(`a ${status} record: its author and editors read it; anonymous, subscribers and other authors get 403`, async () => {
          const owner = await srv().user('author', `${kind}-${status}-owner`);
          const rec = await create(srv(), kind, { [kind]: `${status} rec`, status }, 'administrator');
          await srv().db.updateTable('posts').set({ author: owner.id }).where('id', '=', rec.id).execute();
          for (const as of [owner, 'editor', 'administrator'] as const) {
            const res = await srv().get(`${path}/${rec.id}`, { as });
            assert.equal(res.status, 200, `${typeof as === 'string' ? as : 'owner'}: ${res.text}`);
            assert.equal(res.body.status, status);
          }
          for (const as of [undefined, 'subscriber', 'contributor', 'author'] as const) {
            const res = await srv().get(`${path}/${rec.id}`, { as });
            expectRestError(res, 403, `${kind}-not-accessible`, `The requested ${kind} is not accessible`);
          }
        });
      }

      it('a scheduled record is hidden from anonymous callers until its time has passed (X 12)', async () => {
        const rec = await create(srv(), kind, { [kind]: 'Scheduled', date: '2099-05-01 10:00:00' });
        assert.equal(rec.status, 'future');
        expectRestError(await srv().get(`${path}/${rec.id}`), 403, `${kind}-not-accessible`);
        await srv()
          .db.updateTable('posts')
          .set({ date: '2020-01-01 00:00:00', date_utc: '2020-01-01 00:00:00' })
          .where('id', '=', rec.id)
          .execute();
        const res = await srv().get(`${path}/${rec.id}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.status, 'publish');
      });

      it('a trashed record is readable by its author and editors only', async () => {
        const rec = await create(srv(), kind, { [kind]: 'Trashed read' });
        await srv().request('DELETE', `${path}/${rec.id}`, { as: 'administrator' });
        expectRestError(await srv().get(`${path}/${rec.id}`), 403, `${kind}-not-accessible`);
        expectRestError(await srv().get(`${path}/${rec.id}`, { as: 'author' }), 403, `${kind}-not-accessible`);
        const res = await srv().get(`${path}/${rec.id}`, { as: 'editor' });
        assert.equal(res.status, 200);
        assert.equal(res.body.status, 'trash');
      });
    });

    describe(`GET ${path}/by-slug/{slug}`, () => {
      it('returns exactly what the ID route returns', async () => {
        const rec = await create(srv(), kind, { [kind]: 'Slug Lookup Place' });
        const bySlug = await srv().get(`${path}/by-slug/slug-lookup-place`);
        const byId = await srv().get(`${path}/${rec.id}`);
        assert.equal(bySlug.status, 200);
        assert.deepEqual(bySlug.body, byId.body);
      });

      it('the requested slug is normalised before the exact lookup (VO-24)', async () => {
        const rec = await create(srv(), kind, { [kind]: 'A Spaced Name' });
        const res = await srv().get(`${path}/by-slug/A%20Spaced%20Name`);
        assert.equal(res.status, 200);
        assert.equal(res.body.id, rec.id);
        expectRestError(
          await srv().get(`${path}/by-slug/a-spaced`),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): slug',
        );
      });

      it('an unknown slug or the slug of another kind is 400 rest_invalid_param', async () => {
        await create(srv(), other, { [other]: `Only Other Kind Slug ${kind}` });
        expectRestError(
          await srv().get(`${path}/by-slug/only-other-kind-slug-${kind}`),
          400,
          'rest_invalid_param',
          'Invalid parameter(s): slug',
        );
        expectRestError(await srv().get(`${path}/by-slug/no-such-thing`), 400, 'rest_invalid_param');
      });

      it('applies the same visibility as the ID route', async () => {
        await create(srv(), kind, { [kind]: 'Hidden Slug Draft', status: 'draft' });
        expectRestError(await srv().get(`${path}/by-slug/hidden-slug-draft`), 403, `${kind}-not-accessible`);
        assert.equal((await srv().get(`${path}/by-slug/hidden-slug-draft`, { as: 'editor' })).status, 200);
      });
    });

    describe(`${kind} slugs (4.6)`, () => {
      it('are derived from the name and made unique with -2, -3 among published records', async () => {
        const a = await create(srv(), kind, { [kind]: 'Café Concert' });
        const b = await create(srv(), kind, { [kind]: 'Café Concert', description: 'different' });
        const c = await create(srv(), kind, { [kind]: 'cafe concert!', description: 'another' });
        assert.equal(a.slug, 'cafe-concert');
        assert.equal(b.slug, 'cafe-concert-2');
        assert.equal(c.slug, 'cafe-concert-3');
      });

      it('reserved words get a suffix; a name without slug characters gets the ID', async () => {
        const feed = await create(srv(), kind, { [kind]: 'Feed' });
        assert.equal(feed.slug, 'feed-2');
        const bang = await create(srv(), kind, { [kind]: '!!!' });
        assert.equal(bang.slug, String(bang.id));
      });

      it('drafts may share a slug, made unique when published; renaming keeps the slug', async () => {
        const pub = await create(srv(), kind, { [kind]: 'Shared Draft Slug' });
        const draft = await create(srv(), kind, {
          [kind]: 'Shared Draft Slug',
          description: 'draft one',
          status: 'draft',
        });
        assert.equal(draft.slug, 'shared-draft-slug');
        const published = await srv().request('PATCH', `${path}/${draft.id}`, {
          as: 'administrator',
          json: { status: 'publish', [kind]: 'Renamed' },
        });
        assert.equal(published.status, 200, published.text);
        assert.equal(published.body.slug, 'shared-draft-slug-2');
        assert.equal(published.body[kind], 'Renamed');
        assert.equal(pub.slug, 'shared-draft-slug');
      });

      it('the slug space is per type: a venue and an organizer may share one', async () => {
        const rec = await create(srv(), kind, { [kind]: 'Cross Type Name' });
        const otherRec = await create(srv(), other, { [other]: 'Cross Type Name' });
        assert.equal(rec.slug, 'cross-type-name');
        assert.equal(otherRec.slug, 'cross-type-name');
      });
    });
  }
});
